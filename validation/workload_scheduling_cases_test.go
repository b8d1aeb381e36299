package validation

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	sched "k8s.io/api/scheduling/v1alpha3"

	"github.com/podlife/podlife/internal/gates"
)

// The spec.scheduling cases of k8s.io/kubernetes pkg/apis/batch/validation
// validation_test.go (TestValidateJobSchedulingUpdate, TestValidateJobSchedulingGangMinCount,
// TestValidateCronJobSchedulingUpdate) through the server's paths, which add the
// declarative rules of the field (declarative_validation_test.go's), and cases of
// the declarative rules of a workload template's evictionResponders.

func init() {
	workload := gates.FeatureGates{"GenericWorkload": true, "WorkloadWithJob": true}
	basic := func() *batchv1.JobSchedulingConfiguration {
		return &batchv1.JobSchedulingConfiguration{SchedulingPolicy: &sched.WorkloadPodGroupSchedulingPolicy{Basic: &sched.WorkloadPodGroupBasicSchedulingPolicy{}}}
	}
	gang := func(minCount int32) *batchv1.JobSchedulingConfiguration {
		return &batchv1.JobSchedulingConfiguration{SchedulingPolicy: &sched.WorkloadPodGroupSchedulingPolicy{Gang: &sched.WorkloadPodGroupGangSchedulingPolicy{MinCount: ptr(minCount)}}}
	}
	all := &sched.WorkloadPodGroupDisruptionMode{All: &sched.WorkloadPodGroupAllDisruptionMode{}}
	with := func(s *batchv1.JobSchedulingConfiguration, f func(*batchv1.JobSchedulingConfiguration)) *batchv1.JobSchedulingConfiguration {
		f(s)
		return s
	}
	scheduled := func(parallelism int32, s *batchv1.JobSchedulingConfiguration) func(*batchv1.Job) {
		return func(j *batchv1.Job) {
			j.Spec.Parallelism = ptr(parallelism)
			j.Spec.Scheduling = s
		}
	}
	create := func(name string, features gates.FeatureGates, f func(*batchv1.Job), want ...string) objectCase {
		return objectCase{name: name, obj: job(never, f), features: features, want: want}
	}
	change := func(name string, from, to *batchv1.JobSchedulingConfiguration, want ...string) objectCase {
		return jobUpdate(name, []func(*batchv1.Job){never, scheduled(8, from)}, scheduled(8, to), workload, want...)
	}
	addObjectCases("TestValidateJobScheduling",
		create("no scheduling", workload, scheduled(4, nil)),
		create("basic", workload, scheduled(1, basic())),
		create("gang minCount below parallelism", workload, scheduled(4, gang(2))),
		create("gang minCount above parallelism", workload, scheduled(2, gang(4)),
			"spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 4: must not be greater than parallelism (2)"),
		create("gang minCount 0", workload, scheduled(2, gang(0)),
			"spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1"),
		create("gang without minCount", workload, scheduled(4, &batchv1.JobSchedulingConfiguration{SchedulingPolicy: &sched.WorkloadPodGroupSchedulingPolicy{Gang: &sched.WorkloadPodGroupGangSchedulingPolicy{}}})),
		create("basic and disruption mode all", workload, scheduled(4, with(basic(), func(s *batchv1.JobSchedulingConfiguration) { s.DisruptionMode = all })),
			"spec.scheduling.disruptionMode: Invalid value: \"\": the disruptionMode `all` is not supported with the Basic scheduling policy"),
		create("no policy and disruption mode all", workload, scheduled(4, &batchv1.JobSchedulingConfiguration{DisruptionMode: all}),
			"spec.scheduling.disruptionMode: Invalid value: \"\": the disruptionMode `all` is not supported with the Basic scheduling policy"),
		create("gang and disruption mode all", workload, scheduled(4, with(gang(2), func(s *batchv1.JobSchedulingConfiguration) { s.DisruptionMode = all }))),
		create("basic and gang", workload, scheduled(4, &batchv1.JobSchedulingConfiguration{SchedulingPolicy: &sched.WorkloadPodGroupSchedulingPolicy{
			Basic: &sched.WorkloadPodGroupBasicSchedulingPolicy{}, Gang: &sched.WorkloadPodGroupGangSchedulingPolicy{}}}),
			"spec.scheduling.schedulingPolicy: Invalid value: \"{basic, gang}\": must specify exactly one of: `basic`, `gang`"),
		create("empty policy and disruption mode", workload, scheduled(4, &batchv1.JobSchedulingConfiguration{SchedulingPolicy: &sched.WorkloadPodGroupSchedulingPolicy{},
			DisruptionMode: &sched.WorkloadPodGroupDisruptionMode{}}),
			"spec.scheduling.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`",
			"spec.scheduling.disruptionMode: Invalid value: \"\": must specify one of: `single`, `all`"),
		create("two topology constraints", workload, scheduled(4, with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			s.SchedulingConstraints = &sched.WorkloadPodGroupSchedulingConstraints{Topology: []sched.TopologyConstraint{{Key: "zone"}, {Key: "rack"}}}
		})),
			"spec.scheduling.schedulingConstraints.topology: Too many: 2: must have at most 1 item"),
		create("topology constraint keys", workload, scheduled(4, with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			s.SchedulingConstraints = &sched.WorkloadPodGroupSchedulingConstraints{Topology: []sched.TopologyConstraint{{Key: "bad key!"}}}
		})),
			"spec.scheduling.schedulingConstraints.topology[0].key: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
		create("resource claims", workload, scheduled(4, with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			s.ResourceClaims = []sched.WorkloadPodGroupResourceClaim{
				{Name: "gpus", ResourceClaimName: ptr("shared")},
				{Name: "gpus", ResourceClaimTemplateName: ptr("Bad..Name")},
				{Name: "Bad_Name"},
				{Name: "", ResourceClaimName: ptr("a"), ResourceClaimTemplateName: ptr("b")},
			}
		})),
			"spec.scheduling.resourceClaims[1]: Duplicate value: {\"name\":\"gpus\",\"resourceClaimTemplateName\":\"Bad..Name\"}",
			"spec.scheduling.resourceClaims[1].resourceClaimTemplateName: Invalid value: \"Bad..Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
			"spec.scheduling.resourceClaims[2]: Invalid value: \"\": must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
			"spec.scheduling.resourceClaims[2].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
			"spec.scheduling.resourceClaims[3]: Invalid value: \"{resourceClaimName, resourceClaimTemplateName}\": must specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`",
			"spec.scheduling.resourceClaims[3].name: Required value"),
		create("five resource claims", workload, scheduled(4, with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			for _, n := range []string{"a", "b", "c", "d", "e"} {
				s.ResourceClaims = append(s.ResourceClaims, sched.WorkloadPodGroupResourceClaim{Name: n, ResourceClaimName: ptr("shared")})
			}
		})),
			"spec.scheduling.resourceClaims: Too many: 5: must have at most 4 items"),
		create("dropped without WorkloadWithJob", nil, scheduled(2, gang(4))),
		change("unchanged gang", gang(4), gang(4)),
		change("gang minCount changed", gang(4), gang(6)),
		change("scheduling added", nil, basic(),
			"spec.scheduling: Invalid value: null: field cannot be set once created"),
		change("scheduling removed", basic(), nil,
			"spec.scheduling: Invalid value: null: field cannot be cleared once set"),
		change("basic to gang", basic(), gang(4),
			"spec.scheduling.schedulingPolicy: Invalid value: null: the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated"),
		change("gang to basic", gang(4), basic(),
			"spec.scheduling.schedulingPolicy: Invalid value: null: the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated"),
		change("gang minCount raised above parallelism", gang(4), gang(16),
			"spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 16: must not be greater than parallelism (8)"),
		change("disruption mode added", basic(), with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			s.DisruptionMode = &sched.WorkloadPodGroupDisruptionMode{Single: &sched.WorkloadPodGroupSingleDisruptionMode{}}
		}),
			"spec.scheduling.disruptionMode: Invalid value: null: field is immutable"),
		change("resource claim added", basic(), with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			s.ResourceClaims = []sched.WorkloadPodGroupResourceClaim{{Name: "a", ResourceClaimName: ptr("shared")}}
		}),
			"spec.scheduling.resourceClaims: Invalid value: null: field is immutable"),
		// Immutable and maxItems both report before either stops the field's checks.
		change("five resource claims added", basic(), with(basic(), func(s *batchv1.JobSchedulingConfiguration) {
			for _, n := range []string{"a", "b", "c", "d", "e"} {
				s.ResourceClaims = append(s.ResourceClaims, sched.WorkloadPodGroupResourceClaim{Name: n, ResourceClaimName: ptr("shared")})
			}
		}),
			"spec.scheduling.resourceClaims: Invalid value: null: field is immutable",
			"spec.scheduling.resourceClaims: Too many: 5: must have at most 4 items"),
		change("policy removed", gang(4), &batchv1.JobSchedulingConfiguration{},
			"spec.scheduling.schedulingPolicy: Invalid value: null: field cannot be cleared once set"),
		jobUpdate("changed after WorkloadWithJob was turned off", []func(*batchv1.Job){never, scheduled(8, gang(4))}, scheduled(8, gang(6)), nil,
			"spec.scheduling: Forbidden"),
		jobUpdate("kept after WorkloadWithJob was turned off", []func(*batchv1.Job){never, scheduled(8, gang(4))}, func(*batchv1.Job) {}, nil),
		objectCase{name: "CronJob: scheduling added", features: workload,
			old: cronJob(func(cj *batchv1.CronJob) {
				cj.ResourceVersion = "1"
				cj.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
			}),
			obj: cronJob(func(cj *batchv1.CronJob) {
				cj.ResourceVersion = "1"
				cj.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
				cj.Spec.JobTemplate.Spec.Parallelism = ptr[int32](2)
				cj.Spec.JobTemplate.Spec.Scheduling = gang(4)
			}),
			want: []string{
				"spec.jobTemplate.spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 4: must not be greater than parallelism (2)",
				"spec.jobTemplate.spec.scheduling: Invalid value: null: field cannot be set once created",
			}},
	)

	eviction := gates.FeatureGates{"EvictionRequestAPI": true}
	responders := func(rs ...corev1.EvictionResponder) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) { d.Spec.Template.Spec.EvictionResponders = rs }
	}
	deploy := func(f func(*appsv1.Deployment)) *appsv1.Deployment {
		d := &appsv1.Deployment{ObjectMeta: objMeta("web"), Spec: appsv1.DeploymentSpec{
			Selector: selectorOf(map[string]string{"app": "web"}),
			Template: wlTemplate(withLabels(map[string]string{"app": "web"})),
		}}
		f(d)
		return d
	}
	r := func(name string, priority *int32) corev1.EvictionResponder {
		return corev1.EvictionResponder{Name: name, Priority: priority}
	}
	addObjectCases("TestValidateTemplateEvictionResponders",
		objectCase{name: "valid", features: eviction, obj: deploy(responders(r("example.com/drain", ptr[int32](5000))))},
		objectCase{name: "dropped without EvictionRequestAPI", obj: deploy(responders(r("", nil)))},
		objectCase{name: "names and priorities", features: eviction, obj: deploy(responders(
			r("example.com/drain", ptr[int32](10)), r("example.com/drain", ptr[int32](5000)), r("", nil), r("x.k8s.io/y", ptr[int32](100001)))),
			want: []string{
				"spec.template.spec.evictionResponders[1]: Duplicate value: {\"name\":\"example.com/drain\",\"priority\":5000}",
				"spec.template.spec.evictionResponders[0].priority: Invalid value: 10: priorities 0-999 are reserved for responders with *.k8s.io suffix",
				"spec.template.spec.evictionResponders[2].name: Required value",
				"spec.template.spec.evictionResponders[2].priority: Required value",
				"spec.template.spec.evictionResponders[3].name: Invalid value: \"x.k8s.io/y\": domain names *.k8s.io, *.kubernetes.io are reserved",
				"spec.template.spec.evictionResponders[3].priority: Invalid value: 100001: must be less than or equal to 100000",
			}},
		objectCase{name: "kept on update when stored", old: deploy(func(d *appsv1.Deployment) {
			stored(&d.ObjectMeta)
			responders(r("example.com/drain", ptr[int32](5000)))(d)
		}), obj: deploy(func(d *appsv1.Deployment) {
			stored(&d.ObjectMeta)
			responders(r("example.com/drain", ptr[int32](-1)))(d)
		}),
			want: []string{
				"spec.template.spec.evictionResponders[0].priority: Invalid value: -1: must be greater than or equal to 0",
			}},
	)
}
