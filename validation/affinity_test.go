package validation

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Re-expresses upstream TestValidateAffinity, TestValidateTopologySpreadConstraints
// and TestValidateMatchLabelKeys* (k8s.io/kubernetes pkg/apis/core/validation) on
// the create path, where the server has already merged matchLabelKeys into the
// selectors.
func init() {
	sel := func(kv ...string) *metav1.LabelSelector {
		s := &metav1.LabelSelector{MatchLabels: map[string]string{}}
		for i := 0; i+1 < len(kv); i += 2 {
			s.MatchLabels[kv[i]] = kv[i+1]
		}
		return s
	}
	addFamily("affinity",
		createCase{name: "valid affinity", mod: func(p *corev1.Pod) {
			p.Labels = map[string]string{"app": "web"}
			p.Spec.Affinity = &corev1.Affinity{
				NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
						MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"a"}}},
						MatchFields:      []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"node-1"}}},
					}}},
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 10, Preference: corev1.NodeSelectorTerm{
						MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "disk", Operator: "In", Values: []string{"bad value!"}}},
					}}},
				},
				PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
					LabelSelector: sel("app", "web"), TopologyKey: "kubernetes.io/hostname", MatchLabelKeys: []string{"pod-template-hash"},
				}}},
			}
		}},
		createCase{name: "node affinity faults", mod: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
					MatchExpressions: []corev1.NodeSelectorRequirement{
						{Key: "a", Operator: "In"},
						{Key: "b", Operator: "Exists", Values: []string{"x"}},
						{Key: "c", Operator: "Gt", Values: []string{"1", "2"}},
						{Key: "bad key!", Operator: "Near", Values: []string{"bad value!"}},
					},
					MatchFields: []corev1.NodeSelectorRequirement{
						{Key: "metadata.name", Operator: "Exists"},
						{Key: "spec.nodeName", Operator: "In", Values: []string{"n"}},
						{Key: "metadata.name", Operator: "In", Values: []string{"Bad_Node"}},
					},
				}}},
				PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 101}},
			}}
		}, want: []string{
			"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
			"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
			"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: "Near": not a valid selector operator`,
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].values[0]: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].operator: Invalid value: "Exists": not a valid selector operator`,
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[1].key: Invalid value: "spec.nodeName": not a valid field selector key`,
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[2].values[0]: Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100`,
		}},
		createCase{name: "empty required node selector", mod: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}}
		}, want: []string{
			`spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term`,
		}},
		createCase{name: "pod affinity faults", mod: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{
				PodAffinity: &corev1.PodAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
						LabelSelector: &metav1.LabelSelector{
							MatchLabels:      map[string]string{"bad key!": "v", "k": "bad value!"},
							MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "In"}, {Key: "b", Operator: "Maybe", Values: []string{"x"}}},
						},
						Namespaces:        []string{"Bad_NS"},
						MismatchLabelKeys: []string{"k", "bad key!"},
						MatchLabelKeys:    []string{"k"},
					}},
				},
				PodAntiAffinity: &corev1.PodAntiAffinity{
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 0, PodAffinityTerm: corev1.PodAffinityTerm{
						TopologyKey: "zone", MatchLabelKeys: []string{"app"},
					}}},
				},
			}
		}, want: []string{
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchLabels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			"spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[1].operator: Invalid value: "Maybe": not a valid selector operator`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].mismatchLabelKeys[1]: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[0]: Invalid value: "k": exists in both matchLabelKeys and mismatchLabelKeys`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty`,
			`spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100`,
			`spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
		}},
	)
	addFamily("topology spread",
		createCase{name: "valid constraints", mod: func(p *corev1.Pod) {
			p.Labels = map[string]string{"app": "web"}
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: sel("app", "web"), MinDomains: ptr(int32(2)), MatchLabelKeys: []string{"pod-template-hash"}},
				{MaxSkew: 2, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway, NodeTaintsPolicy: ptr(corev1.NodeInclusionPolicyHonor)},
			}
		}},
		createCase{name: "constraint faults", mod: func(p *corev1.Pod) {
			p.Labels = map[string]string{"app": "web"}
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
				{MaxSkew: 0, TopologyKey: "", WhenUnsatisfiable: "Sometimes", MinDomains: ptr(int32(0))},
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway, MinDomains: ptr(int32(3)),
					NodeAffinityPolicy: ptr(corev1.NodeInclusionPolicy("Maybe")), LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"k": "bad value!"}}},
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway, MatchLabelKeys: []string{"app", "bad key!"}},
				{MaxSkew: 1, TopologyKey: "rack", WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: sel("app", "web"), MatchLabelKeys: []string{"app"}},
			}
		}, want: []string{
			`spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero`,
			`spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty`,
			`spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"`,
			`spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero`,
			`spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Sometimes`,
			`spec.topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"`,
			`spec.topologySpreadConstraints[1].minDomains: Invalid value: 3: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway`,
			`spec.topologySpreadConstraints[1].nodeAffinityPolicy: Unsupported value: "Maybe": supported values: "Honor", "Ignore"`,
			`spec.topologySpreadConstraints[1].labelSelector.matchLabels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`spec.topologySpreadConstraints[2].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
			`spec.topologySpreadConstraints[3][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
		}},
		createCase{name: "legacy matchLabelKeys check without selector merge", features: map[string]bool{"MatchLabelKeysInPodTopologySpreadSelectorMerge": false}, mod: func(p *corev1.Pod) {
			p.Labels = map[string]string{"app": "web"}
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
				{MaxSkew: 1, TopologyKey: "rack", WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: sel("app", "web"), MatchLabelKeys: []string{"app", "Bad Key"}},
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, MatchLabelKeys: []string{"app"}},
			}
		}, want: []string{
			`spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
			`spec.topologySpreadConstraints[0].matchLabelKeys[1]: Invalid value: "Bad Key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
		}},
	)
}
