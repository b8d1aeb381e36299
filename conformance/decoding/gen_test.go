package decoding

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/podlife/podlife/conformance/internal/served"
)

// node is a document tree the generator renders as block YAML, flow YAML or JSON. A
// map keeps its keys in order and may repeat one (a duplicate key); a scalar is
// written as is (already quoted when it is a string).
type node struct {
	keys   []string
	values []*node
	list   []*node
	isList bool
	scalar string
}

func mapNode(kv ...any) *node {
	n := &node{}
	for i := 0; i < len(kv); i += 2 {
		n.set(kv[i].(string), kv[i+1])
	}
	return n
}

func listNode(items ...any) *node {
	n := &node{isList: true}
	for _, it := range items {
		n.list = append(n.list, toNode(it))
	}
	return n
}

func toNode(v any) *node {
	switch t := v.(type) {
	case *node:
		return t
	case string:
		return &node{scalar: strconv.Quote(t)}
	case int:
		return &node{scalar: strconv.Itoa(t)}
	case bool:
		return &node{scalar: strconv.FormatBool(t)}
	}
	panic(fmt.Sprintf("toNode(%T)", v))
}

func raw(s string) *node { return &node{scalar: s} }

func (n *node) isMap() bool { return !n.isList && n.scalar == "" }

func (n *node) set(k string, value any) {
	v := toNode(value)
	for i, key := range n.keys {
		if key == k {
			n.values[i] = v
			return
		}
	}
	n.keys, n.values = append(n.keys, k), append(n.values, v)
}

func (n *node) get(k string) *node {
	for i, key := range n.keys {
		if key == k {
			return n.values[i]
		}
	}
	return nil
}

func (n *node) del(k string) {
	for i, key := range n.keys {
		if key == k {
			n.keys = append(n.keys[:i], n.keys[i+1:]...)
			n.values = append(n.values[:i], n.values[i+1:]...)
			return
		}
	}
}

// json renders the node as JSON (scalars as written).
func (n *node) json(b *strings.Builder) {
	switch {
	case n.isList:
		b.WriteString("[")
		for i, it := range n.list {
			if i > 0 {
				b.WriteString(", ")
			}
			it.json(b)
		}
		b.WriteString("]")
	case n.scalar != "":
		b.WriteString(n.scalar)
	default:
		b.WriteString("{")
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q: ", k)
			n.values[i].json(b)
		}
		b.WriteString("}")
	}
}

// flow renders the node in YAML flow style (unquoted keys).
func (n *node) flow(b *strings.Builder) {
	switch {
	case n.isList:
		b.WriteString("[")
		for i, it := range n.list {
			if i > 0 {
				b.WriteString(", ")
			}
			it.flow(b)
		}
		b.WriteString("]")
	case n.scalar != "":
		b.WriteString(n.scalar)
	default:
		b.WriteString("{")
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(yamlKey(k) + ": ")
			n.values[i].flow(b)
		}
		b.WriteString("}")
	}
}

// block renders the node in YAML block style at an indentation.
func (n *node) block(b *strings.Builder, indent string) {
	for i, k := range n.keys {
		v := n.values[i]
		b.WriteString(indent + yamlKey(k) + ":")
		v.blockValue(b, indent)
	}
}

func (n *node) blockValue(b *strings.Builder, indent string) {
	switch {
	case n.scalar != "":
		b.WriteString(" " + n.scalar + "\n")
	case n.isList && len(n.list) == 0:
		b.WriteString(" []\n")
	case n.isList:
		b.WriteString("\n")
		for _, it := range n.list {
			switch {
			case it.isMap() && len(it.keys) > 0:
				var inner strings.Builder
				it.block(&inner, indent+"  ")
				b.WriteString(indent + "- " + strings.TrimPrefix(inner.String(), indent+"  "))
			case it.isMap():
				b.WriteString(indent + "- {}\n")
			default:
				var inner strings.Builder
				it.flow(&inner)
				b.WriteString(indent + "- " + inner.String() + "\n")
			}
		}
	case len(n.keys) == 0:
		b.WriteString(" {}\n")
	default:
		b.WriteString("\n")
		n.block(b, indent+"  ")
	}
}

func yamlKey(k string) string {
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '/') {
			return strconv.Quote(k)
		}
	}
	return k
}

// clone copies a node deeply.
func (n *node) clone() *node {
	c := &node{isList: n.isList, scalar: n.scalar, keys: append([]string(nil), n.keys...)}
	for _, v := range n.values {
		c.values = append(c.values, v.clone())
	}
	for _, v := range n.list {
		c.list = append(c.list, v.clone())
	}
	return c
}

