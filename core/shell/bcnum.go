package shell

import (
	"math/big"
	"strings"
)

// bc's numbers: arbitrary-precision decimals, a big integer and how many of
// its digits are fractional. Every operation truncates as GNU bc does, so
// results carry the same digits.

type bcNum struct {
	v     *big.Int
	scale int
}

var (
	bigTen  = big.NewInt(10)
	bigZero = big.NewInt(0)
)

func pow10(n int) *big.Int {
	if n <= 0 {
		return big.NewInt(1)
	}
	return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil)
}

func bcInt(n int64) bcNum { return bcNum{v: big.NewInt(n)} }

// rescale returns n with the given scale, truncating toward zero.
func (n bcNum) rescale(s int) bcNum {
	switch {
	case s == n.scale:
		return n
	case s > n.scale:
		return bcNum{v: new(big.Int).Mul(n.v, pow10(s-n.scale)), scale: s}
	}
	return bcNum{v: new(big.Int).Quo(n.v, pow10(n.scale-s)), scale: s}
}

func (n bcNum) isZero() bool { return n.v.Sign() == 0 }

func bcAdd(a, b bcNum, sub bool) bcNum {
	s := max(a.scale, b.scale)
	x, y := a.rescale(s).v, b.rescale(s).v
	r := new(big.Int)
	if sub {
		r.Sub(x, y)
	} else {
		r.Add(x, y)
	}
	return bcNum{v: r, scale: s}
}

func bcMul(a, b bcNum, scale int) bcNum {
	full := a.scale + b.scale
	p := bcNum{v: new(big.Int).Mul(a.v, b.v), scale: full}
	return p.rescale(min(full, max(scale, a.scale, b.scale)))
}

// bcDiv is a/b truncated to scale digits; b must not be zero.
func bcDiv(a, b bcNum, scale int) bcNum {
	num := new(big.Int).Mul(a.v, pow10(b.scale+scale))
	den := new(big.Int).Mul(b.v, pow10(a.scale))
	return bcNum{v: num.Quo(num, den), scale: scale}
}

func bcMod(a, b bcNum, scale int) bcNum {
	q := bcDiv(a, b, scale)
	qb := bcNum{v: new(big.Int).Mul(q.v, b.v), scale: q.scale + b.scale}
	r := bcAdd(a, qb, true)
	return r.rescale(max(a.scale, b.scale+scale))
}

func bcCmp(a, b bcNum) int {
	s := max(a.scale, b.scale)
	return a.rescale(s).v.Cmp(b.rescale(s).v)
}

// bcSqrt is the square root truncated to max(scale, a.scale) digits.
func bcSqrt(a bcNum, scale int) bcNum {
	rs := max(scale, a.scale)
	x := new(big.Int).Mul(a.v, pow10(2*rs-a.scale))
	return bcNum{v: x.Sqrt(x), scale: rs}
}

// String formats n in base 10 as bc prints it: no leading zero before the
// point, "0" for zero whatever its scale.
func (n bcNum) String() string {
	if n.isZero() {
		return "0"
	}
	neg := n.v.Sign() < 0
	digits := new(big.Int).Abs(n.v).String()
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if len(digits) <= n.scale {
		b.WriteByte('.')
		b.WriteString(strings.Repeat("0", n.scale-len(digits)))
		b.WriteString(digits)
		return b.String()
	}
	b.WriteString(digits[:len(digits)-n.scale])
	if n.scale > 0 {
		b.WriteByte('.')
		b.WriteString(digits[len(digits)-n.scale:])
	}
	return b.String()
}

// format prints n in obase: digits 0-9A-F up to 16, else space-separated
// zero-padded decimal groups, as bc does.
func (n bcNum) format(obase int) string {
	if obase == 10 {
		return n.String()
	}
	if n.isZero() {
		return "0"
	}
	var b strings.Builder
	if n.v.Sign() < 0 {
		b.WriteByte('-')
	}
	abs := new(big.Int).Abs(n.v)
	ip, fp := new(big.Int).QuoRem(abs, pow10(n.scale), new(big.Int))
	width := len(itoa(obase - 1))
	digit := func(d int64) string {
		if obase <= 16 {
			return string("0123456789ABCDEF"[d])
		}
		s := itoa(int(d))
		return " " + strings.Repeat("0", width-len(s)) + s
	}
	base := big.NewInt(int64(obase))
	var ds []string
	for ip.Sign() > 0 {
		r := new(big.Int)
		ip.QuoRem(ip, base, r)
		ds = append(ds, digit(r.Int64()))
	}
	if len(ds) == 0 && obase > 16 {
		ds = append(ds, digit(0))
	}
	for i := len(ds) - 1; i >= 0; i-- {
		b.WriteString(ds[i])
	}
	if n.scale > 0 {
		b.WriteByte('.')
		// Fraction digits until their weight is below 10^-scale.
		one := pow10(n.scale)
		place := big.NewInt(1)
		for place.Cmp(one) < 0 {
			fp.Mul(fp, base)
			d := new(big.Int)
			fp.QuoRem(fp, one, d)
			b.WriteString(digit(fp.Int64()))
			fp = d
			place.Mul(place, base)
		}
	}
	return b.String()
}

// ---- the math library (-l), in fixed point with guard digits ----

// fixed is a number scaled by 10^p.
type fixed struct {
	p   int
	one *big.Int
}

func newFixed(p int) fixed { return fixed{p: p, one: pow10(p)} }

func (f fixed) from(n bcNum) *big.Int {
	return n.rescale(f.p).v
}

func (f fixed) mul(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, b)
	return r.Quo(r, f.one)
}

func (f fixed) div(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, f.one)
	return r.Quo(r, b)
}

