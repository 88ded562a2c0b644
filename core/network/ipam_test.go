package network

import "testing"

func TestPodIPAllocator(t *testing.T) {
	a, err := NewPodIPAllocator("10.244.1.0/29") // .2 to .6
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		op, pod, want string
	}{
		{"alloc", "a", "10.244.1.2"},
		{"alloc", "b", "10.244.1.3"},
		{"alloc", "a", "10.244.1.2"}, // same pod, same address
		{"release", "a", ""},
		{"alloc", "c", "10.244.1.4"}, // next after the last, not the freed .2
		{"alloc", "d", "10.244.1.5"},
		{"alloc", "e", "10.244.1.6"},
		{"alloc", "f", "10.244.1.2"}, // wrapped round to the freed one
		{"alloc", "g", "error"},
		{"release", "nobody", ""},
		{"release", "d", ""},
		{"alloc", "g", "10.244.1.5"},
	}
	for i, st := range steps {
		switch st.op {
		case "alloc":
			got, err := a.Allocate(st.pod)
			if err != nil {
				got = "error"
			}
			if got != st.want {
				t.Fatalf("step %d: Allocate(%s) = %s, want %s", i, st.pod, got, st.want)
			}
		case "release":
			a.Release(st.pod)
		}
	}
}

func TestPodIPAllocatorReserve(t *testing.T) {
	a, _ := NewPodIPAllocator("10.244.0.0/24")
	for _, tc := range []struct {
		ip, pod string
		ok      bool
	}{
		{"10.244.0.7", "a", true},
		{"10.244.0.7", "a", true},  // again, same pod
		{"10.244.0.7", "b", false}, // taken
		{"10.244.0.1", "b", false}, // the gateway
		{"10.244.0.255", "b", false},
		{"10.244.1.3", "b", false},
		{"bogus", "b", false},
	} {
		if err := a.Reserve(tc.ip, tc.pod); (err == nil) != tc.ok {
			t.Errorf("Reserve(%s, %s) = %v, want ok=%v", tc.ip, tc.pod, err, tc.ok)
		}
	}
	if got, _ := a.Allocate("c"); got != "10.244.0.2" {
		t.Errorf("first allocation after a reserve = %s, want 10.244.0.2", got)
	}
	for _, bad := range []string{"", "10.244.0.0/31", "fd00::/64", "x/24"} {
		if _, err := NewPodIPAllocator(bad); err == nil {
			t.Errorf("NewPodIPAllocator(%q) accepted", bad)
		}
	}
}