// gen builds random manifest streams and counts what it put in them.
type gen struct {
	r *rand.Rand
	// w, when set (withWarnings), draws what makes the server warn on create,
	// apart from r so that the rest of a stream is what it was without.
	w        *rand.Rand
	coverage map[string]int
}

func newGen(seed int64) *gen {
	return &gen{r: rand.New(rand.NewSource(seed)), coverage: map[string]int{}}
}

// withWarnings has g also write what the server warns about on create (names that
// are not DNS labels, variables hiding earlier ones, deprecated node labels).
func (g *gen) withWarnings(seed int64) *gen {
	g.w = rand.New(rand.NewSource(seed))
	return g
}

// warns reports, with probability p, whether to write something the server warns
// about; never without withWarnings.
func (g *gen) warns(p float64) bool { return g.w != nil && g.w.Float64() < p }

func (g *gen) pick(items ...string) string { return items[g.r.Intn(len(items))] }
func (g *gen) chance(p float64) bool       { return g.r.Float64() < p }
func (g *gen) note(category string)        { g.coverage[category]++ }

func (g *gen) name() string {
	name := g.pick("web", "api", "db", "cache", "worker", "job", "a", "x-1", "Bad_Name", "") + g.pick("", "-0", "-1", "-beta")
	if name != "" && g.warns(0.1) {
		name += ".v2" // not a DNS label: the server warns
	}
	return name
}

func (g *gen) container() *node {
	c := mapNode("name", g.pick("app", "sidecar", "c"), "image", g.pick("nginx:1.27", "busybox", "registry.example.com/app:1"))
	if g.chance(0.4) {
		c.set("ports", listNode(mapNode("containerPort", 80+g.r.Intn(3), "protocol", g.pick("TCP", "UDP"))))
	}
	if g.chance(0.3) {
		c.set("resources", mapNode("requests", mapNode("cpu", g.pick("100m", "1", "0.5"), "memory", g.pick("64Mi", "1Gi")),
			"limits", mapNode("memory", "128Mi")))
	}
	if g.chance(0.2) {
		c.set("command", listNode("sh", "-c", "sleep 10"))
	}
	if g.chance(0.2) {
		env := listNode(mapNode("name", "MODE", "value", g.pick("fast", "slow")))
		if g.warns(0.5) {
			// The server warns about a variable that hides an earlier one.
			env.list = append(env.list, mapNode("name", "MODE", "value", []string{"$(MODE)-debug", "debug"}[g.w.Intn(2)]))
		}
		c.set("env", env)
	}
	return c
}

func (g *gen) podSpec(restart string) *node {
	s := mapNode("containers", listNode(g.container()))
	if g.chance(0.3) {
		s.get("containers").list = append(s.get("containers").list, g.container())
	}
	if restart != "" {
		s.set("restartPolicy", toNode(restart))
	}
	if g.chance(0.2) {
		s.set("volumes", listNode(mapNode("name", "data", "emptyDir", mapNode())))
	}
	if g.warns(0.15) {
		// A deprecated node label, which the server warns about.
		s.set("nodeSelector", mapNode([]string{"beta.kubernetes.io/os", "kubernetes.io/os"}[g.w.Intn(2)], "linux"))
	}
	return s
}

func (g *gen) meta() *node {
	m := mapNode("name", g.name())
	if g.chance(0.3) {
		ns := g.pick("prod", "default", "kube-system")
		if g.chance(0.1) {
			// client-go builds no URL for these: kubectl sends nothing.
			ns = g.pick("team/a", "..", ".", "a%2Fb")
			g.note("namespace not a path segment")
		}
		m.set("namespace", ns)
	}
	if g.chance(0.4) {
		m.set("labels", mapNode("app", "web"))
	}
	return m
}

func (g *gen) template(restart string) *node {
	return mapNode("metadata", mapNode("labels", mapNode("app", "web")), "spec", g.podSpec(restart))
}

