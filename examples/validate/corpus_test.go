package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podlife/podlife/validation"
)

// verdict is the answer expected for one object of the corpus.
type verdict struct {
	file, kind, name string
	line             int
	verdict          string
	// message is the exact message (the server's status message or kubectl's error),
	// checked when set; fields are the fields of an invalid object's causes, checked
	// when set (for the kinds whose exact wording comes from the workload validation).
	message string
	fields  []string
	// source says where the expectation comes from.
	source string
}

// Where the expectations come from. "kubectl" and "decoding" answers are those of
// kubectl v1.37.2 and the server's strict decoding, which conformance/decoding compares
// with the upstream code on generated documents; "pods" answers are those of the pod
// create path, which conformance/validation compares with upstream; "workloads"
// answers are read from upstream's validation code (pkg/apis/apps/validation,
// pkg/apis/batch/validation, pkg/apis/core/validation) and hold once
// ValidateObjectCreate supports the kind.
const (
	srcKubectl   = "kubectl: cli-runtime resource builder and REST mapping (conformance/decoding)"
	srcDecoding  = "server: strict decoding, fieldValidation=Strict (conformance/decoding)"
	srcNoPod     = "served kind that holds no pod: not checked"
	srcPods      = "server: pod create path (conformance/validation)"
	srcCleared   = "kubectl create clears the resourceVersion before sending (cli-runtime Helper.Create; conformance/decoding TestManifestsMatchKubectlAndServer)"
	srcWorkloads = "server: the kind's registry strategy and validation (read from upstream)"
)

