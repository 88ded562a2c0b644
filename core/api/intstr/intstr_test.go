package intstr

import (
	"encoding/json"
	"testing"
)

func TestGetScaledValueFromIntOrPercent(t *testing.T) {
	for _, tc := range []struct {
		v       IntOrString
		total   int
		roundUp bool
		want    int
		err     string
	}{
		{FromInt(3), 10, true, 3, ""},
		{FromInt32(-1), 10, false, -1, ""},
		{FromString("25%"), 10, true, 3, ""},
		{FromString("25%"), 10, false, 2, ""},
		{FromString("25%"), 4, false, 1, ""},
		{FromString("0%"), 10, true, 0, ""},
		{FromString("100%"), 7, false, 7, ""},
		{FromString("33%"), 3, true, 1, ""},
		{FromString("33%"), 3, false, 0, ""},
		{FromString("5"), 10, true, 0, "invalid value for IntOrString: invalid type: string is not a percentage"},
		{FromString("x%"), 10, true, 0, `invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax`},
		{FromString("%"), 10, true, 0, `invalid value for IntOrString: invalid value "%": strconv.Atoi: parsing "": invalid syntax`},
		{IntOrString{Type: 7}, 10, true, 0, "invalid value for IntOrString: invalid type: neither int nor percentage"},
	} {
		v := tc.v
		got, err := GetScaledValueFromIntOrPercent(&v, tc.total, tc.roundUp)
		if got != tc.want || errString(err) != tc.err {
			t.Errorf("GetScaledValueFromIntOrPercent(%v, %d, %v) = %d, %q; want %d, %q", tc.v, tc.total, tc.roundUp, got, errString(err), tc.want, tc.err)
		}
	}
	if _, err := GetScaledValueFromIntOrPercent(nil, 1, true); errString(err) != "nil value for IntOrString" {
		t.Errorf("nil: %v", err)
	}
}

func TestGetValueFromIntOrPercent(t *testing.T) {
	for _, tc := range []struct {
		v    IntOrString
		want int
		err  string
	}{
		{FromInt(5), 5, ""},
		{FromString("50%"), 5, ""},
		{FromString("50"), 5, ""}, // lenient: a bare number string is a percentage
		{FromString("5%0"), 5, ""},
		{FromString("abc"), 0, `invalid value for IntOrString: invalid value "abc": strconv.Atoi: parsing "abc": invalid syntax`},
	} {
		v := tc.v
		got, err := GetValueFromIntOrPercent(&v, 10, true)
		if got != tc.want || errString(err) != tc.err {
			t.Errorf("GetValueFromIntOrPercent(%v) = %d, %q; want %d, %q", tc.v, got, errString(err), tc.want, tc.err)
		}
	}
}

func TestParseAndIntValue(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     IntOrString
		intValue int
	}{
		{"8080", FromInt32(8080), 8080},
		{"-3", FromInt32(-3), -3},
		{"http", FromString("http"), 0},
		{"25%", FromString("25%"), 0},
		{"2147483648", FromString("2147483648"), 2147483648},
		{"", FromString(""), 0},
	} {
		got := Parse(tc.in)
		if got != tc.want {
			t.Errorf("Parse(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
		if got.IntValue() != tc.intValue {
			t.Errorf("Parse(%q).IntValue() = %d, want %d", tc.in, got.IntValue(), tc.intValue)
		}
		if got.String() != tc.in {
			t.Errorf("Parse(%q).String() = %q", tc.in, got.String())
		}
	}
}

func TestValueOrDefault(t *testing.T) {
	if got := ValueOrDefault(nil, FromString("25%")); *got != FromString("25%") {
		t.Errorf("nil → %v", got)
	}
	v := FromInt(1)
	if got := ValueOrDefault(&v, FromString("25%")); got != &v {
		t.Error("set value replaced")
	}
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{`3`, `3`}, {`"25%"`, `"25%"`}, {`"3"`, `"3"`},
	} {
		var v IntOrString
		if err := json.Unmarshal([]byte(tc.in), &v); err != nil {
			t.Errorf("Unmarshal(%s): %v", tc.in, err)
			continue
		}
		if b, _ := json.Marshal(v); string(b) != tc.out {
			t.Errorf("%s → %s", tc.in, b)
		}
	}
	for _, in := range []string{`1.5`, `true`, `{}`, `99999999999`} {
		var v IntOrString
		if err := json.Unmarshal([]byte(in), &v); err == nil {
			t.Errorf("Unmarshal(%s) accepted", in)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
