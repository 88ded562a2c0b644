package resource

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		format   Format
	}{
		{"0", "0", DecimalSI},
		{"0Mi", "0", BinarySI},
		{"-0", "0", DecimalSI},
		{"00.000", "0", DecimalSI},
		{"1", "1", DecimalSI},
		{"1000", "1k", DecimalSI},
		{"1024", "1024", DecimalSI},
		{"0.5", "500m", DecimalSI},
		{"1.5", "1500m", DecimalSI},
		{"1000m", "1", DecimalSI},
		{"100m", "100m", DecimalSI},
		{"0.1", "100m", DecimalSI},
		{".001", "1m", DecimalSI},
		{"1.", "1", DecimalSI},
		{"1.G", "1G", DecimalSI},
		{"+5", "5", DecimalSI},
		{"-250m", "-250m", DecimalSI},
		{"50k", "50k", DecimalSI},
		{"100.035k", "100035", DecimalSI},
		{"10.035M", "10035k", DecimalSI},
		{"1E", "1E", DecimalSI},
		{"12E", "12E", DecimalSI},
		{"1000E", "1e21", DecimalSI},
		{"3.001n", "4n", DecimalSI},
		{"0.0000000001", "1n", DecimalSI},
		{"0.9n", "1n", DecimalSI},
		{"-0.9n", "-1n", DecimalSI},
		{"0.00000012345", "124n", DecimalSI},
		{"1e-20", "1e-9", DecimalExponent},
		{"2Gi", "2Gi", BinarySI},
		{"1.5Gi", "1536Mi", BinarySI},
		{"1024Mi", "1Gi", BinarySI},
		{"1Ki", "1Ki", BinarySI},
		{"100Ki", "100Ki", BinarySI},
		{"3Ei", "3Ei", BinarySI},
		{"9Ei", "9223372036854775807", BinarySI},
		{"0.5Ki", "512", BinarySI},
		{"0.5Mi", "512Ki", BinarySI},
		{"100.035Ki", "102435840m", BinarySI},
		{".001Ki", "1024m", BinarySI},
		{".000000000001Ki", "2n", DecimalSI},
		{"1e3", "1e3", DecimalExponent},
		{"1E6", "1e6", DecimalExponent},
		{"1.5e3", "1500", DecimalExponent},
		{"1.3E+6", "1300e3", DecimalExponent},
		{"1E-3", "1e-3", DecimalExponent},
		{"0.5e-2", "5e-3", DecimalExponent},
		{"12345678901234567890", "12345678901234567890", DecimalSI},
		{"123456789012345678900000", "123456789012345678900k", DecimalSI},
		{"-12345678901234567890m", "-12345678901234567890m", DecimalSI},
		{"1e100", "10e99", DecimalExponent},
	} {
		q, err := ParseQuantity(tc.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tc.in, err)
			continue
		}
		if got := q.String(); got != tc.want {
			t.Errorf("ParseQuantity(%q).String() = %q, want %q", tc.in, got, tc.want)
		}
		if q.Format != tc.format {
			t.Errorf("ParseQuantity(%q).Format = %q, want %q", tc.in, q.Format, tc.format)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"", ErrFormatWrong},
		{"aoeu", ErrFormatWrong},
		{"1.1.M", ErrFormatWrong},
		{"1+1.0M", ErrFormatWrong},
		{" 1", ErrFormatWrong},
		{"1 ", ErrFormatWrong},
		{"1e3i", ErrFormatWrong},
		{"1x", ErrFormatWrong},
		{"0.1mi", ErrSuffix},
		{"0.1am", ErrFormatWrong},
		{".5i", ErrSuffix},
		{"1i", ErrSuffix},
		{"-3.01e-", ErrSuffix},
		{"1e", ErrSuffix},
		{"1KI", ErrFormatWrong}, {"1kI", ErrFormatWrong}, {"1iK", ErrSuffix},
		{"1-", ErrSuffix},
		{"1e99999999999999999999", ErrSuffix},
		{"1e5000", ErrNumeric},
	} {
		_, err := ParseQuantity(tc.in)
		if err != tc.want {
			t.Errorf("ParseQuantity(%q) error = %v, want %v", tc.in, err, tc.want)
		}
	}
	want := "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
	if ErrFormatWrong.Error() != want {
		t.Errorf("ErrFormatWrong = %q", ErrFormatWrong)
	}
}

