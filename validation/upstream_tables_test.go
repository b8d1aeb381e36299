package validation

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife"
)

// Upstream's own pod validation tables (k8s.io/kubernetes
// pkg/apis/core/validation/validation_test.go, v1.37.2), re-expressed as pods.
//
// Every call an upstream test makes to one of the pod validators (ValidatePodCreate,
// ValidatePodUpdate, ValidatePodSpec, ValidateVolumes, validateVolumeSource,
// validateContainers, validateInitContainers, validateEphemeralContainers,
// validateProbe, validateHandler, ValidateEnv, ValidateEnvFrom,
// validateEnvVarValueFrom, ValidateVolumeMounts, ValidateVolumeDevices,
// validateContainerPorts, validateResizePolicy, ValidateSecurityContext,
// validateWindowsSecurityContextOptions, the resource requirement validators, the
// pod-level rules on a spec: DNS, host users, host name, sysctls, tolerations,
// topology spread, readiness and scheduling gates, restart and DNS policy, Linux and
// Windows rules, host-process pods, fileKeyRef volumes, seccomp annotations) was
// recorded with its input and the feature gates the test set, and the input placed
// in a pod that is otherwise complete and valid: a volume or volume source in
// spec.volumes, containers and their context (volumes, grace period, restart policy,
// hostUsers, OS) in the pod, a probe as a readiness probe (a liveness probe when it
// sets terminationGracePeriodSeconds), a lifecycle handler as preStop (a gRPC one as
// a readiness probe), env, mounts, ports, resize policy and security context in the
// pod's container, a spec as the pod's spec (completed with a container, policies and
// a grace period when a narrow rule's test leaves them out). A list of valid inputs
// that a test validates in one call is one case here.
//
// The expected errors are what the API server answers for that pod — created as
// given (Options.SkipDefaulting; upstream without defaulting and PrepareForCreate),
// or for an update, PUT through the real handler and registry — and podlife's
// answer equals them; package conformance/validationrules replays every case
// through upstream to prove it. testdata/upstream_create_cases.json and
// upstream_update_cases.json hold the cases: the upstream table, the subtest, the
// validator called, the gates, the pod (and the stored pod), the errors.
//
// Skipped: inputs equal to an earlier case of the same table (the same pod and gates:
// a test that validates one input under two option sets the create path derives in
// one way); one TestValidatePodResize case that sets a gate locked in v1.37.2
// (InPlacePodVerticalScalingInitContainers=false, which a server refuses); one
// TestValidatePodUpdate case whose stored pod has no name (no URL addresses it).
// Tables of other objects (volumes, claims, services, nodes...), of the status and
// resize subresources' own rules and of helpers not on the pod path
// (ValidateAppArmorProfileFormat, IsValidSysctlName, resource-name helpers) are not
// pod validation through the create or update path and are not re-expressed.
//
// The validity of 71 create cases differs from the validator's answer in the unit
// test, for reasons of the pod path: rules that apply to pods only (image whitespace,
// service account tokens without serviceAccountName, ephemeral containers on create),
// options the create path derives from gates (the upstream test passes others), and
// what the pod around the input adds (a volume device with no volume, a privileged
// container without --allow-privileged). They are kept: the answer is the server's.

