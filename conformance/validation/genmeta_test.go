package validation

import (
	"math/rand"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// generateNames are metadata.generateName values: valid and invalid bases, bases
// longer than the 58 bytes upstream keeps (valid, invalid only past the cut, cut at
// a dot, cut inside a rune) and one longer than a name may be.
var generateNames = []string{
	"web-", "job-abc-", "x", "a.b-", "trailing.", "Bad_", "UPPER-", "-lead-", "sp ace-",
	strings.Repeat("a", 70),
	strings.Repeat("a", 58) + "_INVALID",
	strings.Repeat("b", 57) + ".c",
	strings.Repeat("c", 57) + "é-",
	strings.Repeat("d", 300),
}

// metaVariant rewrites the name, generateName and namespace of a generated pod the
// way clients send them, and returns the request namespace (Options.Namespace) and
// a label for the report: pods with only a generateName, pods without a namespace,
// request namespaces equal to, missing from or conflicting with the pod's.
func metaVariant(r *rand.Rand, p *v1.Pod) (reqNS string, kind string) {
	kind = "named"
	switch x := r.Float64(); {
	case x < 0.4:
		p.Name = ""
		p.GenerateName = generateNames[r.Intn(len(generateNames))]
		kind = "generateName-only"
	case x < 0.5:
		p.GenerateName = generateNames[r.Intn(len(generateNames))]
		kind = "name+generateName"
	}
	if r.Float64() < 0.3 {
		p.Namespace = ""
		kind += ",no-namespace"
	}
	switch x := r.Float64(); {
	case x < 0.4:
		reqNS = ""
	case x < 0.8:
		reqNS = p.Namespace
	default:
		reqNS = []string{"default", "team-a", "other", "Bad_NS"}[r.Intn(4)]
	}
	if reqNS != "" {
		kind += ",request-namespace"
		if p.Namespace != "" && p.Namespace != reqNS {
			kind += ",mismatch"
		}
	}
	return reqNS, kind
}