func TestMustParsePanicsOnBadLiteral(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(error).Error(), "cannot parse 'x'") {
			t.Errorf("recover() = %v", r)
		}
	}()
	MustParse("x")
}

func TestZeroValueIsUsable(t *testing.T) {
	var q Quantity
	if !q.IsZero() || q.Sign() != 0 || q.String() != "0" || q.Value() != 0 || q.AsApproximateFloat64() != 0 {
		t.Errorf("zero value misbehaves: %q", q.String())
	}
	q.Add(MustParse("2Gi"))
	if q.String() != "2Gi" {
		t.Errorf("zero + 2Gi = %q, want the addend's format", q.String())
	}
}

func TestCmp(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1", "1000m", 0},
		{"1Ki", "1024", 0},
		{"1k", "1Ki", -1},
		{"2", "1999m", 1},
		{"-1", "1", -1},
		{"0", "-0", 0},
		{"1n", "0", 1},
		{"99999999999999999999", "1", 1},
		{"99999999999999999999", "99999999999999999999000m", 0},
		{"-99999999999999999999", "-1e30", 1},
		{"1e100", "1e99", 1},
		{"9223372036854775807", "9223372036854775808", -1},
	} {
		if got := MustParse(tc.a).Cmp(MustParse(tc.b)); got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := MustParse(tc.b).Cmp(MustParse(tc.a)); got != -tc.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}

func TestScaledValues(t *testing.T) {
	for _, tc := range []struct {
		in           string
		value, milli int64
	}{
		{"0", 0, 0},
		{"1", 1, 1000},
		{"100m", 1, 100},
		{"1500m", 2, 1500},
		{"-1500m", -2, -1500},
		{"1n", 1, 1},
		{"-1n", -1, -1},
		{"2Gi", 2147483648, 2147483648000},
		{"1.5", 2, 1500},
		{"9223372036854775807", math.MaxInt64, math.MaxInt64},
		{"1e30", math.MaxInt64, math.MaxInt64},
		{"-1e30", math.MinInt64, math.MinInt64},
	} {
		q := MustParse(tc.in)
		if got := q.Value(); got != tc.value {
			t.Errorf("%s.Value() = %d, want %d", tc.in, got, tc.value)
		}
		if got := q.MilliValue(); got != tc.milli {
			t.Errorf("%s.MilliValue() = %d, want %d", tc.in, got, tc.milli)
		}
	}
	if got := MustParse("1500Mi").ScaledValue(Mega); got != 1573 {
		t.Errorf("ScaledValue(Mega) = %d, want 1573", got)
	}
	if got := NewQuantity(1, DecimalSI).ScaledValue(Milli); got != 1000 {
		t.Errorf("ScaledValue(Milli) = %d", got)
	}
}

func TestAddSub(t *testing.T) {
	for _, tc := range []struct {
		a, b, sum, diff string
	}{
		{"100m", "200m", "300m", "-100m"},
		{"1", "500m", "1500m", "500m"},
		{"1Gi", "512Mi", "1536Mi", "512Mi"},
		{"9223372036854775807", "1", "9223372036854775808", "9223372036854775806"},
		{"-9223372036854775807", "2", "-9223372036854775805", "-9223372036854775809"},
		{"1e100", "1", "10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001", "9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999"},
	} {
		q := MustParse(tc.a)
		q.Add(MustParse(tc.b))
		if !q.Equal(MustParse(tc.sum)) {
			t.Errorf("%s + %s = %s, want %s", tc.a, tc.b, q.String(), tc.sum)
		}
		q = MustParse(tc.a)
		q.Sub(MustParse(tc.b))
		if !q.Equal(MustParse(tc.diff)) {
			t.Errorf("%s - %s = %s, want %s", tc.a, tc.b, q.String(), tc.diff)
		}
		q.Add(MustParse(tc.b))
		if !q.Equal(MustParse(tc.a)) {
			t.Errorf("%s - %s + %s = %s", tc.a, tc.b, tc.b, q.String())
		}
	}
	var q Quantity
	q.Sub(MustParse("1Gi"))
	if q.String() != "-1Gi" {
		t.Errorf("0 - 1Gi = %q", q.String())
	}
	q = *NewQuantity(math.MinInt64, DecimalSI)
	q.Neg()
	if q.String() != "9223372036854775808" {
		t.Errorf("-MinInt64 = %q", q.String())
	}
}

