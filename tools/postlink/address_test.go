package main

import (
	"bytes"
	"testing"
)

func TestNarrowAddresses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want []byte
		n        int
	}{{
		name: "SP+16, then a load",
		in:   []byte{0x00, 0x20, 0x01, 0xad, 0x42, 0x10, 0x7c, 0xa7, 0x29, 0x03, 0x00, 0x0b},
		want: []byte{0x00, 0x20, 0x01, 0x41, 0x10, 0x6a, 0x29, 0x03, 0x00, 0x0b},
		n:    1,
	}, {
		name: "an offset past 2^31 wraps to a negative i32",
		in:   []byte{0x00, 0x20, 0x01, 0xad, 0x42, 0xf0, 0xff, 0xff, 0xff, 0x0f, 0x7c, 0xa7, 0x1a, 0x0b},
		want: []byte{0x00, 0x20, 0x01, 0x41, 0x70, 0x6a, 0x1a, 0x0b},
		n:    1,
	}, {
		name: "a 64-bit sum that is kept stays",
		in:   []byte{0x00, 0x20, 0x01, 0xad, 0x42, 0x10, 0x7c, 0x1a, 0x0b},
	}, {
		name: "a constant that is not added stays",
		in:   []byte{0x00, 0x20, 0x01, 0xad, 0x42, 0x10, 0x7e, 0xa7, 0x1a, 0x0b},
	}, {
		name: "locals are kept",
		in:   []byte{0x01, 0x02, 0x7e, 0x20, 0x01, 0xad, 0x42, 0x08, 0x7c, 0xa7, 0x1a, 0x0b},
		want: []byte{0x01, 0x02, 0x7e, 0x20, 0x01, 0x41, 0x08, 0x6a, 0x1a, 0x0b},
		n:    1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = tc.in
			}
			got, n, err := narrowAddresses(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) || n != tc.n {
				t.Errorf("got %x (%d narrowed), want %x (%d)", got, n, want, tc.n)
			}
		})
	}
}

func TestAppendSleb(t *testing.T) {
	for _, v := range []int64{0, 1, 63, 64, -1, -64, -65, 8191, 8192, -2147483648, 2147483647, 1 << 40} {
		enc := appendSleb(nil, v)
		got, n, err := sleb(enc, 0)
		if err != nil || got != v || n != len(enc) {
			t.Errorf("%d: encoded %x, read back %d (%d bytes, %v)", v, enc, got, n, err)
		}
	}
}

func FuzzNarrowAddresses(f *testing.F) {
	f.Add([]byte{0x00, 0x20, 0x01, 0xad, 0x42, 0x10, 0x7c, 0xa7, 0x29, 0x03, 0x00, 0x0b})
	f.Add([]byte{0x00, 0x20, 0x01, 0xad, 0x42, 0xf0, 0xff, 0xff, 0xff, 0x0f, 0x7c, 0xa7, 0x1a, 0x0b})
	f.Fuzz(func(t *testing.T, body []byte) {
		in := bytes.Clone(body)
		out, n, err := narrowAddresses(body)
		if !bytes.Equal(in, body) {
			t.Fatal("the input changed")
		}
		if err == nil && len(out) > len(body)-2*n {
			t.Fatalf("%d narrowed, %d bytes from %d", n, len(out), len(body))
		}
	})
}
