package resource

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// splitREString is upstream's description of a quantity, quoted in ErrFormatWrong.
const splitREString = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"

// Errors of ParseQuantity, worded as upstream's.
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '" + splitREString + "'")
	ErrNumeric     = errors.New("unable to parse numeric part of quantity")
	ErrSuffix      = errors.New("unable to parse quantity's suffix")
)

// maxMagnitude bounds parsed values below 10^maxMagnitude so that a typed
// "1e999999999" cannot make the engine build an enormous number; upstream
// has no bound, and no resource amount comes near it.
const maxMagnitude = 1 << 12

// MustParse parses s or panics; for literals in code, never for user input.
func MustParse(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(fmt.Errorf("cannot parse '%v': %v", s, err))
	}
	return q
}

const suffixLetters = "eEinumkKMGTP"

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ParseQuantity reads a quantity such as "100m", "1.5Gi", "-2e3". Values are
// kept exactly, except that precision below 1n is rounded away from zero
// ("0.1n" is 1n) and BinarySI values are capped at 2^63-1, as upstream does.
func ParseQuantity(str string) (Quantity, error) {
	if str == "" {
		return Quantity{}, ErrFormatWrong
	}
	// Split into sign, integer digits, fraction digits and suffix with the
	// same permissive scanner as upstream; the suffix is checked after.
	i, end := 0, len(str)
	negative := false
	if str[0] == '+' || str[0] == '-' {
		negative = str[0] == '-'
		i++
	}
	start := i
	for i < end && isDigit(str[i]) {
		i++
	}
	num, denom := str[start:i], ""
	if i < end && str[i] == '.' {
		i++
		start = i
		for i < end && isDigit(str[i]) {
			i++
		}
		denom = str[start:i]
	}
	start = i
	for i < end && strings.IndexByte(suffixLetters, str[i]) >= 0 {
		i++
	}
	if i < end && (str[i] == '+' || str[i] == '-') {
		i++
	}
	for i < end && isDigit(str[i]) {
		i++
	}
	if i != end {
		return Quantity{}, ErrFormatWrong
	}
	base, exponent, format, ok := interpretSuffix(str[start:])
	if !ok {
		return Quantity{}, ErrSuffix
	}

	digits := strings.TrimLeft(num+denom, "0")
	if digits == "" {
		return Quantity{Format: format}, nil
	}
	var q Quantity
	var err error
	if base == 10 {
		q, err = parseDecimal(digits, exponent-int64(len(denom)))
	} else {
		q = parseBinary(digits, len(denom), exponent)
		if q.CmpInt64(1) < 0 { // below one, binary suffixes would only mislead
			format = DecimalSI
		}
	}
	if err != nil {
		return Quantity{}, err
	}
	q.Format = format
	if negative {
		q.Neg()
	}
	return q, nil
}

// parseDecimal makes digits × 10^scale (digits has no leading zero),
// rounding up to whole nanos.
func parseDecimal(digits string, scale int64) (Quantity, error) {
	n := int64(len(digits))
	if n+scale > maxMagnitude {
		return Quantity{}, ErrNumeric
	}
	if scale < int64(Nano) {
		drop := int64(Nano) - scale
		if drop >= n { // below 1n: round up to 1n
			return Quantity{unscaled: 1, scale: int32(Nano)}, nil
		}
		kept, rest := digits[:n-drop], digits[n-drop:]
		q := fromDigits(kept, int32(Nano))
		if strings.Trim(rest, "0") != "" {
			q.add(Quantity{unscaled: 1, scale: int32(Nano)})
		}
		return q, nil
	}
	return fromDigits(digits, int32(scale)), nil
}

// parseBinary makes digits / 10^fraction × 2^exponent, rounded up to whole
// nanos and capped at 2^63-1.
func parseBinary(digits string, fraction int, exponent int64) Quantity {
	if fraction == 0 && len(digits) <= 18 {
		if v, err := strconv.ParseInt(digits, 10, 64); err == nil && v <= math.MaxInt64>>exponent {
			return Quantity{unscaled: v << exponent}
		}
	}
	v, _ := new(big.Int).SetString(digits, 10)
	v.Lsh(v, uint(exponent))
	var q Quantity
	q.setBig(v, int32(-fraction))
	if fraction > -int(Nano) {
		q.RoundUp(Nano)
	}
	if q.CmpInt64(math.MaxInt64) > 0 {
		q = Quantity{unscaled: math.MaxInt64}
	}
	return q
}

// fromDigits makes the non-negative digits × 10^scale.
func fromDigits(digits string, scale int32) Quantity {
	if len(digits) <= 18 {
		v, _ := strconv.ParseInt(digits, 10, 64)
		return Quantity{unscaled: v, scale: scale}
	}
	v, _ := new(big.Int).SetString(digits, 10)
	var q Quantity
	q.setBig(v, scale)
	return q
}

// interpretSuffix maps a suffix to its base, exponent and format.
func interpretSuffix(s string) (base int, exponent int64, format Format, ok bool) {
	switch s {
	case "":
		return 10, 0, DecimalSI, true
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		return 2, 10 * int64(strings.IndexByte("KMGTPE", s[0])+1), BinarySI, true
	}
	if len(s) == 1 {
		if e, ok := decimalExponents[s[0]]; ok {
			return 10, e, DecimalSI, true
		}
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		e, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, DecimalExponent, false
		}
		// Beyond this any non-zero value is out of range or rounds to 1n;
		// clamping keeps exponent arithmetic from overflowing.
		e = max(min(e, 1<<40), -(1 << 40))
		return 10, e, DecimalExponent, true
	}
	return 0, 0, DecimalExponent, false
}

// decimalExponents are the one-letter DecimalSI suffixes.
var decimalExponents = map[byte]int64{
	'n': -9, 'u': -6, 'm': -3, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18,
}
