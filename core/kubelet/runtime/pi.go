package runtime

import (
	"math/big"
	"strings"
)

// Pi returns π to n significant digits, rounded to nearest, as Perl's
// Math::BigFloat bpi(n) prints it ("3.14…"). Machin's formula over
// fixed-point integers with guard digits.
func Pi(n int) string {
	if n < 1 {
		n = 1
	}
	guard := 10
	digits := n + guard
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	// π·10^digits = 16·atan(1/5) − 4·atan(1/239)
	a := arctanInv(5, unit)
	b := arctanInv(239, unit)
	pi := new(big.Int).Mul(a, big.NewInt(16))
	pi.Sub(pi, new(big.Int).Mul(b, big.NewInt(4)))
	// Keep n significant digits (one before the point), rounding half up.
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(guard+1)), nil)
	half := new(big.Int).Div(scale, big.NewInt(2))
	pi.Add(pi, half)
	pi.Div(pi, scale)
	s := pi.String()
	if n == 1 {
		return s[:1]
	}
	return s[:1] + "." + s[1:]
}

// arctanInv returns atan(1/x)·unit by its Taylor series.
func arctanInv(x int64, unit *big.Int) *big.Int {
	sum := new(big.Int)
	term := new(big.Int).Div(unit, big.NewInt(x))
	x2 := big.NewInt(x * x)
	t := new(big.Int)
	for k := int64(0); term.Sign() != 0; k++ {
		t.Div(term, big.NewInt(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		term.Div(term, x2)
	}
	return sum
}

// trimZeros is used by callers that print decimal values without
// trailing zeros.
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