// object returns a random object: mostly kinds that hold a pod, some others.
func (g *gen) object() *node {
	selector := mapNode("matchLabels", mapNode("app", "web"))
	switch g.r.Intn(13) {
	case 0, 1, 2:
		g.note("kind/Pod")
		return mapNode("apiVersion", "v1", "kind", "Pod", "metadata", g.meta(), "spec", g.podSpec(""))
	case 3:
		g.note("kind/Deployment")
		return mapNode("apiVersion", "apps/v1", "kind", "Deployment", "metadata", g.meta(), "spec", mapNode("replicas", 2, "selector", selector, "template", g.template("")))
	case 4:
		g.note("kind/StatefulSet")
		return mapNode("apiVersion", "apps/v1", "kind", "StatefulSet", "metadata", g.meta(), "spec", mapNode("serviceName", "web", "selector", selector, "template", g.template(""),
			"volumeClaimTemplates", listNode(mapNode("metadata", mapNode("name", "www"), "spec", mapNode("accessModes", listNode("ReadWriteOnce"), "resources", mapNode("requests", mapNode("storage", "1Gi")))))))
	case 5:
		g.note("kind/DaemonSet")
		return mapNode("apiVersion", "apps/v1", "kind", "DaemonSet", "metadata", g.meta(), "spec", mapNode("selector", selector, "template", g.template("")))
	case 6:
		g.note("kind/Job")
		return mapNode("apiVersion", "batch/v1", "kind", "Job", "metadata", g.meta(), "spec", mapNode("backoffLimit", 4, "template", g.template("Never")))
	case 7:
		g.note("kind/CronJob")
		return mapNode("apiVersion", "batch/v1", "kind", "CronJob", "metadata", g.meta(), "spec", mapNode("schedule", g.pick("*/5 * * * *", "0 3 * *"),
			"jobTemplate", mapNode("spec", mapNode("template", g.template("OnFailure")))))
	case 8:
		g.note("kind/ReplicationController")
		return mapNode("apiVersion", "v1", "kind", "ReplicationController", "metadata", g.meta(), "spec", mapNode("selector", mapNode("app", "web"), "template", g.template("")))
	case 9:
		g.note("kind/PodTemplate")
		return mapNode("apiVersion", "v1", "kind", "PodTemplate", "metadata", g.meta(), "template", g.template(""))
	case 10:
		g.note("kind/Service")
		return mapNode("apiVersion", "v1", "kind", "Service", "metadata", g.meta(), "spec", mapNode("ports", listNode(mapNode("port", 80)), "selector", mapNode("app", "web")))
	case 12:
		// Any other kind a default server lists, with no more than its metadata: the
		// read-only ComponentStatus (405), the create-only reviews, cluster-scoped
		// kinds given a namespace, kinds whose types the server decodes.
		g.note("kind/other served")
		k := servedOthers()[g.r.Intn(len(servedOthers()))]
		if g.chance(0.15) {
			k = served.Kind{Version: "v1", Kind: "ComponentStatus"} // the one kind without create
		}
		if k.Kind == "ComponentStatus" {
			g.note("kind/ComponentStatus")
		}
		apiVersion := k.Version
		if k.Group != "" {
			apiVersion = k.Group + "/" + k.Version
		}
		return mapNode("apiVersion", apiVersion, "kind", k.Kind, "metadata", g.meta())
	default:
		g.note("kind/ConfigMap")
		return mapNode("apiVersion", "v1", "kind", "ConfigMap", "metadata", g.meta(), "data", mapNode("k", "v"))
	}
}

// servedOthers lists the kinds a default server serves that hold no pod.
var servedOthers = sync.OnceValue(func() []served.Kind {
	kinds, _, err := served.Kinds()
	if err != nil {
		panic(err)
	}
	return slices.DeleteFunc(kinds, func(k served.Kind) bool {
		return holdsPod(k.Kind)
	})
})

// maps lists the map nodes of a tree with their depths.
func maps(n *node, depth int, out *[]*node, depths *[]int) {
	if n.isMap() {
		*out, *depths = append(*out, n), append(*depths, depth)
	}
	for _, v := range n.values {
		maps(v, depth+1, out, depths)
	}
	for _, v := range n.list {
		maps(v, depth+1, out, depths)
	}
}

// scalars lists the (parent, key) of every scalar value below maps.
func scalars(n *node, out *[][2]any) {
	for i, v := range n.values {
		if v.scalar != "" {
			*out = append(*out, [2]any{n, n.keys[i]})
		}
		scalars(v, out)
	}
	for _, v := range n.list {
		scalars(v, out)
	}
}

