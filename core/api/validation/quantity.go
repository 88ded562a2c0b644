package validation

import (
	"math/big"
	"strings"

	"kubeplay/core/api/resource"
)

// Quantities arrive as the text the user wrote; validation compares them
// (requests <= limits) and prints them in upstream's canonical form
// ("0.5" prints as "500m", "1024Mi" as "1Gi").

type qformat int

const (
	decimalSI qformat = iota
	binarySI
	decimalExponent
)

type quantity struct {
	v      *big.Rat
	format qformat
}

var decimalSuffixes = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
var binarySuffixes = map[string]int{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

// parseQuantity reads a quantity; ok is false for text upstream's parser
// rejects (the decoder reports those).
func parseQuantity(s string) (quantity, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return quantity{new(big.Rat), decimalSI}, true
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	start := i
	dots := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		if s[i] == '.' {
			dots++
		}
		i++
	}
	num, suffix := s[:i], s[i:]
	if i == start || dots > 1 || num[start:] == "." {
		return quantity{}, false
	}
	v, ok := new(big.Rat).SetString(strings.TrimPrefix(num, "+"))
	if !ok {
		return quantity{}, false
	}
	if e, ok := decimalSuffixes[suffix]; ok {
		return quantity{v.Mul(v, pow(10, e)), decimalSI}, true
	}
	if e, ok := binarySuffixes[suffix]; ok {
		return quantity{v.Mul(v, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))), binarySI}, true
	}
	if len(suffix) >= 2 && (suffix[0] == 'e' || suffix[0] == 'E') {
		exp := suffix[1:]
		neg := false
		if exp[0] == '+' || exp[0] == '-' {
			neg = exp[0] == '-'
			exp = exp[1:]
		}
		if exp == "" || len(exp) > 4 {
			return quantity{}, false
		}
		n := 0
		for _, c := range exp {
			if c < '0' || c > '9' {
				return quantity{}, false
			}
			n = n*10 + int(c-'0')
		}
		if neg {
			n = -n
		}
		return quantity{v.Mul(v, pow(10, n)), decimalExponent}, true
	}
	return quantity{}, false
}

func pow(base int64, exp int) *big.Rat {
	if exp >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(base), big.NewInt(int64(exp)), nil))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(base), big.NewInt(int64(-exp)), nil))
}

// q parses a resource.Quantity, treating unparseable text as zero.
func q(r resource.Quantity) quantity {
	p, ok := parseQuantity(r.String())
	if !ok {
		return quantity{new(big.Rat), decimalSI}
	}
	return p
}

func (a quantity) Cmp(b quantity) int { return a.v.Cmp(b.v) }

func (a quantity) Sign() int { return a.v.Sign() }

// Value is the quantity rounded up to an integer, as upstream's Value().
func (a quantity) Value() int64 {
	n := new(big.Int).Quo(a.v.Num(), a.v.Denom())
	if a.v.Sign() > 0 && !a.v.IsInt() {
		n.Add(n, big.NewInt(1))
	}
	return n.Int64()
}

// MilliValue is the quantity in thousandths, rounded up.
func (a quantity) MilliValue() int64 {
	return quantity{new(big.Rat).Mul(a.v, big.NewRat(1000, 1)), a.format}.Value()
}

// String prints the canonical form upstream's Quantity.String gives.
func (a quantity) String() string {
	v := new(big.Rat).Set(a.v)
	// Round away from zero to nano precision, as upstream does.
	nano := new(big.Rat).Mul(v, big.NewRat(1_000_000_000, 1))
	if !nano.IsInt() {
		n := new(big.Int).Quo(nano.Num(), nano.Denom())
		if nano.Sign() > 0 {
			n.Add(n, big.NewInt(1))
		} else {
			n.Sub(n, big.NewInt(1))
		}
		v = new(big.Rat).SetFrac(n, big.NewInt(1_000_000_000))
	}
	if v.Sign() == 0 {
		return "0"
	}
	sign := ""
	if v.Sign() < 0 {
		sign = "-"
		v.Neg(v)
	}
	format := a.format
	if format == binarySI && (v.Cmp(big.NewRat(1024, 1)) < 0 || !v.IsInt()) {
		format = decimalSI
	}
	if format == binarySI {
		n := new(big.Int).Set(v.Num())
		e := 0
		k := big.NewInt(1024)
		for e < 60 {
			m, r := new(big.Int).QuoRem(n, k, new(big.Int))
			if r.Sign() != 0 {
				break
			}
			n = m
			e += 10
		}
		suffix := map[int]string{0: "", 10: "Ki", 20: "Mi", 30: "Gi", 40: "Ti", 50: "Pi", 60: "Ei"}[e]
		return sign + n.String() + suffix
	}
	// Decimal: mantissa × 10^exp with exp a multiple of 3, mantissa integral.
	n := new(big.Int).Mul(v.Num(), big.NewInt(1_000_000_000))
	n.Quo(n, v.Denom())
	exp := -9
	ten := big.NewInt(10)
	for {
		m, r := new(big.Int).QuoRem(n, ten, new(big.Int))
		if r.Sign() != 0 {
			break
		}
		n = m
		exp++
	}
	for exp%3 != 0 {
		n.Mul(n, ten)
		exp--
	}
	if format == decimalExponent {
		if exp == 0 {
			return sign + n.String()
		}
		return sign + n.String() + "e" + itoa(exp)
	}
	for exp > 18 {
		n.Mul(n, big.NewInt(1000))
		exp -= 3
	}
	suffix := map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}[exp]
	return sign + n.String() + suffix
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// qstr is a canonical quantity printed bare, for errors whose bad value
// upstream passes as a Quantity (a Stringer) rather than its string.
type qstr string

func (s qstr) String() string { return string(s) }
