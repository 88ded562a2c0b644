package runtime

import (
	"fmt"
	"testing"
)

// containerID prints its four hash rounds as fmt's %016x would.
func TestContainerIDPrintsRoundsAsHex(t *testing.T) {
	for _, c := range []struct {
		seed string
		n    uint64
	}{{"", 0}, {"default/web-abcde/nginx", 1}, {"kube-system/coredns-5d78c9869d-x7k2p/coredns", 42}, {"ü/ñ", 1 << 40}} {
		x := uint64(14695981039346656037)
		for _, ch := range c.seed {
			x = (x ^ uint64(ch)) * 1099511628211
		}
		want := ""
		for i := uint64(0); i < 4; i++ {
			x = (x ^ (c.n*0x9e3779b97f4a7c15 + i)) * 1099511628211
			want += fmt.Sprintf("%016x", x)
		}
		if got := containerID(c.seed, c.n); got != want {
			t.Errorf("containerID(%q, %d) = %s, want %s", c.seed, c.n, got, want)
		}
	}
}
