package apiserver

import (
	"fmt"
	"testing"
)

func TestFormatUIDIsTheUUIDLayout(t *testing.T) {
	for _, ab := range [][2]uint64{
		{0x0123456789abcdef, 0xfedcba9876543210},
		{0, 0},
		{^uint64(0), ^uint64(0)},
		{0x00000000ffff0000, 0x0000ffff00000001},
	} {
		a, b := ab[0], ab[1]
		want := fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
		if got := formatUID(a, b); got != want {
			t.Errorf("formatUID(%#x, %#x) = %s, want %s", a, b, got, want)
		}
	}
}