func TestConstructors(t *testing.T) {
	for _, tc := range []struct {
		q    *Quantity
		want string
	}{
		{NewQuantity(5, DecimalSI), "5"},
		{NewQuantity(1024, BinarySI), "1Ki"},
		{NewQuantity(1000, DecimalExponent), "1e3"},
		{NewQuantity(3000, ""), "3e3"},
		{NewMilliQuantity(1500, DecimalSI), "1500m"},
		{NewMilliQuantity(500, BinarySI), "500m"},
		{NewMilliQuantity(2048000, BinarySI), "2Ki"},
		{NewMilliQuantity(1234567, BinarySI), "1234567m"},
		{NewScaledQuantity(5, Giga), "5G"},
		{NewScaledQuantity(1, -12), "1e-12"},
	} {
		if got := tc.q.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	q := MustParse("1Gi")
	q.SetMilli(1500)
	if q.String() != "1500m" {
		t.Errorf("SetMilli: %q", q.String())
	}
	q.Set(2048)
	if q.String() != "2Ki" {
		t.Errorf("Set: %q", q.String())
	}
	if !q.Mul(3) || q.String() != "6Ki" {
		t.Errorf("Mul: %q", q.String())
	}
}

func TestRoundUpAndAsInt64(t *testing.T) {
	q := MustParse("1234m")
	if exact := q.RoundUp(0); exact || q.String() != "2" {
		t.Errorf("RoundUp(0) = %v, %q", exact, q.String())
	}
	if v, ok := MustParse("2k").AsInt64(); !ok || v != 2000 {
		t.Errorf("AsInt64(2k) = %d, %v", v, ok)
	}
	if _, ok := MustParse("1500m").AsInt64(); ok {
		t.Error("AsInt64(1500m) claimed exact")
	}
}

func TestAsApproximateFloat64(t *testing.T) {
	for in, want := range map[string]float64{
		"0": 0, "1500m": 1.5, "2Gi": 2147483648, "-1e3": -1000, "1e100": 1e100, "99999999999999999999": 1e20,
	} {
		if got := MustParse(in).AsApproximateFloat64(); math.Abs(got-want) > math.Abs(want)*1e-12 {
			t.Errorf("%s → %v, want %v", in, got, want)
		}
	}
}

func TestJSON(t *testing.T) {
	type holder struct {
		Q  Quantity  `json:"q"`
		P  *Quantity `json:"p,omitempty"`
		Rs map[string]Quantity
	}
	for _, tc := range []struct{ in, want string }{
		{`{"q":"1.5Gi"}`, `{"q":"1536Mi","Rs":null}`},
		{`{"q":2}`, `{"q":"2","Rs":null}`},
		{`{"q":0.5}`, `{"q":"500m","Rs":null}`},
		{`{"q":1e3}`, `{"q":"1e3","Rs":null}`},
		{`{"q":" 100m "}`, `{"q":"100m","Rs":null}`},
		{`{"q":null,"p":"1k"}`, `{"q":"0","p":"1k","Rs":null}`},
		{`{"q":"0","Rs":{"cpu":"250m","memory":"64Mi"}}`, `{"q":"0","Rs":{"cpu":"250m","memory":"64Mi"}}`},
	} {
		var h holder
		if err := json.Unmarshal([]byte(tc.in), &h); err != nil {
			t.Errorf("Unmarshal(%s): %v", tc.in, err)
			continue
		}
		out, _ := json.Marshal(h)
		if string(out) != tc.want {
			t.Errorf("%s → %s, want %s", tc.in, out, tc.want)
		}
	}
	for _, in := range []string{`{"q":"abc"}`, `{"q":true}`, `{"q":{}}`, `{"q":"1.5Gx"}`, `{"q":[]}`} {
		var h holder
		if err := json.Unmarshal([]byte(in), &h); err == nil {
			t.Errorf("Unmarshal(%s) accepted", in)
		}
	}
}

func TestAssignmentIsDeepCopy(t *testing.T) {
	a := MustParse("123456789012345678901234567890")
	b := a
	b.Add(MustParse("1"))
	if a.String() != "123456789012345678901234567890" {
		t.Errorf("original changed to %s", a.String())
	}
}
