package client

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// Whatever the mix of additions, removals and reads, the order read is
// the set's keys sorted.
func TestKeyOrderAgreesWithSorting(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 0))
		set := map[string]struct{}{}
		var o keyOrder
		for step := 0; step < 2000; step++ {
			k := "pod-" + strconv.Itoa(r.IntN(300))
			switch op := r.IntN(10); {
			case op < 6:
				if _, ok := set[k]; !ok {
					set[k] = struct{}{}
					o.add(k)
				}
			case op < 7:
				if _, ok := set[k]; ok {
					delete(set, k)
					o.invalidate()
				}
			default:
				got := o.keys(maps.Keys(set))
				if want := slices.Sorted(maps.Keys(set)); !slices.Equal(got, want) {
					t.Fatalf("seed %d step %d: order %v, want %v", seed, step, got, want)
				}
			}
		}
	}
}

func TestMergeSorted(t *testing.T) {
	tests := []struct{ a, b, want []string }{
		{nil, []string{"a"}, []string{"a"}},
		{[]string{"b", "d"}, []string{"a", "c", "e"}, []string{"a", "b", "c", "d", "e"}},
		{[]string{"a", "b"}, []string{"c"}, []string{"a", "b", "c"}},
		{[]string{"b", "c"}, []string{"a"}, []string{"a", "b", "c"}},
		{[]string{"a"}, nil, []string{"a"}},
	}
	for _, tt := range tests {
		if got := mergeSorted(slices.Clone(tt.a), tt.b); !slices.Equal(got, tt.want) {
			t.Errorf("mergeSorted(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
