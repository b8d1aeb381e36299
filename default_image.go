package podlife

import (
	"regexp"
	"strings"
)

// The grammar of container image references, as the kubelet and API server parse them
// (github.com/distribution/reference, used by k8s.io/kubernetes pkg/util/parsers).
const (
	refAlphaNumeric   = `[a-z0-9]+`
	refSeparator      = `(?:[._]|__|[-]+)`
	refDomainComp     = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	refDomainName     = refDomainComp + `(?:\.` + refDomainComp + `)*`
	refIPv6           = `\[(?:[a-fA-F0-9:]+)\]`
	refDomainAndPort  = `(?:` + refDomainName + `|` + refIPv6 + `)(?::[0-9]+)?`
	refPathComponent  = refAlphaNumeric + `(?:` + refSeparator + refAlphaNumeric + `)*`
	refRemoteName     = refPathComponent + `(?:/` + refPathComponent + `)*`
	refName           = `(?:` + refDomainAndPort + `/)?` + refRemoteName
	refTag            = `[\w][\w.-]{0,127}`
	refDigest         = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
	refMaxPathLength  = 255
	refDefaultDomain  = "docker.io"
	refLegacyDomain   = "index.docker.io"
	refOfficialPrefix = "library/"
)

var (
	refIdentifierRE = regexp.MustCompile(`^[a-f0-9]{64}$`)
	refReferenceRE  = regexp.MustCompile(`^(` + refName + `)(?::(` + refTag + `))?(?:@(` + refDigest + `))?$`)
	refNameRE       = regexp.MustCompile(`^(?:(` + refDomainAndPort + `)/)?(` + refRemoteName + `)$`)
	// Digest algorithms the API server links in, with their hex length.
	refDigestHexLen = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
)

// defaultPullPolicyIsAlways reports whether an empty imagePullPolicy defaults to Always
// for image: the reference parses and its tag is "latest" or it has neither tag nor
// digest. An unparsable reference defaults to IfNotPresent, as upstream ignores the
// parse error (k8s.io/kubernetes pkg/apis/core/v1/defaults.go SetDefaults_Container).
func defaultPullPolicyIsAlways(image string) bool {
	tag, digest, ok := parseImageTag(image)
	if !ok {
		return false
	}
	return tag == "latest" || (tag == "" && !digest)
}

// parseImageTag returns the tag of a normalized image reference and whether it has a
// digest; ok is false when the reference does not parse.
func parseImageTag(s string) (tag string, digest bool, ok bool) {
	if refIdentifierRE.MatchString(s) {
		return "", false, false
	}
	domain, remainder := splitImageDomain(s)
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return "", false, false
	}
	m := refReferenceRE.FindStringSubmatch(domain + "/" + remainder)
	if m == nil {
		return "", false, false
	}
	// The length limit applies to the path without the domain; only a long name needs
	// the split.
	if path := m[1]; len(path) > refMaxPathLength {
		if nm := refNameRE.FindStringSubmatch(path); len(nm) == 3 {
			path = nm[2]
		}
		if len(path) > refMaxPathLength {
			return "", false, false
		}
	}
	if m[3] != "" && !validImageDigest(m[3]) {
		return "", false, false
	}
	return m[2], m[3] != "", true
}

func validImageDigest(d string) bool {
	alg, hex, _ := strings.Cut(d, ":")
	n, ok := refDigestHexLen[alg]
	if !ok || len(hex) != n {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// splitImageDomain splits a reference into registry domain and remainder, adding the
// Docker Hub defaults ("docker.io", "library/") the way the upstream parser does.
func splitImageDomain(name string) (domain, remainder string) {
	first, rest, found := strings.Cut(name, "/")
	if !found {
		return refDefaultDomain, refOfficialPrefix + name
	}
	switch {
	case first == "localhost":
		domain, remainder = first, rest
	case first == refLegacyDomain:
		domain, remainder = refDefaultDomain, rest
	case strings.ContainsAny(first, ".:"):
		domain, remainder = first, rest
	case strings.ToLower(first) != first:
		domain, remainder = first, rest
	default:
		domain, remainder = refDefaultDomain, name
	}
	if domain == refDefaultDomain && !strings.Contains(remainder, "/") {
		remainder = refOfficialPrefix + remainder
	}
	return domain, remainder
}