// upstreamTableCases is, per upstream test, the number of create and update cases
// re-expressed; losing one fails TestUpstreamTables.
var upstreamTableCases = map[string][2]int{
	"TestAlphaLocalStorageCapacityIsolation":          {2, 0},
	"TestAlphaValidateVolumeDevices":                  {13, 0},
	"TestHugePagesEnv":                                {2, 0},
	"TestHugePagesIsolation":                          {5, 0},
	"TestLocalStorageEnvWithFeatureGate":              {2, 0},
	"TestNumericTolerationsWithFeatureGate":           {14, 0},
	"TestRelaxedValidateEnv":                          {19, 0},
	"TestRelaxedValidateEnvFrom":                      {2, 0},
	"TestValidateBindMountOptions":                    {8, 0},
	"TestValidateCSIVolumeSource":                     {17, 0},
	"TestValidateContainerRestartPolicy":              {19, 0},
	"TestValidateContainers":                          {41, 0},
	"TestValidateDNSPolicy":                           {5, 0},
	"TestValidateDynamicResourceAllocation":           {26, 0},
	"TestValidateEmptyDirVolumeMode":                  {8, 0},
	"TestValidateEnv":                                 {6, 0},
	"TestValidateEnvFrom":                             {14, 0},
	"TestValidateEnvVarValueFromFileKeyRef":           {10, 0},
	"TestValidateEphemeralContainers":                 {87, 0},
	"TestValidateFileKeyRefVolume":                    {15, 0},
	"TestValidateFlexVolumeSource":                    {4, 0},
	"TestValidateGRPCAction":                          {4, 0},
	"TestValidateHTTPGetActionProtocol":               {7, 0},
	"TestValidateHandler":                             {13, 0},
	"TestValidateHostUsers":                           {12, 0},
	"TestValidateInitContainers":                      {26, 0},
	"TestValidateLinuxPodSecurityContext":             {2, 0},
	"TestValidateLinuxSecurityContext":                {2, 0},
	"TestValidateMountPropagation":                    {12, 0},
	"TestValidateNFSVolumeSource":                     {3, 0},
	"TestValidateOverhead":                            {2, 0},
	"TestValidatePod":                                 {158, 0},
	"TestValidatePodCreateWithSchedulingGates":        {2, 0},
	"TestValidatePodDNSConfig":                        {22, 0},
	"TestValidatePodDNSConfigWithRelaxedSearchDomain": {12, 0},
	"TestValidatePodEphemeralContainersUpdate":        {9, 0},
	"TestValidatePodHostName":                         {9, 0},
	"TestValidatePodReadinessGates":                   {3, 0},
	"TestValidatePodResize":                           {70, 0},
	"TestValidatePodResourceConsistency":              {9, 0},
	"TestValidatePodResources":                        {3, 0},
	"TestValidatePodSchedulingGroup":                  {5, 0},
	"TestValidatePodSpec":                             {52, 0},
	"TestValidatePodTemplateSpecSeccomp":              {6, 0},
	"TestValidatePodUpdate":                           {0, 95},
	"TestValidatePorts":                               {12, 0},
	"TestValidateProbe":                               {12, 0},
	"TestValidateReplicationController":               {4, 0},
	"TestValidateReplicationControllerUpdate":         {2, 0},
	"TestValidateResizePolicy":                        {12, 0},
	"TestValidateResourceRequirements":                {17, 0},
	"TestValidateRestartPolicy":                       {4, 0},
	"TestValidateSELinuxChangePolicy":                 {4, 0},
	"TestValidateSchedulingGates":                     {6, 0},
	"TestValidateSeccompAnnotationAndField":           {10, 0},
	"TestValidateSecurityContext":                     {13, 0},
	"TestValidateSleepAction":                         {6, 0},
	"TestValidateStopSignal":                          {4, 0},
	"TestValidateSubpathMutuallyExclusive":            {5, 0},
	"TestValidateSysctls":                             {5, 0},
	"TestValidateTopologySpreadConstraints":           {24, 0},
	"TestValidateVolumeMounts":                        {17, 0},
	"TestValidateVolumes":                             {145, 0},
	"TestValidateWindowsHostProcessPod":               {16, 0},
	"TestValidateWindowsPodSecurityContext":           {3, 0},
	"TestValidateWindowsSecurityContext":              {4, 0},
	"TestValidateWindowsSecurityContextOptions":       {24, 0},
	"Test_validateProbe":                              {10, 0},
}

type upstreamCreateCase struct {
	Table      string               `json:"table"`
	Case       string               `json:"case"`
	Fn         string               `json:"fn"`
	Features   podlife.FeatureGates `json:"features,omitempty"`
	Privileged bool                 `json:"privileged,omitempty"`
	Pod        *corev1.Pod          `json:"pod"`
	Want       []string             `json:"want"`
}

type upstreamUpdateCase struct {
	Table    string               `json:"table"`
	Case     string               `json:"case"`
	Features podlife.FeatureGates `json:"features,omitempty"`
	New      *corev1.Pod          `json:"new"`
	Old      *corev1.Pod          `json:"old"`
	Want     []string             `json:"want"`
}

func loadJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestUpstreamTables checks podlife's answer for every re-expressed case, error for
// error and in order, and that every table keeps its cases.
func TestUpstreamTables(t *testing.T) {
	var creates []upstreamCreateCase
	var updates []upstreamUpdateCase
	loadJSON(t, "testdata/upstream_create_cases.json", &creates)
	loadJSON(t, "testdata/upstream_update_cases.json", &updates)
	got := map[string][2]int{}
	for _, c := range creates {
		n := got[c.Table]
		n[0]++
		got[c.Table] = n
		pod := c.Pod.DeepCopy()
		errs := ValidatePodCreate(c.Pod, Options{Features: c.Features, AllowPrivileged: c.Privileged, SkipDefaulting: true})
		if !reflect.DeepEqual(c.Pod, pod) {
			t.Fatalf("%s: input modified", c.Case)
		}
		if s := errorStrings(errs); !reflect.DeepEqual(s, c.Want) {
			t.Errorf("%s (%s):\n got %s\nwant %s", c.Case, c.Fn, goList(s), goList(c.Want))
		}
	}
	for _, c := range updates {
		n := got[c.Table]
		n[1]++
		got[c.Table] = n
		if s := errorStrings(ValidatePodUpdate(c.New, c.Old, Options{Features: c.Features})); !reflect.DeepEqual(s, c.Want) {
			t.Errorf("%s:\n got %s\nwant %s", c.Case, goList(s), goList(c.Want))
		}
	}
	tables := make([]string, 0, len(upstreamTableCases))
	for k := range upstreamTableCases {
		tables = append(tables, k)
	}
	sort.Strings(tables)
	for _, k := range tables {
		if got[k] != upstreamTableCases[k] {
			t.Errorf("%s: %v create/update cases, want %v", k, got[k], upstreamTableCases[k])
		}
	}
	if len(got) != len(upstreamTableCases) {
		t.Errorf("%d tables in the testdata, %d listed", len(got), len(upstreamTableCases))
	}
	t.Logf("%d create and %d update cases from %d upstream tables", len(creates), len(updates), len(got))
}
