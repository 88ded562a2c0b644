package clock

import (
	"hash/fnv"
	"math/rand/v2"
	"strconv"
)

// Rand is the simulation's one source of randomness, seeded by its owner.
type Rand struct {
	src  *rand.PCG
	r    *rand.Rand
	seed uint64
}

// NewRand returns a source seeded with seed; equal seeds give equal streams.
func NewRand(seed uint64) *Rand {
	src := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return &Rand{src: src, r: rand.New(src), seed: seed}
}

// Split returns a stream of its own for a component, derived from the
// seed and label without drawing from r: adding a component that uses
// randomness does not shift everyone else's generated names.
func (r *Rand) Split(label string) *Rand {
	h := fnv.New64a()
	h.Write([]byte(label))
	return NewRand(r.seed ^ h.Sum64())
}

// Intn returns a value in [0, n).
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	return r.r.IntN(n)
}

// Float64 returns a value in [0, 1).
func (r *Rand) Float64() float64 { return r.r.Float64() }

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return r.r.Uint64() }

// alphanums is upstream's alphabet for generated names: no vowels (no words)
// and no easily confused characters.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// String returns n characters from the generated-name alphabet.
func (r *Rand) String(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphanums[r.r.IntN(len(alphanums))]
	}
	return string(b)
}

// GenerateName appends the five-character suffix the API server adds to generateName.
func (r *Rand) GenerateName(base string) string {
	const maxNameLength, randomLength = 63, 5
	if len(base) > maxNameLength-randomLength {
		base = base[:maxNameLength-randomLength]
	}
	return base + r.String(randomLength)
}

// SafeEncodeString maps each character of s into the generated-name alphabet,
// as upstream does for pod-template-hash and controller-revision-hash values.
func SafeEncodeString(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] = alphanums[int(b[i])%len(alphanums)]
	}
	return string(b)
}

// HashString is the hash label value for content (a template's canonical
// bytes) and a collision count: fnv-32a, printed in decimal, safe-encoded.
func HashString(content []byte, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write(content)
	if collisionCount != nil {
		var b [4]byte
		v := uint32(*collisionCount)
		b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		h.Write(b[:])
	}
	return SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// MarshalBinary saves the source's state (for snapshots).
func (r *Rand) MarshalBinary() ([]byte, error) { return r.src.MarshalBinary() }

// UnmarshalBinary restores a state saved by MarshalBinary.
func (r *Rand) UnmarshalBinary(b []byte) error { return r.src.UnmarshalBinary(b) }
