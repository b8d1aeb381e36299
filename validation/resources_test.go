package validation

import (
	corev1 "k8s.io/api/core/v1"
)

// Re-expresses upstream TestValidateResourceRequirements, TestHugePagesIsolation,
// TestValidatePodResources, TestValidatePodResourceConsistency,
// TestValidatePodResourceNames and the resource rows of TestValidateContainers.
func init() {
	res := func(limits, requests corev1.ResourceList) func(c *corev1.Container) {
		return func(c *corev1.Container) {
			c.Resources = corev1.ResourceRequirements{Limits: limits, Requests: requests}
		}
	}
	podRes := func(limits, requests corev1.ResourceList) func(p *corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Spec.Resources = &corev1.ResourceRequirements{Limits: limits, Requests: requests}
		}
	}
	addFamily("resources",
		createCase{name: "valid container resources", mod: ctr(res(
			rl("cpu", "2", "memory", "1Gi", "ephemeral-storage", "1Gi", "example.com/gpu", "2", "hugepages-2Mi", "4Mi", "kubernetes.io/foo", "1.5"),
			rl("cpu", "500m", "memory", "512Mi", "example.com/gpu", "2", "hugepages-2Mi", "4Mi"),
		))},
		createCase{name: "resource name faults", mod: ctr(res(
			rl("disk", "1", "storage", "1", "pods", "1", "requests.cpu", "1", "bad_name/x", "1", "requests.example.com/x", "1"),
			rl("Bad Name", "1"),
		)), want: []string{
			`spec.containers[0].resources.limits[bad_name/x]: Invalid value: "bad_name/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.containers[0].resources.limits[bad_name/x]: Invalid value: "bad_name/x": doesn't follow extended resource name standard`,
			`spec.containers[0].resources.limits[disk]: Invalid value: "disk": must be a standard resource type or fully qualified`,
			`spec.containers[0].resources.limits[disk]: Invalid value: "disk": must be a standard resource for containers`,
			`spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers`,
			`spec.containers[0].resources.limits[requests.cpu]: Invalid value: "requests.cpu": must be a standard resource for containers`,
			`spec.containers[0].resources.limits[requests.example.com/x]: Invalid value: "requests.example.com/x": doesn't follow extended resource name standard`,
			`spec.containers[0].resources.limits[storage]: Invalid value: "storage": must be a standard resource for containers`,
			`spec.containers[0].resources.requests[Bad Name]: Invalid value: "Bad Name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.containers[0].resources.requests[Bad Name]: Invalid value: "Bad Name": must be a standard resource for containers`,
			`spec.containers[0].resources.requests[bad_name/x]: Invalid value: "bad_name/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.containers[0].resources.requests[bad_name/x]: Invalid value: "bad_name/x": doesn't follow extended resource name standard`,
			`spec.containers[0].resources.requests[disk]: Invalid value: "disk": must be a standard resource type or fully qualified`,
			`spec.containers[0].resources.requests[disk]: Invalid value: "disk": must be a standard resource for containers`,
			`spec.containers[0].resources.requests[pods]: Invalid value: "pods": must be a standard resource for containers`,
			`spec.containers[0].resources.requests[requests.cpu]: Invalid value: "requests.cpu": must be a standard resource for containers`,
			`spec.containers[0].resources.requests[requests.example.com/x]: Invalid value: "requests.example.com/x": doesn't follow extended resource name standard`,
			`spec.containers[0].resources.requests[storage]: Invalid value: "storage": must be a standard resource for containers`,
		}},
		createCase{name: "negative quantities", mod: ctr(res(rl("cpu", "-1"), rl("memory", "-1Mi"))), want: []string{
			`spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.containers[0].resources.requests[memory]: Invalid value: "-1Mi": must be greater than or equal to 0`,
		}},
		createCase{name: "requests above limits", mod: ctr(res(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "2", "memory", "2Gi"))), want: []string{
			`spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
			`spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`,
		}},
		createCase{name: "extended resources must be integers and equal", mod: ctr(res(
			rl("example.com/a", "1500m", "example.com/b", "2"),
			rl("example.com/a", "1500m", "example.com/b", "1", "example.com/c", "1"),
		)), want: []string{
			`spec.containers[0].resources.limits[example.com/a]: Invalid value: "1500m": must be an integer`,
			`spec.containers[0].resources.requests[example.com/a]: Invalid value: "1500m": must be an integer`,
			`spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/b limit of 2`,
			`spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`,
		}},
		createCase{name: "hugepages rules", mod: ctr(res(rl("hugepages-2Mi", "3Mi", "hugepages-bogus", "1Mi"), rl("hugepages-2Mi", "2Mi"))), want: []string{
			`spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
			`spec.containers[0].resources.limits[hugepages-bogus]: Invalid value: "1Mi": 1Mi is not positive integer multiple of hugepages-bogus`,
			`spec.containers[0].resources.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 3Mi`,
			`spec.containers[0].resources.requests[hugepages-bogus]: Invalid value: "1Mi": 1Mi is not positive integer multiple of hugepages-bogus`,
			`spec.containers[0].resources: Forbidden: HugePages require cpu or memory`,
		}},
		createCase{name: "hugepages with cpu", mod: ctr(res(rl("hugepages-1Gi", "2Gi", "cpu", "1"), nil))},
		createCase{name: "init container and sidecar resources", mod: all(
			initCtr(res(rl("cpu", "1"), rl("cpu", "2"))),
			sidecar(res(nil, rl("foo", "1"))),
		), want: []string{
			`spec.initContainers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
			`spec.initContainers[1].resources.requests[foo]: Invalid value: "foo": must be a standard resource type or fully qualified`,
			`spec.initContainers[1].resources.requests[foo]: Invalid value: "foo": must be a standard resource for containers`,
		}},
		createCase{name: "resource claims without pod claims", mod: ctr(func(c *corev1.Container) {
			c.Resources.Claims = []corev1.ResourceClaim{{Name: ""}, {Name: "a"}, {Name: "a"}, {Name: "b", Request: "Bad_Req"}}
		}), features: map[string]bool{"DynamicResourceAllocation": true}, want: []string{
			`spec.containers[0].resources.claims[0]: Required value`,
			`spec.containers[0].resources.claims[1]: Not found: "a": must be one of the names in pod.spec.resourceClaims which is empty`,
			`spec.containers[0].resources.claims[2]: Duplicate value: "a"`,
			`spec.containers[0].resources.claims[2]: Not found: "a": must be one of the names in pod.spec.resourceClaims which is empty`,
			`spec.containers[0].resources.claims[3].request: Invalid value: "Bad_Req": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.containers[0].resources.claims[3]: Not found: "b": must be one of the names in pod.spec.resourceClaims which is empty`,
		}},
	)
	addFamily("pod resources",
		createCase{name: "valid pod-level resources", mod: all(
			podRes(rl("cpu", "2", "memory", "2Gi"), rl("cpu", "1", "memory", "1Gi")),
			ctr(res(rl("cpu", "2"), rl("cpu", "1"))),
		)},
		createCase{name: "pod-level names", mod: podRes(rl("ephemeral-storage", "1Gi", "example.com/gpu", "1", "bad name", "1"), rl("storage", "1")), want: []string{
			`spec.resources.limits[bad name]: Invalid value: "bad name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.resources.limits[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"`,
			`spec.resources.limits[example.com/gpu]: Unsupported value: "example.com/gpu": supported values: "cpu", "hugepages-", "memory"`,
			`spec.resources.requests[storage]: Unsupported value: "storage": supported values: "cpu", "hugepages-", "memory"`,
		}},
		createCase{name: "pod requests below aggregate", mod: all(
			podRes(nil, rl("cpu", "1", "memory", "100Mi")),
			ctr(res(nil, rl("cpu", "600m", "memory", "64Mi"))),
			func(p *corev1.Pod) {
				p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "d", Image: "img", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "600m", "memory", "64Mi")}})
			},
		), want: []string{
			`spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 1200m`,
			`spec.resources.requests[memory]: Invalid value: "100Mi": must be greater than or equal to aggregate container requests of 128Mi`,
		}},
		createCase{name: "container limit above pod limit", mod: all(
			podRes(rl("cpu", "1", "memory", "1Gi"), nil),
			ctr(res(rl("cpu", "2", "memory", "512Mi"), nil)),
			sidecar(res(rl("cpu", "3"), nil)),
		), want: []string{
			`spec.resources.requests: Invalid value: "5": must be less than or equal to cpu limit of 1`,
			`spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1`,
		}},
		createCase{name: "pod limit below pod request after defaulting", mod: all(
			podRes(rl("cpu", "1"), nil),
			ctr(res(nil, rl("cpu", "2"))),
		), want: []string{
			`spec.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
		}},
		createCase{name: "hugepages at pod level", mod: all(
			podRes(rl("hugepages-2Mi", "2Mi", "memory", "1Gi"), nil),
			ctr(res(rl("hugepages-2Mi", "4Mi", "memory", "100Mi"), nil)),
		), want: []string{
			`spec.resources.requests[hugepages-2Mi]: Invalid value: "2Mi": must be greater than or equal to aggregate container requests of 4Mi`,
			`spec.resources.limits[hugepages-2Mi]: Invalid value: "2Mi": must be greater than or equal to aggregate container limits of 4Mi`,
			`spec.resources.containers[0][hugepages-2Mi].limits: Invalid value: "4Mi": must be less than or equal to pod limits of 2Mi`,
		}},
		createCase{name: "pod resources on windows", mod: all(
			podRes(rl("cpu", "1"), nil),
			func(p *corev1.Pod) { p.Spec.OS = &corev1.PodOS{Name: corev1.Windows} },
		), want: []string{
			`spec.resources: Forbidden: may not be set for a windows pod`,
		}},
		createCase{name: "pod resources dropped when gate off", features: map[string]bool{
			"PodLevelResources": false, "PodLevelResourcesFixDefaulting": false, "PodLevelResourcesFixKubeletQOSClass": false,
			"InPlacePodLevelResourcesVerticalScaling": false, "PodLevelResourceManagers": false,
		}, mod: podRes(rl("bad name", "1"), nil)},
		createCase{name: "overhead", mod: func(p *corev1.Pod) {
			p.Spec.Overhead = rl("cpu", "-1", "pods", "1", "example.com/x", "500m")
		}, want: []string{
			`spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.overhead.limits[example.com/x]: Invalid value: "500m": must be an integer`,
			`spec.overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers`,
		}},
	)
}
