package nodeipam

import (
	"net/netip"
	"testing"
)

func TestCIDRSetAllocatesRoundRobin(t *testing.T) {
	s, err := NewCIDRSet(netip.MustParsePrefix("10.244.0.0/22"), 24)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		op, cidr, want string
	}{
		{"next", "", "10.244.0.0/24"},
		{"next", "", "10.244.1.0/24"},
		{"occupy", "10.244.2.0/24", ""},
		{"next", "", "10.244.3.0/24"},
		{"release", "10.244.0.0/24", ""},
		{"next", "", "10.244.0.0/24"}, // wrapped round to the freed block
		{"next", "", "error"},
		{"release", "10.244.1.0/24", ""},
		{"next", "", "10.244.1.0/24"},
	}
	for i, st := range steps {
		switch st.op {
		case "next":
			p, err := s.AllocateNext()
			got := p.String()
			if err != nil {
				got = "error"
			}
			if got != st.want {
				t.Fatalf("step %d: AllocateNext = %s, want %s", i, got, st.want)
			}
		case "occupy":
			if err := s.Occupy(netip.MustParsePrefix(st.cidr)); err != nil {
				t.Fatal(err)
			}
		case "release":
			if err := s.Release(netip.MustParsePrefix(st.cidr)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestCIDRSetRejects(t *testing.T) {
	s, _ := NewCIDRSet(netip.MustParsePrefix("10.244.0.0/16"), 24)
	for _, c := range []string{"10.96.0.0/12", "192.168.0.0/24"} {
		err := s.Occupy(netip.MustParsePrefix(c))
		if c == "10.96.0.0/12" && err == nil {
			t.Errorf("occupy %s: want an out-of-range error", c)
		}
		if c == "192.168.0.0/24" && err == nil {
			t.Errorf("occupy %s: want an out-of-range error", c)
		}
	}
	if _, err := NewCIDRSet(netip.MustParsePrefix("10.0.0.0/8"), 28); err == nil {
		t.Error("a set of 2^20 blocks should be refused")
	}
	if _, err := NewCIDRSet(netip.MustParsePrefix("10.0.0.0/24"), 16); err == nil {
		t.Error("a node mask wider than the cluster's should be refused")
	}
}
