package namefmt

import (
	"math/rand"
	"regexp"
	"testing"
)

// Each matcher accepts exactly what its upstream expression accepts: every
// string of up to four characters over an alphabet that exercises the
// classes and edges, then random longer ones.
func TestMatchersAgreeWithTheirExpressions(t *testing.T) {
	label := "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	qualified := "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	cases := []struct {
		name  string
		re    *regexp.Regexp
		match func(string) bool
	}{
		{"DNS1123Label", regexp.MustCompile("^" + label + "$"), DNS1123Label},
		{"DNS1123Subdomain", regexp.MustCompile("^" + label + "(\\." + label + ")*$"), DNS1123Subdomain},
		{"QualifiedName", regexp.MustCompile("^" + qualified + "$"), QualifiedName},
		{"LabelValue", regexp.MustCompile("^(" + qualified + ")?$"), LabelValue},
		{"DNS1035Label", regexp.MustCompile("^[a-z]([-a-z0-9]*[a-z0-9])?$"), DNS1035Label},
		{"ConfigMapKey", regexp.MustCompile(`^[-._a-zA-Z0-9]+$`), ConfigMapKey},
		{"EnvVarName", regexp.MustCompile("^[-._a-zA-Z][-._a-zA-Z0-9]*$"), EnvVarName},
		{"HTTPHeaderName", regexp.MustCompile("^[-A-Za-z0-9]+$"), HTTPHeaderName},
		{"Percent", regexp.MustCompile("^[0-9]+%$"), Percent},
		{"CIdentifier", regexp.MustCompile("^[A-Za-z_][A-Za-z0-9_]*$"), CIdentifier},
		{"PortNameChars", regexp.MustCompile("^[-a-z0-9]+$"), PortNameChars},
		{"HasLowerLetter", regexp.MustCompile("[a-z]"), HasLowerLetter},
	}
	alphabet := []string{"a", "z", "Q", "0", "9", "-", "_", ".", "/", " ", "é", "\n", "%"}
	var inputs []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		b := make([]byte, 5+r.Intn(20))
		for j := range b {
			b[j] = "ab9-._Z%"[r.Intn(8)]
		}
		inputs = append(inputs, string(b))
	}
	for _, c := range cases {
		for _, in := range inputs {
			if got, want := c.match(in), c.re.MatchString(in); got != want {
				t.Errorf("%s(%q) = %v, the expression says %v", c.name, in, got, want)
			}
		}
	}
}
