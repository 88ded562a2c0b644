package kubectl

import (
	"crypto/sha512"
	"math/big"
	"sync"
)

// ed25519PublicKey is the public key of an Ed25519 private key's 32-byte
// seed (RFC 8032, 5.1.5), worked out with math/big, which the page has
// anyway: crypto/ed25519 would bring its own field arithmetic, and one
// multiplication for `create secret tls` need not be fast.
func ed25519PublicKey(seed []byte) []byte {
	h := sha512.Sum512(seed)
	h[0] &= 248
	h[31] &= 127
	h[31] |= 64
	s := new(big.Int).SetBytes(reversed(h[:32]))
	c := curve25519()
	x, y := big.NewInt(0), big.NewInt(1) // the neutral element
	bx, by := c.baseX, c.baseY
	for i := 0; i < s.BitLen(); i++ {
		if s.Bit(i) == 1 {
			x, y = c.add(x, y, bx, by)
		}
		bx, by = c.add(bx, by, bx, by)
	}
	out := make([]byte, 32)
	y.FillBytes(out)
	out = reversed(out)
	out[31] |= byte(x.Bit(0)) << 7
	return out
}

// edwardsCurve is Curve25519's twisted Edwards form:
// -x² + y² = 1 + d·x²·y² over p = 2²⁵⁵-19, with its base point.
type edwardsCurve struct{ p, d, baseX, baseY *big.Int }

// curve25519 parses the constants on first use, not at every page start.
var curve25519 = sync.OnceValue(func() edwardsCurve {
	num := func(s string) *big.Int {
		v, _ := new(big.Int).SetString(s, 10)
		return v
	}
	return edwardsCurve{
		p:     new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19)),
		d:     num("37095705934669439343138083508754565189542113879843219016388785533085940283555"),
		baseX: num("15112221349535400772501151409588531511454012693041857206046113283949847762202"),
		baseY: num("46316835694926478169428394003475163141307993866256225615783033603165251855960"),
	}
})

// add adds two points with the curve's complete addition law (doubling
// included), in affine coordinates.
func (c edwardsCurve) add(x1, y1, x2, y2 *big.Int) (*big.Int, *big.Int) {
	edP, edD := c.p, c.d
	mod := func(v *big.Int) *big.Int { return v.Mod(v, edP) }
	x1y2 := mod(new(big.Int).Mul(x1, y2))
	y1x2 := mod(new(big.Int).Mul(y1, x2))
	x1x2 := mod(new(big.Int).Mul(x1, x2))
	y1y2 := mod(new(big.Int).Mul(y1, y2))
	t := mod(new(big.Int).Mul(edD, mod(new(big.Int).Mul(x1x2, y1y2))))
	one := big.NewInt(1)
	x3 := new(big.Int).Add(x1y2, y1x2)
	x3.Mul(x3, new(big.Int).ModInverse(mod(new(big.Int).Add(one, t)), edP))
	y3 := new(big.Int).Add(y1y2, x1x2)
	y3.Mul(y3, new(big.Int).ModInverse(mod(new(big.Int).Sub(one, t)), edP))
	return mod(x3), mod(y3)
}

// reversed is b's bytes in the other order (Ed25519 is little-endian).
func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}
