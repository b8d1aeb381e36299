package resources_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/resources"
)

// TestExplainString checks the rendering of Explain, and that its results are the
// ones PodRequests and PodLimits give.
func TestExplainString(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  tp
		opts resources.PodResourcesOptions
		want string
	}{
		{"empty pod", tp{}, resources.PodResourcesOptions{}, `REQUESTS  RESULT  OP  TERM  VALUE    DETAIL
(none)
LIMITS    RESULT  OP  TERM  VALUE    DETAIL
(none)
`},
		{"pod-level and overhead", tp{res: rrp("cpu=2 ephemeral-storage=1Gi", "memory=1Gi"), ctrs: []corev1.Container{ctr("app", "cpu=1 memory=512Mi", "cpu=0")}, overhead: "cpu=100m memory=10Mi"}, resources.PodResourcesOptions{}, `REQUESTS  RESULT  OP   TERM        VALUE     DETAIL
  cpu     2100m   max  containers  1      *  (app 1)
                  =    pod-level   2         (spec.resources)
                  +    overhead    100m      (spec.overhead)
  memory  522Mi   max  containers  512Mi  *  (app 512Mi)
                  +    overhead    10Mi      (spec.overhead)
LIMITS    RESULT  OP   TERM        VALUE     DETAIL
  cpu     0       max  containers  0      *  (app 0)
                  +    overhead    100m      (not used: no limit to add to)
  memory  1034Mi  =    pod-level   1Gi       (spec.resources)
                  +    overhead    10Mi      (spec.overhead)
`},
		{"infeasible resize", tp{cond: infeasible, ctrs: []corev1.Container{ctr("app", "cpu=4", "cpu=4"), ctr("new", "cpu=1", "")}, ctrSt: []corev1.ContainerStatus{st("app", "cpu=2", rrp("cpu=3", "cpu=3"))}}, withStatus, `REQUESTS  RESULT  OP   TERM          VALUE     DETAIL
  cpu     3       max  spec          5         (not used: resize infeasible)
                  max    containers  5         (app 4 + new 1)
                  max  actuated      3      *  (container statuses)
                  max  allocated     2         (container statuses)
LIMITS    RESULT  OP   TERM          VALUE     DETAIL
  cpu     3       max  spec          4         (not used: resize infeasible)
                  max    containers  4         (app 4)
                  max  actuated      3      *  (container statuses)
`},
		{"DRA and non-missing requests", tp{ctrs: []corev1.Container{ctr("c1", "memory=1Gi", "memory=1Gi"), ctr("c2", "", "")}, claims: claims(claim([]string{"c1", "c2"}, "cpu=1", ovh("memory", "", "1Gi")))},
			resources.PodResourcesOptions{UseDRANodeAllocatableResourceClaimStatus: true, NonMissingContainerRequests: rl("memory=100Mi")}, `REQUESTS  RESULT  OP   TERM        VALUE      DETAIL
  cpu     1       +    dra         1          (node-allocatable resource claims)
  memory  3172Mi  max  containers  1124Mi  *  (c1 1Gi + c2 100Mi)
                  +    dra         2Gi        (node-allocatable resource claims)
LIMITS    RESULT  OP   TERM        VALUE      DETAIL
  cpu     -       +    dra         1          (not used: no container limit)
  memory  3Gi     max  containers  1Gi     *  (c1 1Gi)
                  +    dra         2Gi        (node-allocatable resource claims)
`},
		{"many sidecars", tp{init: []corev1.Container{side("s1", "cpu=1", ""), side("s2", "cpu=1", ""), side("s3", "cpu=1", ""), side("s4", "cpu=1", ""), side("s5", "cpu=1", ""), ctr("late", "cpu=10", "")},
			ctrs: []corev1.Container{ctr("a", "cpu=1", ""), ctr("b", "cpu=1", "")}}, resources.PodResourcesOptions{}, `REQUESTS  RESULT  OP   TERM        VALUE     DETAIL
  cpu     15      max  containers  7         (a 1 + b 1 + s1 1 + s2 1 … 3 more)
                  max  sidecar s1  1         (first sidecar)
                  max  sidecar s2  2         (itself + sidecars s1)
                  max  sidecar s3  3         (itself + sidecars s1, s2)
                  max  sidecar s4  4         (itself + sidecars s1, s2, s3)
                  max  sidecar s5  5         (itself + sidecars s1, s2, s3, s4)
                  max  init late   15     *  (with sidecars s1, s2, s3, s4 … 1 more)
LIMITS    RESULT  OP   TERM        VALUE     DETAIL
(none)
`},
		{"pod-level status", tp{res: rrp("cpu=1", "cpu=2"), ctrs: []corev1.Container{ctr("c1", "cpu=500m", "cpu=1")}, podAlloc: "cpu=1500m", podRes: rrp("cpu=1200m", "cpu=3")},
			resources.PodResourcesOptions{UseStatusResources: true, InPlacePodLevelResourcesVerticalScalingEnabled: true}, `REQUESTS  RESULT  OP   TERM          VALUE     DETAIL
  cpu     1500m   max  spec          500m      (container spec)
                  max    containers  500m   *  (c1 500m)
                  max  actuated      1200m     (pod status)
                  max  allocated     1500m  *  (pod status)
                  =    pod-level     1500m     (max of spec.resources and pod status)
LIMITS    RESULT  OP   TERM          VALUE     DETAIL
  cpu     3       max  spec          1         (container spec)
                  max    containers  1      *  (c1 1)
                  max  actuated      3      *  (pod status)
                  =    pod-level     3         (max of spec.resources and pod status)
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := resources.Explain(tc.pod.pod(), tc.opts)
			if got := e.String(); got != tc.want {
				t.Errorf("Explain:\n%s\nwant:\n%s", got, tc.want)
			}
			for _, l := range strings.Split(e.String(), "\n") {
				if strings.HasSuffix(l, " ") {
					t.Errorf("trailing space in %q", l)
				}
			}
			if got, want := totals(e.Requests), render(resources.PodRequests(tc.pod.pod(), tc.opts)); got != want {
				t.Errorf("requests %q, PodRequests %q", got, want)
			}
			if got, want := totals(e.Limits), render(resources.PodLimits(tc.pod.pod(), tc.opts)); got != want {
				t.Errorf("limits %q, PodLimits %q", got, want)
			}
		})
	}
}

// TestExplainTerms checks the structure behind the rendering.
func TestExplainTerms(t *testing.T) {
	e := resources.Explain(examplePod(), resources.PodResourcesOptions{})
	cpu := e.Requests[0]
	if cpu.Name != corev1.ResourceCPU || !cpu.Present || cpu.Value.String() != "550m" {
		t.Fatalf("cpu = %+v", cpu)
	}
	var won []string
	for _, term := range cpu.Terms {
		if term.Won {
			won = append(won, string(term.Kind)+":"+term.Container)
		}
	}
	if strings.Join(won, ",") != "init:init-mydb" {
		t.Errorf("winners %v", won)
	}
	last := cpu.Terms[len(cpu.Terms)-1]
	if last.Container != "init-mydb" || last.Sidecar || strings.Join(last.Sidecars, ",") != "log-shipper" || last.Value.String() != "550m" {
		t.Errorf("init-mydb step = %+v", last)
	}
	parts := cpu.Terms[0].Parts
	if len(parts) != 2 || parts[0].Container != "myapp-container" || parts[1].Container != "log-shipper" {
		t.Errorf("parts = %+v", parts)
	}
	if e := resources.Explain(nil, resources.PodResourcesOptions{}); len(e.Requests)+len(e.Limits) != 0 {
		t.Errorf("nil pod: %+v", e)
	}
}