// mutate applies 0 to 2 faults to an object.
func (g *gen) mutate(obj *node) {
	for range g.r.Intn(3) {
		switch g.r.Intn(15) {
		case 0, 1, 2:
			var ms []*node
			var ds []int
			maps(obj, 0, &ms, &ds)
			i := g.r.Intn(len(ms))
			ms[i].set(g.pick("contianers", "imagePullPolice", "resource", "replica", "Spec", "zz", "workloadRef"), toNode(g.pick("x", "1")))
			g.note(fmt.Sprintf("unknown field at depth %d", min(ds[i], 5)))
		case 3, 4:
			var ms []*node
			var ds []int
			maps(obj, 0, &ms, &ds)
			m := ms[g.r.Intn(len(ms))]
			if len(m.keys) > 0 {
				j := g.r.Intn(len(m.keys))
				m.keys = append(m.keys, m.keys[j])
				m.values = append(m.values, m.values[j].clone())
				g.note("duplicate key")
			}
		case 5, 6:
			var ss [][2]any
			scalars(obj, &ss)
			if len(ss) > 0 {
				s := ss[g.r.Intn(len(ss))]
				parent, key := s[0].(*node), s[1].(string)
				parent.set(key, g.wrongValue())
				g.note("wrong type")
			}
		case 7:
			g.mutateTypeMeta(obj)
		case 8:
			obj.set("metadata", g.pick2(raw(`{"name": 5}`), raw(`{"labels": ["a"]}`), raw(`"meta"`), raw("null"), mapNode("name", "n", "resourceVersion", "7")))
			g.note("metadata")
		case 9:
			if spec := obj.get("spec"); spec != nil && spec.isMap() {
				spec.set(g.pick("replicas", "activeDeadlineSeconds", "backoffLimit", "minReadySeconds"), raw(g.pick("3", "3.0", "1e3", "1.5", "18446744073709551615", "-0", "99999999999999999999", `"3"`)))
				g.note("numbers")
			}
		case 10:
			obj.set("status", mapNode("phase", "Running", "bogus", 1))
			g.note("status")
		case 11:
			obj.set("items", g.pick2(raw("null"), raw("[]"), raw("5")))
			g.note("items on an object")
		case 12:
			// The deprecated annotations the conversion to the internal version
			// reads as numbers: a Deployment's or a DaemonSet's conversion fails
			// on a value that is not one, before strict field errors are reported.
			if m := obj.get("metadata"); m != nil && m.isMap() {
				key := g.pick("deprecated.deployment.rollback.to", "deprecated.daemonset.template.generation")
				m.set("annotations", mapNode(key, g.pick("latest", "", "3", "1e3")))
				if kind := obj.get("kind"); kind != nil && (kind.scalar == `"Deployment"` || kind.scalar == `"DaemonSet"`) {
					g.note("conversion annotation")
				}
			}
		default:
			// no fault
		}
	}
}

func (g *gen) pick2(nodes ...*node) *node { return nodes[g.r.Intn(len(nodes))] }

func (g *gen) wrongValue() *node {
	return g.pick2(raw("5"), raw("true"), raw("[1, 2]"), mapNode("a", "b"), raw(`"text"`), raw("null"), raw("1.5"), raw("{}"))
}

// mutateTypeMeta damages apiVersion or kind as people do.
func (g *gen) mutateTypeMeta(obj *node) {
	switch g.r.Intn(10) {
	case 0:
		obj.del("apiVersion")
		g.note("apiVersion missing")
	case 1:
		obj.del("kind")
		g.note("kind missing")
	case 2:
		obj.set("apiVersion", raw(g.pick("1", "true", "[v1]", "null")))
		g.note("apiVersion not a string")
	case 3:
		obj.set("kind", raw(g.pick("1", "{}", "null")))
		g.note("kind not a string")
	case 4:
		obj.set("apiVersion", g.pick("batch/v1beta1", "extensions/v1beta1", "apps/v1beta2", "apps/v1beta1", "policy/v1beta1"))
		g.note("version not served")
	case 5:
		obj.set("apiVersion", g.pick("apps/v1", "batch/v1", "v1", "networking.k8s.io/v1"))
		g.note("another group")
	case 6:
		if k := obj.get("kind"); k != nil {
			s, _ := strconv.Unquote(k.scalar)
			obj.set("kind", g.pick(strings.ToLower(s), strings.ToUpper(s), s+"s", "Pods"))
			g.note("kind spelling")
		}
	case 7:
		if v := obj.get("apiVersion"); v != nil && g.chance(0.6) {
			// The group with no version: kubectl maps it, and posts where nothing is served.
			s, _ := strconv.Unquote(v.scalar)
			group, _, _ := strings.Cut(s, "/")
			if !strings.Contains(s, "/") {
				group = ""
			}
			obj.set("apiVersion", group+g.pick("/", ""))
			g.note("apiVersion without version")
			return
		}
		obj.set("apiVersion", g.pick("", "apps/", "/v1", "a/b/c", "apps/v1/"))
		g.note("apiVersion malformed")
	case 8:
		obj.set("kind", "")
		g.note("kind empty")
	default:
		obj.set("Kind", "Pod")
		g.note("key case")
	}
}