var corpus = []verdict{
	{"broken/syntax-error.yaml", "ConfigMap", "settings", 1, "not checked", "", nil, srcNoPod},
	{"broken/syntax-error.yaml", "", "", 16, "rejected", "error parsing testdata/corpus/broken/syntax-error.yaml: error converting YAML to JSON: yaml: line 8: did not find expected key", nil, srcKubectl},
	{"broken/syntax-error.yaml", "Pod", "after-the-error", 19, "valid", "", nil, srcPods + "; kubectl would have stopped before it"},
	{"formats/bom-crlf.yaml", "Pod", "windows-saved", 2, "valid", "", nil, srcPods},
	{"formats/mixed-styles.yaml", "ConfigMap", "app-config", 2, "not checked", "", nil, srcNoPod},
	{"formats/mixed-styles.yaml", "Pod", "flow-pod", 9, "valid", "", nil, srcPods},
	{"formats/mixed-styles.yaml", "Deployment", "flow-deploy", 12, "valid", "", nil, srcWorkloads},
	{"formats/pod.json", "Pod", "json-pod", 1, "valid", "", nil, srcPods},
	{"formats/stream.json", "Service", "api", 1, "not checked", "", nil, srcNoPod},
	{"formats/stream.json", "Deployment", "api", 2, "valid", "", nil, srcWorkloads},
	{"formats/stream.json", "Pod", "json-typo", 6, "rejected", `Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].livenessprobe"`, nil, srcDecoding},
	{"guestbook/guestbook-all-in-one.yaml", "Service", "redis-leader", 3, "not checked", "", nil, srcNoPod},
	{"guestbook/guestbook-all-in-one.yaml", "Deployment", "redis-leader", 20, "valid", "", nil, srcWorkloads},
	{"guestbook/guestbook-all-in-one.yaml", "Service", "redis-follower", 50, "not checked", "", nil, srcNoPod},
	{"guestbook/guestbook-all-in-one.yaml", "Deployment", "redis-follower", 66, "valid", "", nil, srcWorkloads},
	{"guestbook/guestbook-all-in-one.yaml", "Service", "frontend", 96, "not checked", "", nil, srcNoPod},
	{"guestbook/guestbook-all-in-one.yaml", "Deployment", "frontend", 111, "valid", "", nil, srcWorkloads},
	{"lists/get-output.yaml", "Pod", "web-0", 5, "valid", "", nil, srcCleared},
	{"lists/get-output.yaml", "Pod", "web-1", 38, "valid", "", nil, srcPods},
	{"lists/list.yaml", "ConfigMap", "web-config", 5, "not checked", "", nil, srcNoPod},
	{"lists/list.yaml", "Deployment", "web", 11, "valid", "", nil, srcWorkloads},
	{"lists/list.yaml", "HorizontalPodAutoscaler", "web", 34, "rejected", `unable to recognize no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2beta2"`, nil, srcKubectl},
	{"lists/podlist.yaml", "Pod", "batch-a", 5, "valid", "", nil, srcPods},
	{"lists/podlist.yaml", "Pod", "batch-b", 13, "invalid", `Pod "batch-b" is invalid: spec.containers[0].image: Required value`, nil, srcPods},
	{"pods/invalid.yaml", "Pod", "Web_Server", 2, "invalid", `Pod "Web_Server" is invalid: [metadata.name: Invalid value: "Web_Server": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"]`, nil, srcPods},
	{"pods/invalid.yaml", "Pod", "greedy", 14, "invalid", `Pod "greedy" is invalid: [spec.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 512Mi, spec.containers[1].name: Duplicate value: "app", spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"]`, nil, srcPods},
	{"pods/myapp-pod.yaml", "Pod", "myapp-pod", 3, "valid", "", nil, srcPods},
	{"pods/no-apiversion.yaml", "Pod", "no-version", 2, "rejected", `error validating "testdata/corpus/pods/no-apiversion.yaml": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false`, nil, srcKubectl},
	{"pods/no-apiversion.yaml", "Pod", "after-the-stop", 10, "valid", "", nil, srcPods + "; kubectl would have stopped before it"},
	{"pods/sidecars.yaml", "Pod", "app-with-log-shipper", 2, "valid", "", nil, srcPods},
	{"pods/sidecars.yaml", "Pod", "spot-worker", 25, "invalid", `Pod "spot-worker" is invalid: spec.tolerations[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists", "Lt", "Gt"`, nil, srcPods},
	{"pods/typos.yaml", "Pod", "nginx", 2, "valid", "", nil, srcPods},
	{"pods/typos.yaml", "Pod", "nginx-typo", 14, "rejected", `Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.contianers"`, nil, srcDecoding},
	{"pods/typos.yaml", "Pod", "nginx-pull-policy", 23, "rejected", `Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePullPolice", unknown field "spec.containers[0].resource"`, nil, srcDecoding},
	{"pods/typos.yaml", "Pod", "gang-member", 37, "rejected", `Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.workloadRef"`, nil, srcDecoding},
	{"pods/typos.yaml", "Pod", "redis", 49, "valid", "", nil, srcPods + "; the duplicate keys never reach the server"},
	{"pods/typos.yaml", "Pod", "busybox-sleep", 63, "rejected", `Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Container.spec.containers.args of type []string`, nil, srcDecoding},
	{"pods/wrong-apiversion.yaml", "Pod", "nginx", 2, "rejected", "resource mapping not found for name: \"nginx\" namespace: \"\" from \"testdata/corpus/pods/wrong-apiversion.yaml\": no matches for kind \"Pod\" in version \"apps/v1\"\nensure CRDs are installed first", nil, srcKubectl},
	{"workloads/cronjobs.yaml", "CronJob", "hello", 2, "valid", "", nil, srcWorkloads},
	{"workloads/cronjobs.yaml", "CronJob", "report", 23, "invalid", "", []string{"spec.schedule"}, srcWorkloads + ": robfig/cron ParseStandard wants 5 fields"},
	{"workloads/cronjobs.yaml", "CronJob", "cleanup", 39, "invalid", "", []string{"spec.schedule"}, srcWorkloads + ": minute 61 is above 59"},
	{"workloads/cronjobs.yaml", "CronJob", "backup", 56, "rejected", "resource mapping not found for name: \"backup\" namespace: \"\" from \"testdata/corpus/workloads/cronjobs.yaml\": no matches for kind \"CronJob\" in version \"batch/v1beta1\"\nensure CRDs are installed first", nil, srcKubectl},
	{"workloads/deployments-invalid.yaml", "Deployment", "api", 2, "invalid", "", []string{"spec.template.metadata.labels"}, srcWorkloads + ": the selector must match the template's labels"},
	{"workloads/deployments-invalid.yaml", "Deployment", "worker", 21, "invalid", "", []string{"spec.strategy.rollingUpdate.maxUnavailable", "spec.template.spec.restartPolicy"}, srcWorkloads + ": percentages up to 100%, restartPolicy Always"},
	{"workloads/fluentd-daemonset.yaml", "DaemonSet", "fluentd-elasticsearch", 1, "valid", "", nil, srcWorkloads},
	{"workloads/frontend-replicaset.yaml", "ReplicaSet", "frontend", 1, "valid", "", nil, srcWorkloads},
	{"workloads/jobs.yaml", "Job", "pi", 2, "valid", "", nil, srcWorkloads},
	{"workloads/jobs.yaml", "Job", "migrate", 17, "invalid", "", []string{"spec.template.spec.restartPolicy"}, srcWorkloads + ": a Job's pods restart OnFailure or Never"},
	{"workloads/jobs.yaml", "Job", "render", 30, "invalid", "", []string{"spec.backoffLimit"}, srcWorkloads + ": backoffLimit must not be negative"},
	{"workloads/nginx-deployment.yaml", "Deployment", "nginx-deployment", 1, "valid", "", nil, srcWorkloads},
	{"workloads/nginx-replication-controller.yaml", "ReplicationController", "nginx", 1, "valid", "", nil, srcWorkloads},
	{"workloads/node-problem-detector.yaml", "ServiceAccount", "node-problem-detector", 3, "not checked", "", nil, srcNoPod},
	{"workloads/node-problem-detector.yaml", "ClusterRoleBinding", "npd-binding", 9, "not checked", "", nil, srcNoPod},
	{"workloads/node-problem-detector.yaml", "DaemonSet", "node-problem-detector", 22, "valid", "", nil, srcWorkloads + ": privileged allowed (--allow-privileged=true)"},
	{"workloads/old-apiversions.yaml", "Deployment", "legacy-web", 2, "rejected", "resource mapping not found for name: \"legacy-web\" namespace: \"\" from \"testdata/corpus/workloads/old-apiversions.yaml\": no matches for kind \"Deployment\" in version \"extensions/v1beta1\"\nensure CRDs are installed first", nil, srcKubectl},
	{"workloads/old-apiversions.yaml", "DaemonSet", "legacy-agent", 17, "rejected", "resource mapping not found for name: \"legacy-agent\" namespace: \"\" from \"testdata/corpus/workloads/old-apiversions.yaml\": no matches for kind \"DaemonSet\" in version \"apps/v1beta2\"\nensure CRDs are installed first", nil, srcKubectl},
	{"workloads/old-apiversions.yaml", "StatefulSet", "legacy-db", 34, "rejected", "resource mapping not found for name: \"legacy-db\" namespace: \"\" from \"testdata/corpus/workloads/old-apiversions.yaml\": no matches for kind \"StatefulSet\" in version \"apps/v1beta1\"\nensure CRDs are installed first", nil, srcKubectl},
	{"workloads/pod-template.yaml", "PodTemplate", "batch-worker", 1, "valid", "", nil, srcWorkloads},
	{"workloads/web-statefulset.yaml", "Service", "nginx", 3, "not checked", "", nil, srcNoPod},
	{"workloads/web-statefulset.yaml", "StatefulSet", "web", 17, "valid", "", nil, srcWorkloads + ": the www volume comes from volumeClaimTemplates"},
	{"workloads/zookeeper.yaml", "Service", "zk-hs", 3, "not checked", "", nil, srcNoPod},
	{"workloads/zookeeper.yaml", "Service", "zk-cs", 19, "not checked", "", nil, srcNoPod},
	{"workloads/zookeeper.yaml", "PodDisruptionBudget", "zk-pdb", 32, "not checked", "", nil, srcNoPod},
	{"workloads/zookeeper.yaml", "StatefulSet", "zk", 42, "valid", "", nil, srcWorkloads},
}

