package resource

import (
	"math"
	"math/big"
)

// Cmp returns -1, 0 or +1 as q is less than, equal to or greater than y.
func (q Quantity) Cmp(y Quantity) int {
	if x, z, _, ok := align64(q, y); ok {
		switch {
		case x < z:
			return -1
		case x > z:
			return 1
		}
		return 0
	}
	qs, ys := q.Sign(), y.Sign()
	if qs != ys || qs == 0 {
		return cmpInt(qs, ys)
	}
	// Same sign: differing magnitudes decide without aligning huge scales.
	if mq, my := q.magnitude(), y.magnitude(); mq != my {
		if qs < 0 {
			return cmpInt(my, mq)
		}
		return cmpInt(mq, my)
	}
	x, z, _ := align(q, y)
	return x.Cmp(z)
}

func cmpInt[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CmpInt64 compares q with the integer y.
func (q Quantity) CmpInt64(y int64) int { return q.Cmp(Quantity{unscaled: y}) }

// Equal reports whether q and v have the same value, whatever their formats.
func (q Quantity) Equal(v Quantity) bool { return q.Cmp(v) == 0 }

// Add adds y to q. A zero q takes y's format.
func (q *Quantity) Add(y Quantity) {
	if q.IsZero() {
		q.Format = y.Format
	}
	q.add(y)
}

// Sub subtracts y from q. A zero q takes y's format.
func (q *Quantity) Sub(y Quantity) {
	if q.IsZero() {
		q.Format = y.Format
	}
	y.Neg()
	q.add(y)
}

func (q *Quantity) add(y Quantity) {
	switch {
	case y.IsZero():
		return
	case q.IsZero():
		q.unscaled, q.scale, q.big = y.unscaled, y.scale, y.big
		return
	}
	if x, z, s, ok := align64(*q, y); ok {
		if sum, ok := add64(x, z); ok {
			q.unscaled, q.scale = sum, s
			return
		}
	}
	x, z, s := align(*q, y)
	q.setBig(x.Add(x, z), s)
}

// Neg makes q its own negation.
func (q *Quantity) Neg() {
	if q.big == "" && q.unscaled != math.MinInt64 {
		q.unscaled = -q.unscaled
		return
	}
	v := q.unscaledBig()
	q.setBig(v.Neg(v), q.scale)
}

// Mul multiplies q by y, reporting whether the unscaled result still fits
// an int64 (as upstream does; the value itself is always exact).
func (q *Quantity) Mul(y int64) bool {
	if q.big == "" {
		if p, ok := mul64(q.unscaled, y); ok {
			q.unscaled = p
			return true
		}
	}
	v := q.unscaledBig()
	q.setBig(v.Mul(v, big.NewInt(y)), q.scale)
	return q.big == ""
}
