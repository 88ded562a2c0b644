// Package namefmt matches the name formats every object the cluster
// creates is checked against (apimachinery's util/validation expressions
// for RFC 1123 labels and subdomains, qualified names and label values) by
// scanning the bytes instead of running a regular expression: they run for
// every write, the page's start included, where compiling and running the
// regexp engine costs more than the check. namefmt_test.go holds each to
// its expression.
package namefmt

func lowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func alnum(c byte) bool { return lowerAlnum(c) || 'A' <= c && c <= 'Z' }

// DNS1123Label is [a-z0-9]([-a-z0-9]*[a-z0-9])?
func DNS1123Label(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !lowerAlnum(s[i]) && (s[i] != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// DNS1123Subdomain is DNS1123Label, then any number of '.' and another.
func DNS1123Subdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !DNS1123Label(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// QualifiedName is ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
func QualifiedName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !alnum(c) && (c != '-' && c != '_' && c != '.' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// LabelValue is (QualifiedName)?
func LabelValue(s string) bool { return s == "" || QualifiedName(s) }