// list wraps objects in a List kind.
func (g *gen) list(items []*node) *node {
	switch g.r.Intn(5) {
	case 0:
		g.note("list/PodList")
		for _, it := range items {
			if g.chance(0.6) {
				it.del("apiVersion")
				it.del("kind")
			}
		}
		return mapNode("apiVersion", "v1", "kind", "PodList", "items", listNode(anyNodes(items)...))
	case 1:
		g.note("list/DeploymentList")
		return mapNode("apiVersion", "apps/v1", "kind", "DeploymentList", "items", listNode(anyNodes(items)...))
	case 2:
		g.note("list/apps List")
		return mapNode("apiVersion", "apps/v1", "kind", "List", "items", listNode(anyNodes(items)...))
	case 3:
		g.note("list/nested")
		inner := mapNode("apiVersion", "v1", "kind", "List", "items", listNode(anyNodes(items)...))
		return mapNode("apiVersion", "v1", "kind", "List", "items", listNode(inner, g.object()))
	default:
		g.note("list/List")
		l := mapNode("apiVersion", "v1", "kind", "List", "items", listNode(anyNodes(items)...))
		if g.chance(0.2) {
			l.set("metadata", mapNode("resourceVersion", ""))
		}
		return l
	}
}

func anyNodes(ns []*node) []any {
	out := make([]any, len(ns))
	for i, n := range ns {
		out[i] = n
	}
	return out
}

// document returns one document's object (possibly a List).
func (g *gen) document() *node {
	if g.chance(0.15) {
		var items []*node
		for range 1 + g.r.Intn(3) {
			it := g.object()
			g.mutate(it)
			items = append(items, it)
		}
		return g.list(items)
	}
	obj := g.object()
	g.mutate(obj)
	return obj
}

// stream returns a file's bytes.
func (g *gen) stream() []byte {
	var b strings.Builder
	n := 1 + g.r.Intn(4)
	jsonStream := g.chance(0.15)
	if jsonStream {
		g.note("format/JSON stream")
		for i := range n {
			doc := g.document()
			doc.json(&b)
			if i < n-1 || g.chance(0.5) {
				b.WriteString(g.pick("\n", "", " \n\n"))
			}
		}
		if g.chance(0.1) {
			b.WriteString(g.pick("{", "x: 1\n", "---\na: 1\n", "]"))
			g.note("format/JSON tail")
		}
		return g.encode(b.String())
	}
	var prev *node
	for i := range n {
		if i > 0 || g.chance(0.3) {
			b.WriteString(g.pick("---\n", "--- # next\n", "---\n\n"))
		}
		if g.chance(0.1) {
			b.WriteString("# a comment\n")
		}
		doc := g.document()
		if prev != nil && g.chance(0.15) {
			// A document copied twice, as pasted: the storage refuses the second
			// of two objects of one name.
			g.note("document repeated")
			doc = prev
		}
		prev = doc
		switch {
		case g.chance(0.12):
			g.note("format/flow")
			doc.flow(&b)
			b.WriteString("\n")
		case g.chance(0.08):
			g.note("format/JSON document in YAML")
			doc.json(&b)
			b.WriteString("\n")
		default:
			g.note("format/block")
			doc.block(&b, "")
		}
		if g.chance(0.05) {
			b.WriteString(g.pick("---\n---\n", "---\n# only a comment\n", "--- !tag\n", "  bad: [\n", "\tkey: tab\n", "a: b: c\n"))
			g.note("format/broken or empty")
		}
	}
	return g.encode(b.String())
}

// encode writes the text as a file: mostly plain UTF-8, sometimes with CRLF, a
// byte-order mark, UTF-16 or a stray invalid byte.
func (g *gen) encode(s string) []byte {
	switch g.r.Intn(20) {
	case 0:
		g.note("encoding/CRLF")
		return []byte(strings.ReplaceAll(s, "\n", "\r\n"))
	case 1:
		g.note("encoding/UTF-8 BOM")
		return append([]byte{0xEF, 0xBB, 0xBF}, s...)
	case 2:
		g.note("encoding/UTF-16LE")
		out := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			out = append(out, byte(u), byte(u>>8))
		}
		return out
	case 3:
		g.note("encoding/invalid UTF-8")
		i := strings.Index(s, "name: ")
		if i < 0 {
			return []byte(s)
		}
		return append(append([]byte(s[:i+6]), 0xC3, 0x28), s[i+6:]...)
	}
	return []byte(s)
}

// report lists the coverage counts.
func (g *gen) report() string {
	var keys []string
	for k := range g.coverage {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%d ", k, g.coverage[k])
	}
	return b.String()
}
