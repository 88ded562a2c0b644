package validation

import (
	"fmt"
	"net"
	"strings"

	"kubeplay/core/api/namefmt"
)

// String formats and their messages, worded as apimachinery's
// util/validation prints them: a learner's typo in a name or label gets the
// same sentence a real cluster gives.

const (
	qnameCharFmt        = "[A-Za-z0-9]"
	qnameExtCharFmt     = "[-A-Za-z0-9_.]"
	qualifiedNameFmt    = "(" + qnameCharFmt + qnameExtCharFmt + "*)?" + qnameCharFmt
	qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	qualifiedNameMaxLen = 63

	labelValueFmt    = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMaxLen = 63

	dns1123LabelFmt    = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123LabelMaxLen = 63

	dns1123SubdomainFmt    = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1123SubdomainMaxLen = 253

	dns1035LabelFmt    = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	dns1035LabelMaxLen = 63

	configMapKeyFmt    = `[-._a-zA-Z0-9]+`
	configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"

	envVarNameFmt    = "[-._a-zA-Z][-._a-zA-Z0-9]*"
	envVarNameErrMsg = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit"

	httpHeaderNameFmt    = "[-A-Za-z0-9]+"
	httpHeaderNameErrMsg = "a valid HTTP header must consist of alphanumeric characters or '-'"

	percentFmt    = "[0-9]+%"
	percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'"

	cIdentifierFmt    = "[A-Za-z_][A-Za-z0-9_]*"
	cIdentifierErrMsg = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'"
)

