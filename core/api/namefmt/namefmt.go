// Package namefmt matches the name formats every object the cluster
// creates is checked against (apimachinery's util/validation expressions
// for RFC 1123 labels and subdomains, qualified names and label values,
// and the simpler ones: DNS-1035 labels, config keys, environment variable
// names, port names, ...) by scanning the bytes instead of running a
// regular expression: they run for every write, the page's start
// included, where compiling and running the regexp engine costs more than
// the check. namefmt_test.go holds each to
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

func lowerAlpha(c byte) bool { return 'a' <= c && c <= 'z' }

func alpha(c byte) bool { return lowerAlpha(c) || 'A' <= c && c <= 'Z' }

func digit(c byte) bool { return '0' <= c && c <= '9' }

// DNS1035Label is [a-z]([-a-z0-9]*[a-z0-9])?
func DNS1035Label(s string) bool { return s != "" && lowerAlpha(s[0]) && DNS1123Label(s) }

// every says s is not empty and each of its bytes is ok.
func every(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// ConfigMapKey is [-._a-zA-Z0-9]+
func ConfigMapKey(s string) bool {
	return every(s, func(c byte) bool { return alnum(c) || c == '-' || c == '.' || c == '_' })
}

// EnvVarName is [-._a-zA-Z][-._a-zA-Z0-9]*
func EnvVarName(s string) bool { return ConfigMapKey(s) && !digit(s[0]) }

// HTTPHeaderName is [-A-Za-z0-9]+
func HTTPHeaderName(s string) bool {
	return every(s, func(c byte) bool { return alnum(c) || c == '-' })
}

// Percent is [0-9]+%
func Percent(s string) bool {
	return len(s) >= 2 && s[len(s)-1] == '%' && every(s[:len(s)-1], digit)
}

// CIdentifier is [A-Za-z_][A-Za-z0-9_]*
func CIdentifier(s string) bool {
	return every(s, func(c byte) bool { return alnum(c) || c == '_' }) && !digit(s[0])
}

// PortNameChars is [-a-z0-9]+
func PortNameChars(s string) bool {
	return every(s, func(c byte) bool { return lowerAlnum(c) || c == '-' })
}

// HasLowerLetter is an unanchored [a-z].
func HasLowerLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if lowerAlpha(s[i]) {
			return true
		}
	}
	return false
}