// TestCorpus runs the program on the corpus and checks every object's verdict.
// Workload verdicts that depend on validation are checked only for the kinds
// ValidateObjectCreate supports.
func TestCorpus(t *testing.T) {
	code, out, errOut := runWith(t, "", "-o", "json", "testdata/corpus")
	if code != 2 {
		t.Errorf("exit code %d, want 2 (the binary file)", code)
	}
	if want := "validate: testdata/corpus/broken/manifests.yaml: not a text file (a NUL byte at offset 3); kubectl cannot read it either\n"; errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Objects) != len(corpus) {
		t.Fatalf("%d objects, want %d", len(rep.Objects), len(corpus))
	}
	supported := supportedKinds()
	skipped := 0
	for i, want := range corpus {
		got := rep.Objects[i]
		id := fmt.Sprintf("%s:%d %s %q", want.file, want.line, want.kind, want.name)
		if strings.TrimPrefix(got.File, "testdata/corpus/") != want.file || got.Line != want.line || got.Kind != want.kind || got.Name != want.name {
			t.Errorf("object %d is %s:%d %s %q, want %s", i, got.File, got.Line, got.Kind, got.Name, id)
			continue
		}
		if strings.HasPrefix(want.source, srcWorkloads) && !supported[want.kind] {
			skipped++
			continue
		}
		if got.Verdict != want.verdict {
			t.Errorf("%s: verdict %s, want %s (%s)", id, got.Verdict, want.verdict, want.source)
		}
		msg := got.Error
		if got.Status != nil {
			msg = got.Status.Message
		}
		if want.message != "" && msg != want.message {
			t.Errorf("%s: message\n%s\nwant\n%s", id, msg, want.message)
		}
		if want.fields != nil {
			var fields []string
			if got.Status != nil && got.Status.Details != nil {
				for _, c := range got.Status.Details.Causes {
					fields = append(fields, c.Field)
				}
			}
			slices.Sort(fields)
			if !slices.Equal(fields, want.fields) {
				t.Errorf("%s: fields %q, want %q (%s)", id, fields, want.fields, want.source)
			}
		}
	}
	if skipped > 0 {
		t.Logf("%d workload verdicts not checked: ValidateObjectCreate does not support their kinds yet", skipped)
	}
}

