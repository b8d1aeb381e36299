package validation

import (
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Hand-written matchers that accept exactly the valid names of the apimachinery
// validators (k8s.io/apimachinery pkg/util/validation and pkg/api/validate/content).
// They only short-cut the common, valid case: any name they do not accept goes to
// the apimachinery function, which produces upstream's messages.

func isAlnumLower(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isAlnumLower(c) || c >= 'A' && c <= 'Z' }

// validDNS1123Label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 characters.
func validDNS1123Label(s string) bool {
	if len(s) == 0 || len(s) > 63 || !isAlnumLower(s[0]) || !isAlnumLower(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnumLower(c) && c != '-' {
			return false
		}
	}
	return true
}

// validDNS1123Subdomain: labels joined by dots, at most 253 characters.
func validDNS1123Subdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			label := s[start:i]
			if len(label) == 0 || !isAlnumLower(label[0]) || !isAlnumLower(label[len(label)-1]) {
				return false
			}
			for j := 1; j < len(label)-1; j++ {
				if c := label[j]; !isAlnumLower(c) && c != '-' {
					return false
				}
			}
			start = i + 1
		}
	}
	return true
}

// validQualifiedName: an optional DNS-subdomain prefix and "/", then a name of at
// most 63 characters matching ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
func validQualifiedName(s string) bool {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if !validDNS1123Subdomain(s[:i]) {
				return false
			}
			name = s[i+1:]
			break
		}
	}
	if len(name) == 0 || len(name) > 63 || !isAlnum(name[0]) || !isAlnum(name[len(name)-1]) {
		return false
	}
	for i := 1; i < len(name)-1; i++ {
		if c := name[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false // a second '/' lands here too
		}
	}
	return true
}

// validPortName: an IANA service name: at most 15 characters of [a-z0-9-], at least
// one letter, no "--", no leading or trailing hyphen.
func validPortName(s string) bool {
	if len(s) == 0 || len(s) > 15 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9':
		case c == '-':
			if s[i-1] == '-' {
				return false
			}
		default:
			return false
		}
	}
	return letter
}

func dns1123LabelErrs(s string) []string {
	if validDNS1123Label(s) {
		return nil
	}
	return validation.IsDNS1123Label(s)
}

func dns1123SubdomainErrs(s string) []string {
	if validDNS1123Subdomain(s) {
		return nil
	}
	return validation.IsDNS1123Subdomain(s)
}

func qualifiedNameErrs(s string) []string {
	if validQualifiedName(s) {
		return nil
	}
	return validation.IsQualifiedName(s)
}

func portNameErrs(s string) []string {
	if validPortName(s) {
		return nil
	}
	return validation.IsValidPortName(s)
}

// nameIsDNSSubdomain is apimachinery's NameIsDNSSubdomain with the fast path.
func nameIsDNSSubdomain(name string, prefix bool) []string {
	// With prefix, apimachinery only rewrites a trailing '-', which no valid
	// subdomain has, so a valid name is valid either way.
	if validDNS1123Subdomain(name) {
		return nil
	}
	return apimachineryvalidation.NameIsDNSSubdomain(name, prefix)
}