// regexError words a format mismatch with examples, as upstream does.
func regexError(msg, format string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + format + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

func emptyError() string { return "must be non-empty" }

// InclusiveRangeError is "must be between lo and hi, inclusive".
func InclusiveRangeError(lo, hi int) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

// IsQualifiedName checks a label key or annotation key: an optional DNS
// subdomain prefix and '/', then a name of at most 63 characters.
func IsQualifiedName(value string) []string {
	var errs []string
	var name string
	switch strings.Count(value, "/") {
	case 0:
		name = value
	case 1:
		var prefix string
		prefix, name, _ = strings.Cut(value, "/")
		if prefix == "" {
			errs = append(errs, "prefix part "+emptyError())
		} else if msgs := IsDNS1123Subdomain(prefix); len(msgs) != 0 {
			for _, m := range msgs {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a qualified name "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part "+emptyError())
	} else if len(name) > qualifiedNameMaxLen {
		errs = append(errs, "name part "+maxLenError(qualifiedNameMaxLen))
	}
	if !namefmt.QualifiedName(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value: empty, or a name of at most 63
// characters.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > labelValueMaxLen {
		errs = append(errs, maxLenError(labelValueMaxLen))
	}
	if !namefmt.LabelValue(value) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsDNS1123Label checks an RFC 1123 label (namespace names, container names).
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > dns1123LabelMaxLen {
		errs = append(errs, maxLenError(dns1123LabelMaxLen))
	}
	if !namefmt.DNS1123Label(value) {
		if namefmt.DNS1123Subdomain(value) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsDNS1123Subdomain checks an RFC 1123 subdomain (most object names).
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > dns1123SubdomainMaxLen {
		errs = append(errs, maxLenError(dns1123SubdomainMaxLen))
	}
	if !namefmt.DNS1123Subdomain(value) {
		errs = append(errs, regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1035Label checks an RFC 1035 label (Service names).
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > dns1035LabelMaxLen {
		errs = append(errs, maxLenError(dns1035LabelMaxLen))
	}
	if !namefmt.DNS1035Label(value) {
		errs = append(errs, regexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsConfigMapKey checks a ConfigMap or Secret data key.
func IsConfigMapKey(value string) []string {
	var errs []string
	if len(value) > dns1123SubdomainMaxLen {
		errs = append(errs, maxLenError(dns1123SubdomainMaxLen))
	}
	if !namefmt.ConfigMapKey(value) {
		errs = append(errs, regexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	return append(errs, hasChDirPrefix(value)...)
}

// IsEnvVarName checks an environment variable name.
func IsEnvVarName(value string) []string {
	var errs []string
	if !namefmt.EnvVarName(value) {
		errs = append(errs, regexError(envVarNameErrMsg, envVarNameFmt, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
	}
	return append(errs, hasChDirPrefix(value)...)
}

func hasChDirPrefix(value string) []string {
	switch {
	case value == ".":
		return []string{`must not be '.'`}
	case value == "..":
		return []string{`must not be '..'`}
	case strings.HasPrefix(value, ".."):
		return []string{`must not start with '..'`}
	}
	return nil
}

// IsValidPortNum checks 1-65535.
func IsValidPortNum(port int) []string {
	if 1 <= port && port <= 65535 {
		return nil
	}
	return []string{InclusiveRangeError(1, 65535)}
}

// IsInRange checks lo <= value <= hi.
func IsInRange(value, lo, hi int) []string {
	if value >= lo && value <= hi {
		return nil
	}
	return []string{InclusiveRangeError(lo, hi)}
}

// IsValidPortName checks an IANA service name (a named port).
func IsValidPortName(port string) []string {
	var errs []string
	if len(port) > 15 {
		errs = append(errs, maxLenError(15))
	}
	if !namefmt.PortNameChars(port) {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !namefmt.HasLowerLetter(port) {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(port, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(port) > 0 && (port[0] == '-' || port[len(port)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// IsValidPercent checks "25%".
func IsValidPercent(percent string) []string {
	if !namefmt.Percent(percent) {
		return []string{regexError(percentErrMsg, percentFmt, "1%", "93%")}
	}
	return nil
}

// IsHTTPHeaderName checks an HTTP header name.
func IsHTTPHeaderName(value string) []string {
	if !namefmt.HTTPHeaderName(value) {
		return []string{regexError(httpHeaderNameErrMsg, httpHeaderNameFmt, "X-Header-Name")}
	}
	return nil
}

// IsCIdentifier checks a C identifier.
func IsCIdentifier(value string) []string {
	if !namefmt.CIdentifier(value) {
		return []string{regexError(cIdentifierErrMsg, cIdentifierFmt, "my_name", "MY_NAME", "MyName")}
	}
	return nil
}

// IsValidUserID and IsValidGroupID check 0..2^31-1.
func IsValidUserID(uid int64) []string {
	if 0 <= uid && uid <= 1<<31-1 {
		return nil
	}
	return []string{InclusiveRangeError(0, 1<<31-1)}
}

// IsValidGroupID checks 0..2^31-1.
func IsValidGroupID(gid int64) []string { return IsValidUserID(gid) }

// parseIPSloppy accepts what upstream's ParseIPSloppy does: IPv4 octets with
// leading zeros are allowed (read as decimal).
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if strings.Count(s, ".") != 3 || strings.Contains(s, ":") {
		return nil
	}
	parts := strings.Split(s, ".")
	b := make([]byte, 4)
	for i, p := range parts {
		if p == "" || len(p) > 3 {
			return nil
		}
		n := 0
		for _, c := range p {
			if c < '0' || c > '9' {
				return nil
			}
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return nil
		}
		b[i] = byte(n)
	}
	return net.IPv4(b[0], b[1], b[2], b[3])
}

func isValidIP(s string) bool { return parseIPSloppy(s) != nil }

func isValidCIDR(s string) bool {
	i := strings.IndexByte(s, '/')
	if i < 0 {
		return false
	}
	ip := parseIPSloppy(s[:i])
	if ip == nil {
		return false
	}
	bits := 32
	if ip.To4() == nil {
		bits = 128
	}
	n := 0
	digits := s[i+1:]
	if digits == "" || len(digits) > 3 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= bits
}

const relaxedEnvVarNameErrMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='"

// IsRelaxedEnvVarName is v1.32's rule for env names (the
// RelaxedEnvironmentVariableValidation gate is on by default there).
func IsRelaxedEnvVarName(value string) []string {
	var errs []string
	if value == "" {
		errs = append(errs, "environment variable name "+emptyError())
	}
	for _, r := range value {
		if r > 0x7f || r < 0x20 || r == 0x7f || r == '=' {
			errs = append(errs, relaxedEnvVarNameErrMsg)
			break
		}
	}
	return errs
}
