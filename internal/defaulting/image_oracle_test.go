package defaulting

import (
	"regexp"
	"strings"
	"testing"
)

// The image reference grammar written as the regular expressions of
// github.com/distribution/reference: the oracle the hand-written parser in
// default_image.go is checked against.
const (
	oracleAlphaNumeric  = `[a-z0-9]+`
	oracleSeparator     = `(?:[._]|__|[-]+)`
	oracleDomainComp    = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	oracleDomainName    = oracleDomainComp + `(?:\.` + oracleDomainComp + `)*`
	oracleIPv6          = `\[(?:[a-fA-F0-9:]+)\]`
	oracleDomainAndPort = `(?:` + oracleDomainName + `|` + oracleIPv6 + `)(?::[0-9]+)?`
	oraclePathComponent = oracleAlphaNumeric + `(?:` + oracleSeparator + oracleAlphaNumeric + `)*`
	oracleRemoteName    = oraclePathComponent + `(?:/` + oraclePathComponent + `)*`
	oracleName          = `(?:` + oracleDomainAndPort + `/)?` + oracleRemoteName
	oracleTag           = `[\w][\w.-]{0,127}`
	oracleDigest        = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
)

var (
	oracleIdentifierRE = regexp.MustCompile(`^[a-f0-9]{64}$`)
	oracleReferenceRE  = regexp.MustCompile(`^(` + oracleName + `)(?::(` + oracleTag + `))?(?:@(` + oracleDigest + `))?$`)
	oracleNameRE       = regexp.MustCompile(`^(?:(` + oracleDomainAndPort + `)/)?(` + oracleRemoteName + `)$`)
)

// parseImageTagOracle is parseImageTag through the regular expressions.
func parseImageTagOracle(s string) (tag string, digest bool, ok bool) {
	if oracleIdentifierRE.MatchString(s) {
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
	m := oracleReferenceRE.FindStringSubmatch(domain + "/" + remainder)
	if m == nil {
		return "", false, false
	}
	path := m[1]
	if nm := oracleNameRE.FindStringSubmatch(m[1]); len(nm) == 3 {
		path = nm[2]
	}
	if len(path) > 255 {
		return "", false, false
	}
	if m[3] != "" && !validImageDigest(m[3]) {
		return "", false, false
	}
	return m[2], m[3] != "", true
}

// imageSamples are references on the edges of the grammar.
var imageSamples = []string{
	"", "nginx", "nginx:latest", "nginx:1.27", "NGINX", "a/B", "Registry.Example/app", "localhost/app", "localhost:5000/x:y",
	"[::1]/app", "[::1]:5000/app:v1", "[]/app", "[::1/app", "[::g]/app", "[::1]x/app", "[::1]:/app", "a:/b", ":80/a", "a.-b/c",
	"a-.b/c", "a..b/c", "-a.com/b", "a.com:80:90/b", "a__b", "a___b", "a--b", "a-", "-a", "a._b", "a_.b", "a/b//c", "a/", "/a",
	"nginx:", "nginx:-x", "nginx:_x", "nginx:.x", "nginx:x.y-z_w", "nginx:" + strings.Repeat("t", 128), "nginx:" + strings.Repeat("t", 129),
	"nginx@sha256:" + strings.Repeat("a", 64), "nginx@sha256:" + strings.Repeat("A", 64), "nginx@sha256:" + strings.Repeat("a", 63),
	"nginx@sha512:" + strings.Repeat("0", 128), "nginx@sha384:" + strings.Repeat("0", 96), "nginx@md5:" + strings.Repeat("0", 32),
	"nginx@sha256+b64:" + strings.Repeat("a", 64), "nginx@a-:" + strings.Repeat("a", 32), "nginx@-a:" + strings.Repeat("a", 32),
	"nginx@1a:" + strings.Repeat("a", 32), "nginx@a..b:" + strings.Repeat("a", 32), "nginx:v@sha256:" + strings.Repeat("b", 64),
	"nginx@sha256:" + strings.Repeat("a", 64) + "@x", "n@", "@sha256:" + strings.Repeat("a", 64), strings.Repeat("a", 64),
	strings.Repeat("A", 64), strings.Repeat("a", 63), "a/" + strings.Repeat("b", 253), "a/" + strings.Repeat("b", 254),
	"example.com/" + strings.Repeat("b", 255), "example.com/" + strings.Repeat("b", 256), "é", "a/é", "nginx:é", "a b", "index.docker.io/x",
	"docker.io/x", "docker.io/x/y", "x/y/z:latest", "1.2.3.4:5000/a", "UPPER/lower", "lower/UPPER", "x:Latest",
}

func TestParseImageTagMatchesGrammar(t *testing.T) {
	for _, s := range imageSamples {
		t1, d1, ok1 := parseImageTag(s)
		t2, d2, ok2 := parseImageTagOracle(s)
		if t1 != t2 || d1 != d2 || ok1 != ok2 {
			t.Errorf("%q: scanner (%q, %t, %t), grammar (%q, %t, %t)", s, t1, d1, ok1, t2, d2, ok2)
		}
	}
}

// FuzzParseImageTag checks the hand-written scanner against the grammar's regular
// expressions on arbitrary strings.
func FuzzParseImageTag(f *testing.F) {
	for _, s := range imageSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		t1, d1, ok1 := parseImageTag(s)
		t2, d2, ok2 := parseImageTagOracle(s)
		if t1 != t2 || d1 != d2 || ok1 != ok2 {
			t.Fatalf("%q: scanner (%q, %t, %t), grammar (%q, %t, %t)", s, t1, d1, ok1, t2, d2, ok2)
		}
	})
}
