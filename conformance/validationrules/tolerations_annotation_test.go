package validationrules

import (
	"encoding/json"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/conformance/internal/gatesets"
	"github.com/podlife/podlife/conformance/internal/upstreamcreate"
	"github.com/podlife/podlife/validation"
)

const tolerationsAnnotation = "scheduler.alpha.kubernetes.io/tolerations"

// fixedTolerationAnnotations are hand-picked values: JSON of every shape the decoder
// can reject, and tolerations breaking each rule.
var fixedTolerationAnnotations = []string{
	"", " ", "null", "[]", "{}", `"x"`, "1", "true", "[null]", "[1]", `["a"]`, "[[]]", "[{}]",
	"[] x", "[]]", "[", "[{", `[{"key":}]`, "x", "\x00", "[\xff]", `[{"key":"\xff"}]`,
	`[{"key":5}]`, `[{"operator":5}]`, `[{"effect":true}]`, `[{"value":{}}]`, `[{"key":[]}]`,
	`[{"tolerationSeconds":1.5}]`, `[{"tolerationSeconds":"1"}]`, `[{"tolerationSeconds":1e3}]`,
	`[{"tolerationSeconds":99999999999999999999}]`, `[{"tolerationSeconds":-1,"effect":"NoExecute","operator":"Exists"}]`,
	`[{"TOLERATIONSECONDS":5,"Operator":"Exists"}]`, `[{"tolerationSeconds":null,"operator":"Exists"}]`,
	`[{"operator":"Exists"}]`, `[{"key":"a","operator":"Equal","value":"b","effect":"NoSchedule"}]`,
	`[{"key":"bad key!","operator":"Exists"}]`, `[{"key":"a","operator":"Foo"}]`, `[{"key":"a","operator":"Lt","value":"x"}]`,
	`[{"key":"a","operator":"Gt","value":"99999999999999999999"}]`, `[{"key":"a","operator":"Gt","value":"10"}]`,
	`[{"key":"a","operator":"Exists","value":"v"}]`, `[{"key":"a","value":"bad value!"}]`, `[{"operator":"Equal"}]`,
	`[{"key":"a","effect":"Bad"}]`, `[{"key":"a","tolerationSeconds":5,"effect":"NoSchedule"}]`,
	`[{"key":"a","Key":"b","KEY":"bad key!"}]`, `[{"unknown":1,"key":"a"}]`, `[{"k\u0065y":"a"}]`,
	`[{"key":"a"},{"key":""},{"key":"x/y/z"}]`, `[{"key":"a","operator":5},{"key":"b","effect":1}]`,
	`[{"key":"a"}] trailing`, `[{"key":"a"},]`, "\ufeff[]", `[{"key":"b","tolerationSeconds":0}]`,
	`[{"key":"a","operator":"Gt","value":"x"},{"key":"a","operator":"Lt","value":"10"}]`, `[{"key":"a","operator":"Lt","value":"+3"}]`,
	`[{"key":"a","tolerationSeconds":null,"effect":"NoSchedule"}]`, `[{"KEY":"a","Operator":"Exists","EFFECT":"NoExecute","tolerationseconds":5}]`,
}

type tgen struct{ r *rand.Rand }

func (g tgen) pick(s ...string) string { return s[g.r.Intn(len(s))] }

// jsonField renders one field of a toleration object: its name in some spelling, and
// a value that is usually of the right JSON type and sometimes not.
func (g tgen) jsonField(name string, good func() string) string {
	spelled := g.pick(name, name, name, strings.ToUpper(name), strings.ToUpper(name[:1])+name[1:])
	var val string
	switch g.r.Intn(25) {
	case 0:
		val = g.pick("5", "true", "null", "{}", "[]", `["x"]`, "-1.5")
	default:
		val = good()
	}
	return strconv.Quote(spelled) + ":" + val
}

func (g tgen) str(pool ...string) func() string {
	return func() string { b, _ := json.Marshal(g.pick(pool...)); return string(b) }
}

func (g tgen) toleration() string {
	var fields []string
	if g.r.Intn(4) != 0 {
		fields = append(fields, g.jsonField("key", g.str("a", "example.com/tier", "", "bad key!", "Bad_Key", "a/b/c", strings.Repeat("k", 64), "node.kubernetes.io/not-ready")))
	}
	if g.r.Intn(4) != 0 {
		fields = append(fields, g.jsonField("operator", g.str("", "Equal", "Exists", "Lt", "Gt", "Foo", "exists")))
	}
	if g.r.Intn(3) != 0 {
		fields = append(fields, g.jsonField("value", g.str("", "v", "bad value!", "10", "-5", "+3", "007", "abc", "99999999999999999999", strings.Repeat("v", 64))))
	}
	if g.r.Intn(3) != 0 {
		fields = append(fields, g.jsonField("effect", g.str("", "NoSchedule", "PreferNoSchedule", "NoExecute", "Bad", "noexecute")))
	}
	if g.r.Intn(3) == 0 {
		fields = append(fields, g.jsonField("tolerationSeconds", func() string {
			return g.pick("0", "5", "-1", "300", "1.5", `"3"`, "1e3", "99999999999999999999", "null")
		}))
	}
	if g.r.Intn(10) == 0 {
		fields = append(fields, `"extra":`+g.pick("1", `"x"`, "{}"))
	}
	g.r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	return "{" + strings.Join(fields, ",") + "}"
}

