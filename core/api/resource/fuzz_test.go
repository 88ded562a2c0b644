package resource

import "testing"

// FuzzParseQuantity: parsing never panics, and the canonical form parses back
// to the same value and prints the same again.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{
		"0", "1", "100m", "1.5", "2Gi", "1.5Gi", "0.5Ki", "1e3", "1E-3", "-1.5e-12",
		"12345678901234567890", ".", "-", "+.e5", "1.G", "9Ei", "1e4096", "0.000000000001Ki",
		"1000E", "1e-99999", "abc", "1x", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			return
		}
		out := q.String()
		back, err := ParseQuantity(out)
		if err != nil {
			t.Fatalf("%q → %q does not parse: %v", s, out, err)
		}
		if back.Cmp(q) != 0 {
			t.Fatalf("%q → %q → %q changed value", s, out, back.String())
		}
		if again := back.String(); again != out {
			t.Fatalf("%q → %q → %q not stable", s, out, again)
		}
		_ = q.Value()
		_ = q.MilliValue()
		_ = q.AsApproximateFloat64()
	})
}
