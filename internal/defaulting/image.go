package defaulting

import (
	"strings"
)

// Image references are parsed as the API server parses them
// (github.com/distribution/reference ParseNormalizedNamed, used by k8s.io/kubernetes
// pkg/util/parsers ParseImageName), with a hand-written scanner for its grammar:
//
//	reference   := name [ ":" tag ] [ "@" digest ]
//	name        := [ domain "/" ] path-component { "/" path-component }
//	domain      := ( host-label { "." host-label } | "[" ipv6 "]" ) [ ":" digits ]
//	path-comp.  := alnum { separator alnum }, alnum = [a-z0-9]+, separator = "." | "_" | "__" | "-"+
//	tag         := [A-Za-z0-9_] [A-Za-z0-9_.-]{0,127}
//	digest      := algorithm ":" hex{32,}, algorithm = letters/digits joined by [-_+.]
//
// The conformance module checks it against upstream's parser; a unit fuzz test checks
// it against the same grammar written as upstream's regular expressions.
const (
	refMaxPathLength  = 255
	refDefaultDomain  = "docker.io"
	refLegacyDomain   = "index.docker.io"
	refOfficialPrefix = "library/"
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
	if len(s) == 64 && isLowerHex(s) {
		// A bare 64-character hex string is refused as ambiguous with an image ID.
		return "", false, false
	}
	if strings.IndexByte(s, '/') < 0 {
		return parseOfficialReference(s)
	}
	domain, remainder := splitImageDomain(s)
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return "", false, false
	}
	// Most references already name their registry: then the normalized reference is
	// the input itself, and building it again would cost an allocation per container.
	ref := s
	if n := len(domain); len(s) != n+1+len(remainder) || s[:n] != domain || s[n] != '/' || s[n+1:] != remainder {
		ref = domain + "/" + remainder
	}
	return parseReference(ref)
}

// parseOfficialReference is parseImageTag of a reference without '/' (a Docker Hub
// official image), read in place: its normalized form "docker.io/library/" + s is
// never built. In that form the domain parses, '@' and the last ':' can only lie in
// s, the remote name is "library/" + the name part of s (so it is a remote name
// exactly when that part is one path component, and lower case exactly when that
// part is), and the path's length counts "library/".
func parseOfficialReference(s string) (tag string, digest bool, ok bool) {
	remote := s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		remote = s[:i]
	}
	if strings.ToLower(remote) != remote {
		return "", false, false
	}
	name, tag, digest, ok := splitReference(s)
	if !ok || !isPathComponent(name) || len(refOfficialPrefix)+len(name) > refMaxPathLength {
		return "", false, false
	}
	return tag, digest, true
}

// splitReference splits "name[:tag][@digest]" into its name and tag, checking the
// digest and the tag. '@' occurs only before the digest and ':' after the last '/'
// only before the tag, so both splits are forced.
func splitReference(ref string) (name, tag string, digest bool, ok bool) {
	rest := ref
	var dig string
	if at := strings.IndexByte(ref, '@'); at >= 0 {
		rest, dig = ref[:at], ref[at+1:]
		if !isDigest(dig) || !validImageDigest(dig) {
			return "", "", false, false
		}
	}
	name = rest
	if colon := strings.LastIndexByte(rest, ':'); colon > strings.LastIndexByte(rest, '/') {
		name, tag = rest[:colon], rest[colon+1:]
		if !isTag(tag) {
			return "", "", false, false
		}
	}
	return name, tag, dig != "", true
}

// parseReference parses "name[:tag][@digest]" (see splitReference).
func parseReference(ref string) (tag string, digest bool, ok bool) {
	name, tag, digest, ok := splitReference(ref)
	if !ok {
		return "", false, false
	}
	// name := [domain "/"] remote; the domain, when it parses, is taken (the grammar's
	// optional group is greedy) and only the path counts for the length limit.
	path := name
	if slash := strings.IndexByte(name, '/'); slash >= 0 && isDomain(name[:slash]) && isRemoteName(name[slash+1:]) {
		path = name[slash+1:]
	} else if !isRemoteName(name) {
		return "", false, false
	}
	if len(path) > refMaxPathLength {
		return "", false, false
	}
	return tag, digest, true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func isAlnumLower(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }
func isAlnum(c byte) bool      { return isAlnumLower(c) || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isWord(c byte) bool       { return isAlnum(c) || c == '_' }

// isRemoteName: path components joined by '/'.
func isRemoteName(s string) bool {
	for {
		comp, rest, more := strings.Cut(s, "/")
		if !isPathComponent(comp) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// isPathComponent: runs of [a-z0-9] joined by ".", "_", "__" or one or more "-".
func isPathComponent(s string) bool {
	if s == "" || !isAlnumLower(s[0]) || !isAlnumLower(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); {
		if isAlnumLower(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !isAlnumLower(s[j]) {
			j++
		}
		switch sep := s[i:j]; {
		case sep == "." || sep == "_" || sep == "__":
		case strings.Trim(sep, "-") == "":
		default:
			return false
		}
		i = j
	}
	return true
}

// isDomain: a DNS-like host or a bracketed IPv6 address, with an optional port.
func isDomain(s string) bool {
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		inner := s[1:end]
		if inner == "" {
			return false
		}
		for i := 0; i < len(inner); i++ {
			if c := inner[i]; !isHexDigit(c) && c != ':' {
				return false
			}
		}
		host, port = "", s[end+1:]
		if port != "" && port[0] != ':' {
			return false
		}
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i:]
	}
	if port != "" {
		if len(port) < 2 {
			return false
		}
		for i := 1; i < len(port); i++ {
			if !isDigit(port[i]) {
				return false
			}
		}
	}
	if host == "" {
		return strings.HasPrefix(s, "[")
	}
	for {
		label, rest, more := strings.Cut(host, ".")
		if label == "" || !isAlnum(label[0]) || !isAlnum(label[len(label)-1]) {
			return false
		}
		for i := 1; i < len(label)-1; i++ {
			if !isAlnum(label[i]) && label[i] != '-' {
				return false
			}
		}
		if !more {
			return true
		}
		host = rest
	}
}

func isHexDigit(c byte) bool { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }

// isTag: a word character, then up to 127 word characters, dots and dashes.
func isTag(s string) bool {
	if len(s) == 0 || len(s) > 128 || !isWord(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isWord(c) && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// isDigest: the digest syntax (not yet its algorithm): letter-led alphanumeric parts
// joined by one of "-_+.", a colon, and at least 32 hex digits.
func isDigest(s string) bool {
	alg, hex, found := strings.Cut(s, ":")
	if !found || len(hex) < 32 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if !isHexDigit(hex[i]) {
			return false
		}
	}
	start := true
	for i := 0; i < len(alg); i++ {
		c := alg[i]
		switch {
		case start:
			if !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
				return false
			}
			start = false
		case c == '-' || c == '_' || c == '+' || c == '.':
			start = true
		case !isAlnum(c):
			return false
		}
	}
	return alg != "" && !start
}

// validImageDigest checks the digest's algorithm and hex form as the digest library
// does: sha256, sha384 or sha512 with lower-case hex of the right length.
func validImageDigest(d string) bool {
	alg, hex, _ := strings.Cut(d, ":")
	// The digest algorithms the API server links in, with their hex length.
	n := 0
	switch alg {
	case "sha256":
		n = 64
	case "sha384":
		n = 96
	case "sha512":
		n = 128
	default:
		return false
	}
	return len(hex) == n && isLowerHex(hex)
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
