package resource

import (
	"math"
	"math/big"
	"strconv"
)

// The helpers below move a Quantity between its int64 form and math/big,
// and change its scale rounding away from zero, as upstream rounds.

var bigTen = big.NewInt(10)

// unscaledBig returns the unscaled value as a new big.Int.
func (q Quantity) unscaledBig() *big.Int {
	if q.big == "" {
		return big.NewInt(q.unscaled)
	}
	v, ok := new(big.Int).SetString(q.big, 10)
	if !ok { // unreachable: big only ever holds big.Int.String output
		return new(big.Int)
	}
	return v
}

// setBig stores v × 10^scale, in int64 form when it fits.
func (q *Quantity) setBig(v *big.Int, scale int32) {
	q.scale = scale
	if v.IsInt64() {
		q.unscaled, q.big = v.Int64(), ""
		return
	}
	q.unscaled, q.big = 0, v.String()
}

// pow10 returns 10^n as a big.Int (n >= 0).
func pow10(n int64) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(n), nil)
}

// absDigits is the decimal digits of |unscaled|.
func (q Quantity) absDigits() string {
	if q.big != "" {
		if q.big[0] == '-' {
			return q.big[1:]
		}
		return q.big
	}
	if q.unscaled < 0 {
		return strconv.FormatUint(uint64(-(q.unscaled+1))+1, 10)
	}
	return strconv.FormatInt(q.unscaled, 10)
}

// magnitude is the position just above the leading digit: 10^(m-1) <= |q| < 10^m.
// Only meaningful for non-zero q.
func (q Quantity) magnitude() int64 {
	return int64(len(q.absDigits())) + int64(q.scale)
}

// mul64 multiplies without overflow, reporting failure.
func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return c, true
}

// add64 adds without overflow, reporting failure.
func add64(a, b int64) (int64, bool) {
	c := a + b
	if (a > 0 && b > 0 && c < 0) || (a < 0 && b < 0 && c >= 0) {
		return 0, false
	}
	return c, true
}

// pow10Int64 is 10^n for 0 <= n <= 18.
func pow10Int64(n int32) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// rescale64 is the int64 fast path of rescale; ok is false when the result
// does not fit.
func rescale64(v int64, from, to int32) (r int64, exact, ok bool) {
	if from >= to {
		if v == 0 {
			return 0, true, true
		}
		if from-to > 18 {
			return 0, false, false
		}
		r, ok = mul64(v, pow10Int64(from-to))
		return r, true, ok
	}
	d := to - from
	if d > 18 {
		switch {
		case v > 0:
			return 1, false, true
		case v < 0:
			return -1, false, true
		}
		return 0, true, true
	}
	p := pow10Int64(d)
	r, rem := v/p, v%p
	switch {
	case rem > 0:
		r++
	case rem < 0:
		r--
	}
	return r, rem == 0, true
}

// rescale returns the unscaled value at scale to, rounded away from zero,
// and whether no precision was lost.
func (q Quantity) rescale(to int32) (*big.Int, bool) {
	if q.big == "" {
		if r, exact, ok := rescale64(q.unscaled, q.scale, to); ok {
			return big.NewInt(r), exact
		}
	}
	v := q.unscaledBig()
	if q.scale >= to {
		return v.Mul(v, pow10(int64(q.scale)-int64(to))), true
	}
	d := int64(to) - int64(q.scale)
	if v.Sign() == 0 {
		return v, true
	}
	if d > int64(len(q.absDigits())) { // |q| < 10^to: rounds to one unit
		return big.NewInt(int64(v.Sign())), false
	}
	r, rem := new(big.Int).QuoRem(v, pow10(d), new(big.Int))
	if rem.Sign() != 0 {
		r.Add(r, big.NewInt(int64(v.Sign())))
	}
	return r, rem.Sign() == 0
}

// align returns the unscaled values of a and b at their common (smaller) scale.
func align(a, b Quantity) (x, y *big.Int, scale int32) {
	x, y = a.unscaledBig(), b.unscaledBig()
	switch {
	case a.scale > b.scale:
		x.Mul(x, pow10(int64(a.scale)-int64(b.scale)))
		return x, y, b.scale
	case b.scale > a.scale:
		y.Mul(y, pow10(int64(b.scale)-int64(a.scale)))
	}
	return x, y, a.scale
}

// align64 is align in int64, failing on overflow.
func align64(a, b Quantity) (x, y int64, scale int32, ok bool) {
	if a.big != "" || b.big != "" {
		return 0, 0, 0, false
	}
	switch {
	case a.scale > b.scale:
		x, _, ok = rescale64(a.unscaled, a.scale, b.scale)
		return x, b.unscaled, b.scale, ok
	case b.scale > a.scale:
		y, _, ok = rescale64(b.unscaled, b.scale, a.scale)
		return a.unscaled, y, a.scale, ok
	}
	return a.unscaled, b.unscaled, a.scale, true
}
