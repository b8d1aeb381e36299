package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files (testdata/*.golden, myapp-pod.svg)")

// runJSON runs the program with -o json and decodes the report.
func runJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errOut strings.Builder
	if code := run(append(args, "-o", "json"), &out, &errOut); code != 0 {
		t.Fatalf("exit code %d: %s", code, errOut.String())
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out.String()), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// watchLines renders the watch rows as "at READY STATUS RESTARTS AGE".
func watchLines(rep map[string]any) []string {
	var out []string
	for _, r := range rep["watch"].([]any) {
		m := r.(map[string]any)
		row := m["row"].(map[string]any)
		out = append(out, strings.Join([]string{m["at"].(string), row["ready"].(string), row["status"].(string), row["restarts"].(string), row["age"].(string)}, " "))
	}
	return out
}

// eventLines renders the describe rows as "Type Reason Age Message".
func eventTableLines(rep map[string]any) []string {
	var out []string
	for _, r := range rep["events"].([]any) {
		m := r.(map[string]any)
		out = append(out, strings.Join([]string{m["type"].(string), m["reason"].(string), m["age"].(string), m["message"].(string)}, " | "))
	}
	return out
}

// The expected rows of every scenario. The first two rows are the API server's
// (the created pod: status.phase Pending, set by the pod strategy's PrepareForCreate)
// and the scheduler's (spec.nodeName and PodScheduled=True); every other row is a
// status the kubelet writes because it differs from the last (the status manager's
// isPodStatusByKubeletEqual), rendered by the table printer
// (pkg/printers/internalversion/printers.go printPod): READY counts ready containers
// and sidecars over containers plus sidecars, STATUS is "Init:<done>/<count>" while a
// regular init container has not completed, "Init:<reason>" for one waiting or
// terminated with a reason, PodInitializing/ContainerCreating as the default waiting
// reasons (kubelet_pods.go convertToAPIContainerStatuses), then the containers'
// reasons; RESTARTS adds restart counts with "(<age> ago)" of the last termination.
var scenarioRows = map[string][]string{
	// Init containers run one after the other (computeInitContainerActions); the app
	// starts once both completed. Each status the kubelet writes after a relist (1s)
	// shows the container it started running.
	"myapp": {
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Init:0/2 0 0s",   // sandbox created, init-myservice pulled and started (2s pull)
		"3s 0/1 Init:0/2 0 3s",   // init-myservice running, pod IP set
		"20s 0/1 Init:1/2 0 20s", // init-myservice completed; init-mydb started
		"21s 0/1 Init:1/2 0 21s",
		"35s 0/1 PodInitializing 0 35s", // every init container completed, the app waits with the default reason
		"36s 1/1 Running 0 36s",
	},
	// A failed init container restarts at once the first time, then after the
	// crash-loop back-off: 10s, 20s, 40s, 80s (newCrashLoopBackOff: 10s doubling to
	// 300s; doBackOff measures from the exit). The kubelet syncs again when the hold
	// ends, or one resync (1m) later when it is longer (pod_workers completeWork caps
	// the requeue at the resync interval), showing Init:CrashLoopBackOff from the
	// reason cache.
	"init-crashloop": {
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Init:0/2 0 0s",
		"1s 0/1 Init:0/2 0 1s",
		"2s 0/1 Init:Error 0 2s", // exit 1 after 2s: restarted at once
		"3s 0/1 Init:0/2 1 (1s ago) 3s",
		"4s 0/1 Init:Error 1 (2s ago) 4s",               // held 10s
		"14s 0/1 Init:CrashLoopBackOff 1 (10s ago) 14s", // the hold ends: restarted
		"15s 0/1 Init:0/2 2 (11s ago) 15s",
		"16s 0/1 Init:Error 2 (12s ago) 16s", // held 20s
		"36s 0/1 Init:CrashLoopBackOff 2 (20s ago) 36s",
		"37s 0/1 Init:0/2 3 (21s ago) 37s",
		"38s 0/1 Init:Error 3 (22s ago) 38s", // held 40s
		"1m18s 0/1 Init:CrashLoopBackOff 3 (40s ago) 78s",
		"1m19s 0/1 Init:0/2 4 (41s ago) 79s",
		"1m20s 0/1 Init:Error 4 (42s ago) 80s", // held 80s: the resync comes first
		"2m20s 0/1 Init:CrashLoopBackOff 4 (60s ago) 2m20s",
		"2m41s 0/1 Init:0/2 5 (81s ago) 2m41s",
		"2m42s 0/1 Init:Error 5 (82s ago) 2m42s", // held 160s
		"3m42s 0/1 Init:CrashLoopBackOff 5 (60s ago) 3m42s",
	},
	// restartPolicy Never: the failed init container is not restarted, the kubelet
	// kills the pod and getPhase gives Failed; the last status, written once the pod
	// is terminated (SyncTerminatingPod), differs only in its conditions.
	"never-init-failure": {
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Init:0/1 0 0s",
		"1s 0/1 Init:0/1 0 1s",
		"3s 0/1 Init:Error 0 3s",
		"3s 0/1 Init:Error 0 3s",
	},
	// The sidecar counts as started only after its startup probe passes (12s): the
	// app is started then (computeInitContainerActions), READY counts the sidecar,
	// and the app is ready after its readiness probe's 3s initial delay.
	"sidecar-startup": {
		"0s 0/2 Pending 0 0s",
		"0s 0/2 Pending 0 0s",
		"0s 0/2 Init:0/1 0 0s",
		"1s 0/2 Init:0/1 0 1s",
		"12s 1/2 PodInitializing 0 12s",
		"13s 1/2 Running 0 13s",
		"15s 2/2 Running 0 15s",
	},
	// The Job's main container exits 0 at 11s: nothing else is to run, so the sync
	// kills the pod (computePodActions: KillPod), the sidecar exits 1s after SIGTERM,
	// and with every container stopped the pod is Succeeded ("Completed": the printer
	// shows the terminated reason of a pod with no running container).
	"job-sidecar": {
		"0s 0/2 Pending 0 0s",
		"0s 0/2 Pending 0 0s",
		"0s 0/2 Init:0/1 0 0s",
		"1s 1/2 PodInitializing 0 1s",
		"2s 2/2 Running 0 2s",
		"11s 1/2 Completed 0 11s",
		"13s 0/2 Completed 0 13s",
	},
	// Exit code 42 matches the container's Restart rule (restarted, the second time
	// after the 10s back-off); exit code 1 matches no rule and the container's policy
	// Never keeps it down: the pod fails (ShouldContainerBeRestarted, getPhase).
	"restart-rules": {
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Pending 0 0s",
		"0s 0/1 ContainerCreating 0 0s",
		"1s 1/1 Running 0 1s",
		"5s 0/1 Error 0 5s",
		"6s 1/1 Running 1 (1s ago) 6s",
		"10s 0/1 Error 1 (5s ago) 10s",
		"20s 0/1 CrashLoopBackOff 1 (10s ago) 20s",
		"21s 1/1 Running 2 (11s ago) 21s",
		"25s 0/1 Error 2 (15s ago) 25s",
		"25s 0/1 Error 2 (15s ago) 25s",
	},
	// Exit code 88 triggers RestartAllContainers: the next status shows every
	// container waiting with reason RestartingAllContainers while the kubelet removes
	// them (convertToAPIContainerStatuses, computePodActions' ContainersToReset), then
	// the pod initializes again from fetch-config in the same sandbox.
	"restart-all": {
		"0s 0/2 Pending 0 0s",
		"0s 0/2 Pending 0 0s",
		"0s 0/2 Init:0/1 0 0s",
		"1s 0/2 Init:0/1 0 1s",
		"2s 0/2 PodInitializing 0 2s",
		"3s 2/2 Running 0 3s",
		"22s 1/2 Error 0 22s",
		"23s 0/2 RestartingAllContainers 2 23s",
		"24s 0/2 PodInitializing 2 24s",
		"25s 0/2 PodInitializing 2 25s",
		"26s 2/2 Running 2 26s",
	},
	// Readiness fails from 20s (READY 0/1, still Running); liveness fails at 40s: the
	// kubelet kills and restarts the container, which is ready again.
	"liveness-kill": {
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Pending 0 0s",
		"0s 0/1 ContainerCreating 0 0s",
		"1s 1/1 Running 0 1s",
		"20s 0/1 Running 0 20s",
		"41s 1/1 Running 1 (1s ago) 41s",
	},
	// Pulls at 0s, 11s and 31s fail (ErrImagePull); the image-pull back-off (10s,
	// 20s, 40s) holds the attempts in between (ImagePullBackOff); the pod worker
	// retries a failed sync after 10s; the pull at 71s succeeds in 3s.
	"image-pull-error": {
		"0s 0/1 Pending 0 0s",
		"0s 0/1 Pending 0 0s",
		"0s 0/1 ContainerCreating 0 0s",
		"1s 0/1 ErrImagePull 0 1s",
		"11s 0/1 ImagePullBackOff 0 11s",
		"21s 0/1 ErrImagePull 0 21s",
		"31s 0/1 ImagePullBackOff 0 31s",
		"41s 0/1 ErrImagePull 0 41s",
		"51s 0/1 ImagePullBackOff 0 51s",
		"1m15s 1/1 Running 0 75s",
	},
	// Deleted at 30s: the row shows Terminating (a deletionTimestamp on a pod not yet
	// terminal); the kubelet stops shop (5s preStop + 2s), then log-shipper, then
	// mesh-proxy (termination order); the final status is Failed (containers exited
	// 143 and, the pod being terminal, are not restarted), shown as Error.
	"deletion": {
		"0s 0/3 Pending 0 0s",
		"0s 0/3 Pending 0 0s",
		"0s 0/3 Init:0/2 0 0s",
		"1s 1/3 Init:1/2 0 1s",
		"2s 2/3 PodInitializing 0 2s",
		"3s 3/3 Running 0 3s",
		"30s 3/3 Terminating 0 30s",
		"39s 0/3 Error 0 39s",
	},
}

// Events each scenario must show in `kubectl describe pod`, in upstream's words.
var scenarioEvents = map[string][]string{
	"myapp": {
		`Normal | Scheduled | 36s | Successfully assigned default/myapp-pod to node-1`, // schedule_one.go
		`Normal | Pulling | 36s | spec.initContainers{init-myservice}: Pulling image "busybox:1.28"`,
		`Normal | Pulled | 34s | spec.initContainers{init-myservice}: Successfully pulled image "busybox:1.28" in 2s (2s including waiting). Image size: 1146369 bytes.`,
		`Normal | Created | 34s | spec.initContainers{init-myservice}: Container created`,
		`Normal | Started | 34s | spec.initContainers{init-myservice}: Container started`,
		`Normal | Pulled | 16s | spec.initContainers{init-mydb}: Container image "busybox:1.28" already present on machine and can be accessed by the pod`,
		`Normal | Created | 16s | spec.initContainers{init-mydb}: Container created`,
		`Normal | Started | 16s | spec.initContainers{init-mydb}: Container started`,
		`Normal | Pulled | 1s | spec.containers{myapp-container}: Container image "busybox:1.28" already present on machine and can be accessed by the pod`,
		`Normal | Created | 1s | spec.containers{myapp-container}: Container created`,
		`Normal | Started | 1s | spec.containers{myapp-container}: Container started`,
	},
	"init-crashloop": {
		`Warning | BackOff | 0s (x8 over 4m38s) | spec.initContainers{init-myservice}: Back-off restarting failed container init-myservice in pod myapp-pod_default(f58c86de-1f20-5d4a-b4fd-13aa02a507cd)`,
	},
	"liveness-kill": {
		`Warning | Unhealthy | 1s (x3 over 21s) | spec.containers{api}: Liveness probe failed: HTTP probe failed with statuscode: 500`,
		`Normal | Killing | 1s | spec.containers{api}: Container api failed liveness probe, will be restarted`,
	},
	"image-pull-error": {
		`Warning | Failed | 44s (x3 over 75s) | spec.containers{web}: Error: ErrImagePull`,
		`Normal | BackOff | 14s (x5 over 74s) | spec.containers{web}: Back-off pulling image "nginx:1.27-typo"`,
		`Warning | Failed | 14s (x5 over 74s) | spec.containers{web}: Error: ImagePullBackOff`,
		`Normal | Pulling | 4s (x4 over 75s) | spec.containers{web}: Pulling image "nginx:1.27-typo"`,
	},
	"deletion": {
		`Normal | Killing | 9s | spec.containers{shop}: Stopping container shop`,
		`Normal | Killing | 9s | spec.initContainers{log-shipper}: Stopping container log-shipper`,
		`Normal | Killing | 9s | spec.initContainers{mesh-proxy}: Stopping container mesh-proxy`,
	},
	"job-sidecar": {
		`Normal | Killing | 2s | spec.initContainers{log-shipper}: Stopping container log-shipper`,
	},
	"restart-rules": {
		`Warning | BackOff | 15s | spec.containers{train}: Back-off restarting failed container train in pod trainer_default(c5ad8221-d109-5e7e-b603-3d7119626a2d)`,
	},
	"restart-all": {
		`Normal | Killing | 4s | spec.containers{metrics}: killing`, // killed to restart all, grace 0
	},
}

// How each scenario ends: Timeline.End and the final phase.
var scenarioEnds = map[string]string{
	"myapp": "steady Running", "init-crashloop": "max-duration Pending", "never-init-failure": "terminal Failed",
	"sidecar-startup": "steady Running", "job-sidecar": "terminal Succeeded", "restart-rules": "terminal Failed",
	"restart-all": "steady Running", "liveness-kill": "steady Running", "image-pull-error": "steady Running",
	"deletion": "terminal Failed",
}

func TestScenarios(t *testing.T) {
	list := scenarioList()
	if len(list) != len(scenarioRows) {
		t.Errorf("%d scenarios, %d with expected rows", len(list), len(scenarioRows))
	}
	for _, s := range list {
		t.Run(s.name, func(t *testing.T) {
			rep := runJSON(t, "--scenario", s.name)
			want, ok := scenarioRows[s.name]
			if !ok {
				t.Fatalf("no expected rows for %s", s.name)
			}
			if got := watchLines(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("watch rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			events := strings.Join(eventTableLines(rep), "\n")
			for _, e := range scenarioEvents[s.name] {
				if !strings.Contains(events, e) {
					t.Errorf("missing event %q in:\n%s", e, events)
				}
			}
			final := rep["finalStatus"].(map[string]any)
			if got := rep["end"].(string) + " " + final["phase"].(string); got != scenarioEnds[s.name] {
				t.Errorf("end %q, want %q", got, scenarioEnds[s.name])
			}
			if s.summary == "" {
				t.Errorf("scenario %s has no description", s.name)
			}
		})
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -run %s -update rewrites it):\n%s", path, t.Name(), got)
	}
}

// TestMainCommand checks the whole text output of the README's main command and that
// the README shows it as it is.
func TestMainCommand(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(nil, &out, &errOut); code != 0 || errOut.Len() > 0 {
		t.Fatalf("exit code %d, stderr %q", code, errOut.String())
	}
	golden(t, "myapp.golden", out.String())
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	block := "    $ go run ./examples/lifecycle\n"
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		block += strings.TrimRight("    "+l, " ") + "\n"
	}
	if !strings.Contains(string(readme), block) {
		t.Errorf("README.md does not show the main command's output as it is:\n%s", block)
	}
}

// TestSVG checks the picture committed next to the program, which the README shows.
func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.svg")
	var out, errOut strings.Builder
	if code := run([]string{"--svg", path}, &out, &errOut); code != 0 {
		t.Fatalf("exit code %d: %s", code, errOut.String())
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg"`, ">init init-myservice<", ">init init-mydb<", ">container myapp-container<", ">phase<", ">Initialized<", "</svg>"} {
		if !strings.Contains(s, want) {
			t.Errorf("the picture lacks %q", want)
		}
	}
	if *update {
		if err := os.WriteFile("myapp-pod.svg", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile("myapp-pod.svg")
	if err != nil || string(committed) != s {
		t.Errorf("myapp-pod.svg is not what the program draws (go test -run TestSVG -update rewrites it)")
	}
	// Every scenario draws, with a kill marked where there is one.
	for _, sc := range scenarioList() {
		var o, e strings.Builder
		p := filepath.Join(t.TempDir(), sc.name+".svg")
		if code := run([]string{"--scenario", sc.name, "--svg", p}, &o, &e); code != 0 {
			t.Fatalf("%s: exit %d %s", sc.name, code, e.String())
		}
		b, _ := os.ReadFile(p)
		if sc.name == "liveness-kill" && !strings.Contains(string(b), "<title>Killing at 40s: Container api failed liveness probe, will be restarted</title>") {
			t.Errorf("liveness-kill: no kill mark")
		}
		if sc.name == "init-crashloop" && !strings.Contains(string(b), "<title>restart at 2s</title>") {
			t.Errorf("init-crashloop: no restart mark")
		}
	}
}

func TestUsageAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: busybox:1.28\n"
	good := write("good.yaml", pod)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"help", []string{"--help"}, 0, "usage: lifecycle [flags] [MANIFEST.yaml]", ""},
		{"list", []string{"--scenario", "list"}, 0, "myapp                The myapp-pod of the Init Containers page.", ""},
		{"unknown scenario", []string{"--scenario", "nope"}, 2, "", `unknown scenario "nope"; the scenarios are: myapp, deletion,`},
		{"bad flag", []string{"--bogus"}, 2, "", "flag provided but not defined: -bogus"},
		{"bad output", []string{"-o", "yaml"}, 2, "", `-o "yaml": want text or json`},
		{"two manifests", []string{good, good}, 2, "", "give at most one manifest"},
		{"missing file", []string{filepath.Join(dir, "none.yaml")}, 2, "", "no such file or directory"},
		{"yaml error", []string{write("bad.yaml", "# comment\napiVersion: v1\nkind: Pod\nmetadata:\n  name: [x\n")}, 2, "", "bad.yaml:5: yaml: line 5: did not find expected"},
		{"unknown kind only", []string{write("svc.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n")}, 2, "", `skipping Service "s": it holds no pod`},
		{"invalid pod", []string{write("invalid.yaml", "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n")}, 1,
			`invalid.yaml:2: Pod "p" is invalid: spec.containers[0].image: Required value`, ""},
		{"script typo", []string{write("typo.yaml", pod+"---\nkind: Script\ncontainers:\n  c:\n    runs:\n    - durration: 5s\n")}, 2, "", `typo.yaml:14: json: unknown field "durration"`},
		{"script stranger", []string{write("stranger.yaml", pod+"---\nkind: Script\ncontainers:\n  x: {}\n")}, 2, "", `stranger.yaml:10: the script names containers the pod does not have: "x"`},
		{"bad gates", []string{"--feature-gates", "NoSuchGate=true"}, 2, "", "unrecognized feature gate: NoSuchGate"},
		{"gates syntax", []string{"--feature-gates", "ContainerRestartRules"}, 2, "", "malformed pair, expect string=bool"},
		{"gates space pair", []string{"--feature-gates", "AllBeta=true, ,EnvFiles=true"}, 2, "", "malformed pair, expect string=bool"},
		{"script gates under the flag's", []string{good, "--feature-gates", "RestartAllContainersOnContainerExits=false", "--script",
			write("gates.yaml", "kind: Script\nfeatureGates: {ContainerRestartRules: false}\nduration: 10s\ncontainers:\n  c:\n    runs:\n    - duration: 3s\n")}, 0, "Completed", ""},
		{"flag gates valid only with the script's", []string{good, "--feature-gates", "ContainerRestartRules=false", "--script",
			write("gates2.yaml", "kind: Script\nfeatureGates: {RestartAllContainersOnContainerExits: false}\nduration: 10s\ncontainers:\n  c:\n    runs:\n    - duration: 3s\n")}, 0, "Completed", ""},
		{"script gates checked with the flag's", []string{good, "--feature-gates", "RestartAllContainersOnContainerExits=true", "--script", dir + "/gates.yaml"}, 2, "",
			"RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [ContainerRestartRules]"},
		{"script gate that no pair can carry", []string{good, "--script",
			write("comma.yaml", "kind: Script\nfeatureGates: {\"A,B\": true}\nduration: 10s\n")}, 2, "", "unrecognized feature gate: A,B"},
		{"separate script", []string{good, "--script", write("s.yaml", "kind: Script\nduration: 10s\ncontainers:\n  c:\n    runs:\n    - duration: 3s\n")}, 0, "Completed           1 (3s ago)   6s", ""},
		{"script without Script", []string{good, "--script", good}, 2, "", "no document of kind Script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := run(tc.args, &out, &errOut)
			if code != tc.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.code, errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout %q lacks %q", out.String(), tc.stdout)
			}
			if !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", errOut.String(), tc.stderr)
			}
		})
	}
}

// TestWorkloadManifest runs a Deployment: its pod is built from the template
// (podlife.PodFromTemplate) with a generated name, and the verdict is the template's.
func TestWorkloadManifest(t *testing.T) {
	p := filepath.Join(t.TempDir(), "deploy.yaml")
	os.WriteFile(p, []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources: {limits: {cpu: 500m, memory: 128Mi}}
`), 0o600)
	rep := runJSON(t, p)
	rows := watchLines(rep)
	if last := rows[len(rows)-1]; !strings.HasSuffix(last, "1/1 Running 0 1s") {
		t.Errorf("last row %q", last)
	}
	if got := rep["title"].(string); !strings.HasPrefix(got, "Deployment.apps web (pod web-") {
		t.Errorf("title %q", got)
	}
	res := rep["resources"].(map[string]any)
	if res["qosClass"] != "Guaranteed" {
		t.Errorf("QoS %v: a limits-only container is Guaranteed once defaulted (requests = limits)", res["qosClass"])
	}
	if v := rep["validation"].(map[string]any)["verdict"]; v != `Deployment.apps "web" is valid` {
		t.Errorf("verdict %v", v)
	}
}

// TestServerWarnings: the server's warnings on create follow the verdict, in text and
// JSON, and precede it when the server refuses the object, as kubectl prints them.
func TestServerWarnings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pod := `apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations: {container.apparmor.security.beta.kubernetes.io/web: runtime/default}
spec:
  nodeSelector: {beta.kubernetes.io/os: linux}
  containers:
  - name: web
    image: nginx:1.27
`
	nodeSelector := `spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`
	appArmor := `metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: deprecated since v1.30; use the "appArmorProfile" field instead`
	valid := write("web.yaml", pod)
	var out, errOut strings.Builder
	if code := run([]string{valid}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := "Validation: Pod \"web\" is valid\nWarning: " + appArmor + "\nWarning: " + nodeSelector + "\nEnd: "
	if !strings.Contains(out.String(), want) {
		t.Errorf("output:\n%s\nwant it to hold:\n%s", out.String(), want)
	}
	rep := runJSON(t, valid)
	got := rep["validation"].(map[string]any)["warnings"]
	if fmt.Sprint(got) != fmt.Sprint([]any{appArmor, nodeSelector}) {
		t.Errorf("JSON warnings %v", got)
	}
	invalid := write("bad.yaml", strings.Replace(pod, "image: nginx:1.27", "image: \"\"", 1))
	out.Reset()
	if code := run([]string{invalid}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d for an invalid pod", code)
	}
	// Refused, the pod gets only the warning sent before validation.
	if !strings.HasPrefix(out.String(), "Warning: "+appArmor+"\n"+invalid+":1: Pod \"web\" is invalid") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestEmbeddedSeed: the myapp-pod the main command runs is the one examples/resources
// embeds (the Init Containers page's pod with resources added).
func TestEmbeddedSeed(t *testing.T) {
	seed, err := os.ReadFile("../resources/testdata/myapp-pod.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := scenarioFS.ReadFile("scenarios/myapp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(ours), string(seed)+"---\n") {
		t.Error("scenarios/myapp.yaml does not start with examples/resources/testdata/myapp-pod.yaml")
	}
}
