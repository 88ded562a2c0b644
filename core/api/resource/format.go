package resource

import (
	"math/big"
	"strconv"
	"strings"
)

// String is the canonical form upstream prints: no fractional digits, the
// largest exponent (or suffix) that loses nothing, a multiple of 3 for
// decimal forms ("1.5" → "1500m", "1.5Gi" → "1536Mi", "1000m" → "1").
// BinarySI values under 1024 in magnitude, or not whole, print as DecimalSI;
// an unset Format prints as DecimalExponent.
func (q Quantity) String() string {
	if q.IsZero() {
		return "0"
	}
	format := q.Format
	switch format {
	case DecimalSI, DecimalExponent:
	case BinarySI:
		if q.CmpInt64(-1024) > 0 && q.CmpInt64(1024) < 0 {
			format = DecimalSI
		} else if v, exact := q.rescale(0); exact {
			return binaryString(v)
		} else {
			format = DecimalSI
		}
	default:
		format = DecimalExponent
	}
	return q.decimalString(format)
}

// decimalString writes mantissa and power-of-ten suffix.
func (q Quantity) decimalString(format Format) string {
	digits := q.absDigits()
	trimmed := strings.TrimRight(digits, "0")
	exponent := int64(q.scale) + int64(len(digits)-len(trimmed))
	// Lower the exponent to a multiple of 3, growing the mantissa.
	pad := (exponent%3 + 3) % 3
	exponent -= pad
	var b strings.Builder
	if q.Sign() < 0 {
		b.WriteByte('-')
	}
	b.WriteString(trimmed)
	b.WriteString("00"[:pad])
	if format == DecimalSI && exponent >= -9 && exponent <= 18 {
		b.WriteString(decimalSuffixes[(exponent+9)/3])
	} else if exponent != 0 {
		// DecimalExponent, or DecimalSI beyond its suffixes (newer upstream
		// falls back the same way rather than dropping the exponent).
		b.WriteByte('e')
		b.WriteString(strconv.FormatInt(exponent, 10))
	}
	return b.String()
}

// decimalSuffixes are the DecimalSI suffixes for 10^-9 … 10^18 in steps of 10^3.
var decimalSuffixes = [...]string{"n", "u", "m", "", "k", "M", "G", "T", "P", "E"}

// binarySuffixes are the BinarySI suffixes for 1024^0 … 1024^6.
var binarySuffixes = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// binaryString writes the integer v with the largest power-of-1024 suffix
// that divides it.
func binaryString(v *big.Int) string {
	k := 0
	if v.IsInt64() {
		n := v.Int64()
		for k < len(binarySuffixes)-1 && n%1024 == 0 {
			n /= 1024
			k++
		}
		return strconv.FormatInt(n, 10) + binarySuffixes[k]
	}
	m, r := new(big.Int), new(big.Int)
	d := big.NewInt(1024)
	for k < len(binarySuffixes)-1 {
		m.QuoRem(v, d, r)
		if r.Sign() != 0 {
			break
		}
		v, m = m, v
		k++
	}
	return v.String() + binarySuffixes[k]
}