// atanSmall sums the Taylor series of atan for |x| well below 1.
func (f fixed) atanSmall(x *big.Int) *big.Int {
	sum := new(big.Int).Set(x)
	x2 := f.mul(x, x)
	term := new(big.Int).Set(x)
	for k := int64(3); ; k += 2 {
		term = f.mul(term, x2)
		term.Neg(term)
		t := new(big.Int).Quo(term, big.NewInt(k))
		if t.Sign() == 0 {
			return sum
		}
		sum.Add(sum, t)
	}
}

func (f fixed) sqrt(x *big.Int) *big.Int {
	r := new(big.Int).Mul(x, f.one)
	return r.Sqrt(r)
}

func (f fixed) atan(x *big.Int) *big.Int {
	neg := x.Sign() < 0
	x = new(big.Int).Abs(x)
	var r *big.Int
	if x.Cmp(f.one) > 0 {
		// atan(x) = pi/2 - atan(1/x)
		half := new(big.Int).Quo(f.pi(), big.NewInt(2))
		r = half.Sub(half, f.atan(f.div(f.one, x)))
	} else {
		// Halve the argument until small: atan(x) = 2 atan(x / (1 + sqrt(1 + x²))).
		k := 0
		limit := new(big.Int).Quo(f.one, big.NewInt(10))
		for x.Cmp(limit) > 0 && k < 20 {
			d := new(big.Int).Add(f.one, f.sqrt(new(big.Int).Add(f.one, f.mul(x, x))))
			x = f.div(x, d)
			k++
		}
		r = f.atanSmall(x)
		r.Lsh(r, uint(k))
	}
	if neg {
		r.Neg(r)
	}
	return r
}

// pi by Machin's formula: pi/4 = 4 atan(1/5) - atan(1/239).
func (f fixed) pi() *big.Int {
	a := f.atanSmall(new(big.Int).Quo(f.one, big.NewInt(5)))
	b := f.atanSmall(new(big.Int).Quo(f.one, big.NewInt(239)))
	a.Mul(a, big.NewInt(16))
	b.Mul(b, big.NewInt(4))
	return a.Sub(a, b)
}

func (f fixed) exp(x *big.Int) *big.Int {
	neg := x.Sign() < 0
	x = new(big.Int).Abs(x)
	k := 0
	for x.Cmp(f.one) > 0 {
		x.Rsh(x, 1)
		k++
	}
	sum := new(big.Int).Set(f.one)
	term := new(big.Int).Set(f.one)
	for i := int64(1); ; i++ {
		term = f.mul(term, x)
		term.Quo(term, big.NewInt(i))
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum = f.mul(sum, sum)
	}
	if neg {
		return f.div(f.one, sum)
	}
	return sum
}

// ln for x > 0: scale x into [0.5, 2) by powers of two, then
// ln(m) = 2 atanh((m-1)/(m+1)).
func (f fixed) ln(x *big.Int) *big.Int {
	k := 0
	two := new(big.Int).Lsh(f.one, 1)
	half := new(big.Int).Rsh(f.one, 1)
	m := new(big.Int).Set(x)
	for m.Cmp(two) >= 0 {
		m.Rsh(m, 1)
		k++
	}
	for m.Cmp(half) < 0 {
		m.Lsh(m, 1)
		k--
	}
	r := f.atanh(f.div(new(big.Int).Sub(m, f.one), new(big.Int).Add(m, f.one)))
	r.Lsh(r, 1)
	if k != 0 {
		ln2 := f.atanh(f.div(f.one, big.NewInt(3)))
		ln2.Lsh(ln2, 1)
		r.Add(r, ln2.Mul(ln2, big.NewInt(int64(k))))
	}
	return r
}

func (f fixed) atanh(x *big.Int) *big.Int {
	sum := new(big.Int).Set(x)
	x2 := f.mul(x, x)
	term := new(big.Int).Set(x)
	for k := int64(3); ; k += 2 {
		term = f.mul(term, x2)
		t := new(big.Int).Quo(term, big.NewInt(k))
		if t.Sign() == 0 {
			return sum
		}
		sum.Add(sum, t)
	}
}

// sin by its Taylor series after reducing x modulo 2 pi.
func (f fixed) sin(x *big.Int) *big.Int {
	twoPi := new(big.Int).Lsh(f.pi(), 1)
	x = new(big.Int).Rem(x, twoPi)
	sum := new(big.Int).Set(x)
	term := new(big.Int).Set(x)
	x2 := f.mul(x, x)
	for k := int64(2); ; k += 2 {
		term = f.mul(term, x2)
		term.Quo(term, big.NewInt(k*(k+1)))
		term.Neg(term)
		if term.Sign() == 0 {
			return sum
		}
		sum.Add(sum, term)
	}
}

func (f fixed) cos(x *big.Int) *big.Int {
	halfPi := new(big.Int).Rsh(f.pi(), 1)
	return f.sin(new(big.Int).Add(x, halfPi))
}

// besselJ is J_n(x) by its series.
func (f fixed) besselJ(n int64, x *big.Int) *big.Int {
	if n < 0 {
		n = -n
	}
	halfX := new(big.Int).Rsh(x, 1)
	// term_0 = (x/2)^n / n!
	term := new(big.Int).Set(f.one)
	for i := int64(1); i <= n; i++ {
		term = f.mul(term, halfX)
		term.Quo(term, big.NewInt(i))
	}
	sum := new(big.Int).Set(term)
	hx2 := f.mul(halfX, halfX)
	for k := int64(1); k < 100000; k++ {
		term = f.mul(term, hx2)
		term.Quo(term, big.NewInt(k*(k+n)))
		term.Neg(term)
		if term.Sign() == 0 {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}