// value is a random annotation value: mostly a list of tolerations, sometimes
// another JSON value, sometimes damaged text.
func (g tgen) value() string {
	var items []string
	for i := g.r.Intn(4); i > 0; i-- {
		if g.r.Intn(15) == 0 {
			items = append(items, g.pick("null", "1", `"t"`, "[]", "true"))
			continue
		}
		items = append(items, g.toleration())
	}
	s := "[" + strings.Join(items, ",") + "]"
	switch g.r.Intn(12) {
	case 0:
		return g.pick("{}", `{"key":"a"}`, `"x"`, "1", "null", "false", "")
	case 1: // truncated
		return s[:g.r.Intn(len(s)+1)]
	case 2: // trailing garbage
		return s + g.pick(" x", "]", ",", " []", "\n")
	case 3: // a damaged byte
		b := []byte(s)
		b[g.r.Intn(len(b))] = g.pick("\xff", "}", "]", ":", ",", "\"", " ")[0]
		return string(b)
	}
	return s
}

func tolerationAnnotationPod(n int, value string, g tgen) *v1.Pod {
	p := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "pod-" + strconv.Itoa(n), Namespace: "ns",
			Annotations: map[string]string{tolerationsAnnotation: value},
		},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "img"}}},
	}
	if g.r.Intn(5) == 0 {
		p.Annotations["kubernetes.io/config.mirror"] = "m"
	}
	if g.r.Intn(5) == 0 {
		p.Annotations["controller.kubernetes.io/pod-deletion-cost"] = g.pick("1", "x")
	}
	if g.r.Intn(5) == 0 {
		p.Spec.Tolerations = []v1.Toleration{{Key: g.pick("a", "bad key!"), Operator: v1.TolerationOperator(g.pick("Exists", "Lt"))}}
	}
	return p
}

// TestTolerationsAnnotationMatchesUpstream compares podlife and upstream on pods
// whose legacy tolerations annotation is a fixed tricky value or a random one, with
// the TaintTolerationComparisonOperators gate at its default and on
// (PODLIFE_SEED overrides the seed, PODLIFE_N the count of random values).
func TestTolerationsAnnotationMatchesUpstream(t *testing.T) {
	seed := upstreamcreate.Seed(t, 20261130)
	n := upstreamcreate.Count(t, 10000)
	sets := gatesets.Standard(gatesets.Set{Name: "comparison-operators", Overrides: map[string]bool{"TaintTolerationComparisonOperators": true}})
	for _, set := range sets {
		gates := set.Features()
		t.Run(set.Name, func(t *testing.T) {
			gatesets.Apply(t, set)
			g := tgen{rand.New(rand.NewSource(seed))}
			total, invalid, decodeErrs, ruleErrs, disagree := 0, 0, 0, 0, 0
			check := func(i int, value string) {
				pod := tolerationAnnotationPod(i, value, g)
				theirs := upstreamCreate(t, pod)
				ours := validation.ValidatePodCreate(pod, validation.Options{Features: gates})
				total++
				if len(theirs) > 0 {
					invalid++
				}
				decodeErr, ruleErr := false, false
				for _, e := range theirs {
					decodeErr = decodeErr || e.Field == "metadata.annotations" && e.BadValue == tolerationsAnnotation
					ruleErr = ruleErr || strings.HasPrefix(e.Field, "metadata.annotations."+tolerationsAnnotation+"[")
				}
				if decodeErr {
					decodeErrs++
				}
				if ruleErr {
					ruleErrs++
				}
				if msg := compareDetailed(ours, theirs); msg != "" {
					disagree++
					if disagree <= 5 {
						t.Errorf("seed %d, pod %d, annotation %q disagrees:\n%s\nupstream: %s", seed, i, value, msg, goList(strs(theirs)))
					}
				}
			}
			for i, v := range fixedTolerationAnnotations {
				check(i, v)
			}
			for i := 0; i < n; i++ {
				check(len(fixedTolerationAnnotations)+i, g.value())
			}
			t.Logf("seed %d: %d pods (%d invalid upstream; %d with an annotation decoding error, %d with annotation toleration errors), %d disagreeing",
				seed, total, invalid, decodeErrs, ruleErrs, disagree)
			if share := float64(invalid) / float64(total); share < 0.3 || share > 0.95 {
				t.Errorf("%.2f of the pods are invalid upstream, want 0.3 to 0.95", share)
			}
			if decodeErrs < total/20 || ruleErrs < total/20 {
				t.Errorf("%d pods with a decoding error and %d with toleration errors, want at least %d of each", decodeErrs, ruleErrs, total/20)
			}
			if disagree > 0 {
				t.Fail()
			}
		})
	}
}
