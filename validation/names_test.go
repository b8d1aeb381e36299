package validation

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

// FuzzNameMatchers checks that each hand-written matcher accepts exactly the names
// the apimachinery validator accepts.
func FuzzNameMatchers(f *testing.F) {
	for _, s := range []string{
		"", "a", "A", "-", "a-b", "a--b", "-a", "a-", "a.b", "a..b", ".a", "a.", "ab/cd", "a/b/c", "/a", "a/",
		"example.com/Name_1", "Example.com/x", "1234", "http", "http-80", strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 15), strings.Repeat("a", 16), strings.Repeat("a.", 126) + "a", "a_b", "a b", "é",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check := func(name string, fast bool, slow []string) {
			if fast != (len(slow) == 0) {
				t.Fatalf("%s(%q): fast %v, apimachinery %q", name, s, fast, slow)
			}
		}
		check("DNS1123Label", validDNS1123Label(s), validation.IsDNS1123Label(s))
		check("DNS1123Subdomain", validDNS1123Subdomain(s), validation.IsDNS1123Subdomain(s))
		check("QualifiedName", validQualifiedName(s), validation.IsQualifiedName(s))
		check("PortName", validPortName(s), validation.IsValidPortName(s))
	})
}
