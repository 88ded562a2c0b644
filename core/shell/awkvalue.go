package shell

import (
	"math"
	"strconv"
	"strings"
)

// awk's values: numbers, strings, "strnums" (input that looks numeric,
// compared as a number but printed as typed) and the uninitialized value,
// which is both "" and 0.

const (
	akUninit uint8 = iota
	akNum
	akStr
	akStrnum
)

type awkValue struct {
	kind uint8
	n    float64
	s    string
}

func awkNum(n float64) awkValue { return awkValue{kind: akNum, n: n} }
func awkStr(s string) awkValue  { return awkValue{kind: akStr, s: s} }

// awkInput makes a value from input text: a strnum when it looks numeric.
func awkInput(s string) awkValue {
	if n, ok := looksNumeric(s); ok {
		return awkValue{kind: akStrnum, n: n, s: s}
	}
	return awkValue{kind: akStr, s: s}
}

func awkBool(b bool) awkValue {
	if b {
		return awkNum(1)
	}
	return awkNum(0)
}

// strtod reads the longest numeric prefix of s as C's strtod would
// (decimal only; gawk also takes "+inf" and "-nan" with their sign).
func strtod(s string) (float64, int) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v') {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
		rest := strings.ToLower(s[i:min(len(s), i+3)])
		if rest == "inf" || rest == "nan" {
			v := math.Inf(1)
			if rest == "nan" {
				v = math.NaN()
			}
			if s[start] == '-' {
				v = -v
			}
			return v, i + 3
		}
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil {
		// Out of range: ParseFloat still returns ±Inf or 0, as strtod does.
		return v, i
	}
	return v, i
}

// looksNumeric reports whether all of s (but surrounding blanks) is a number.
func looksNumeric(s string) (float64, bool) {
	v, n := strtod(s)
	if n == 0 {
		return 0, false
	}
	for _, c := range []byte(s[n:]) {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			return 0, false
		}
	}
	return v, true
}

func (v awkValue) num() float64 {
	switch v.kind {
	case akNum, akStrnum:
		return v.n
	case akStr:
		n, _ := strtod(v.s)
		return n
	}
	return 0
}

func (v awkValue) truth() bool {
	switch v.kind {
	case akNum, akStrnum:
		// A strnum is true when its numeric value is non-zero.
		return v.n != 0
	case akStr:
		return v.s != ""
	}
	return false
}

// isNumeric: compared as a number (numbers, strnums, uninitialized).
func (v awkValue) isNumeric() bool { return v.kind != akStr }

// awkNumString formats a number as awk does: integral values as integers,
// others through the format (CONVFMT or OFMT).
func (in *awkInterp) numString(n float64, format string) string {
	if math.IsNaN(n) {
		if math.Signbit(n) {
			return "-nan"
		}
		return "-nan"
	}
	if math.IsInf(n, 1) {
		return "+inf"
	}
	if math.IsInf(n, -1) {
		return "-inf"
	}
	if n == math.Trunc(n) {
		if n == 0 {
			return "0"
		}
		if math.Abs(n) < 1e18 {
			return strconv.FormatInt(int64(n), 10)
		}
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	if format == "%.6g" {
		return strconv.FormatFloat(n, 'g', 6, 64)
	}
	return in.sprintf(format, []awkValue{awkNum(n)})
}

func (in *awkInterp) str(v awkValue) string {
	switch v.kind {
	case akStr, akStrnum:
		return v.s
	case akNum:
		return in.numString(v.n, in.globals[avCONVFMT].v.s)
	}
	return ""
}

// outStr is str for output, where numbers use OFMT.
func (in *awkInterp) outStr(v awkValue) string {
	if v.kind == akNum {
		return in.numString(v.n, in.globals[avOFMT].v.s)
	}
	return in.str(v)
}

// compare orders two values: numerically when both are numeric, else as strings.
func (in *awkInterp) compare(a, b awkValue) int {
	if a.isNumeric() && b.isNumeric() {
		x, y := a.num(), b.num()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		case x == y:
			return 0
		}
		// NaN: unordered; gawk sorts it as greater.
		if math.IsNaN(x) {
			return 1
		}
		return -1
	}
	return strings.Compare(in.str(a), in.str(b))
}