// supportedKinds reports, per kind, whether ValidateObjectCreate validates it: a
// minimal valid object of the kind must come back without errors.
func supportedKinds() map[string]bool {
	meta := metav1.ObjectMeta{Name: "x", Namespace: "default"}
	labels := map[string]string{"app": "x"}
	selector := &metav1.LabelSelector{MatchLabels: labels}
	template := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}},
	}
	jobTemplate := *template.DeepCopy()
	jobTemplate.Spec.RestartPolicy = corev1.RestartPolicyNever
	objects := map[string]runtime.Object{
		"Pod":                   &corev1.Pod{ObjectMeta: meta, Spec: template.Spec},
		"PodTemplate":           &corev1.PodTemplate{ObjectMeta: meta, Template: template},
		"ReplicationController": &corev1.ReplicationController{ObjectMeta: meta, Spec: corev1.ReplicationControllerSpec{Selector: labels, Template: &template}},
		"Deployment":            &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Selector: selector, Template: template}},
		"ReplicaSet":            &appsv1.ReplicaSet{ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Selector: selector, Template: template}},
		"StatefulSet":           &appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Selector: selector, Template: template}},
		"DaemonSet":             &appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: selector, Template: template}},
		"Job":                   &batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Template: jobTemplate}},
		"CronJob":               &batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "* * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: jobTemplate}}}},
	}
	out := map[string]bool{}
	for kind, obj := range objects {
		out[kind] = len(validation.ValidateObjectCreate(obj, validation.Options{})) == 0
	}
	return out
}
