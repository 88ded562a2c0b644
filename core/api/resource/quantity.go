// Package resource is Quantity, upstream's fixed-point number for resource
// amounts: "100m", "2Gi", "512Mi", "1.5", "1e3".
package resource

import (
	"math"
	"math/big"
)

// Format says how String writes a quantity: the suffix family it was parsed with.
type Format string

const (
	DecimalExponent = Format("DecimalExponent") // 12e6
	BinarySI        = Format("BinarySI")        // 12Mi (12 * 2^20)
	DecimalSI       = Format("DecimalSI")       // 12M (12 * 10^6)
)

// Scale is a power of ten, for ScaledValue and NewScaledQuantity.
type Scale int32

const (
	Nano  Scale = -9
	Micro Scale = -6
	Milli Scale = -3
	Kilo  Scale = 3
	Mega  Scale = 6
	Giga  Scale = 9
	Tera  Scale = 12
	Peta  Scale = 15
	Exa   Scale = 18
)

// Quantity is the exact value unscaled × 10^scale. Values that outgrow int64
// keep their unscaled digits in big (a string, so that plain assignment stays
// a deep copy: package api's generated deep copies copy it by assignment, and
// a DeepCopy method here would change what the generator writes for it).
// The zero value is 0.
type Quantity struct {
	unscaled int64
	scale    int32
	big      string // decimal digits of the unscaled value when it overflows int64

	// Format may be changed at will; it only affects String.
	Format
}

// NewQuantity returns value in the given format.
func NewQuantity(value int64, format Format) *Quantity {
	return &Quantity{unscaled: value, Format: format}
}

// NewMilliQuantity returns value/1000 in the given format.
func NewMilliQuantity(value int64, format Format) *Quantity {
	return &Quantity{unscaled: value, scale: int32(Milli), Format: format}
}

// NewScaledQuantity returns value × 10^scale in DecimalSI.
func NewScaledQuantity(value int64, scale Scale) *Quantity {
	return &Quantity{unscaled: value, scale: int32(scale), Format: DecimalSI}
}

// IsZero reports whether q equals zero.
func (q Quantity) IsZero() bool { return q.big == "" && q.unscaled == 0 }

// Sign is -1, 0 or +1.
func (q Quantity) Sign() int {
	switch {
	case q.big != "":
		if q.big[0] == '-' {
			return -1
		}
		return 1
	case q.unscaled < 0:
		return -1
	case q.unscaled > 0:
		return 1
	}
	return 0
}

// Set makes q equal value (format unchanged).
func (q *Quantity) Set(value int64) { q.SetScaled(value, 0) }

// SetMilli makes q equal value/1000.
func (q *Quantity) SetMilli(value int64) { q.SetScaled(value, Milli) }

// SetScaled makes q equal value × 10^scale.
func (q *Quantity) SetScaled(value int64, scale Scale) {
	q.unscaled, q.scale, q.big = value, int32(scale), ""
}

// Value is q rounded away from zero to an integer. Results beyond int64
// saturate (upstream leaves them undefined).
func (q Quantity) Value() int64 { return q.ScaledValue(0) }

// MilliValue is q×1000 rounded away from zero.
func (q Quantity) MilliValue() int64 { return q.ScaledValue(Milli) }

// ScaledValue is q / 10^scale rounded away from zero: NewQuantity(1,
// DecimalSI).ScaledValue(Milli) is 1000.
func (q Quantity) ScaledValue(scale Scale) int64 {
	if q.big == "" { // the usual case, without a big.Int on the heap
		if r, _, ok := rescale64(q.unscaled, q.scale, int32(scale)); ok {
			return r
		}
	}
	v, _ := q.rescale(int32(scale))
	if v.IsInt64() {
		return v.Int64()
	}
	if v.Sign() < 0 {
		return math.MinInt64
	}
	return math.MaxInt64
}

// AsInt64 returns q as an int64 when it is an integer that fits.
func (q Quantity) AsInt64() (int64, bool) {
	if q.big == "" {
		if r, exact, ok := rescale64(q.unscaled, q.scale, 0); ok {
			if !exact {
				return 0, false
			}
			return r, true
		}
	}
	v, exact := q.rescale(0)
	if !exact || !v.IsInt64() {
		return 0, false
	}
	return v.Int64(), true
}

// AsApproximateFloat64 is q as a float64, possibly losing precision;
// out-of-range values become ±Inf.
func (q Quantity) AsApproximateFloat64() float64 {
	base := float64(q.unscaled)
	if q.big != "" {
		base, _ = new(big.Float).SetInt(q.unscaledBig()).Float64()
	}
	if q.scale == 0 || base == 0 {
		return base
	}
	return base * math.Pow10(int(q.scale))
}

// RoundUp rounds q away from zero so that it has no digits below 10^scale,
// reporting whether it was already exact.
func (q *Quantity) RoundUp(scale Scale) bool {
	if q.scale >= int32(scale) {
		return true
	}
	v, exact := q.rescale(int32(scale))
	q.setBig(v, int32(scale))
	return exact
}
