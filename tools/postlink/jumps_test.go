package main

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// moduleWithCode is a module whose only section is a code section of the
// function bodies.
func moduleWithCode(bodies ...[]byte) []byte {
	sec := binary.AppendUvarint(nil, uint64(len(bodies)))
	for _, b := range bodies {
		sec = binary.AppendUvarint(sec, uint64(len(b)))
		sec = append(sec, b...)
	}
	m := append(append([]byte(nil), wasmMagic...), 10)
	m = binary.AppendUvarint(m, uint64(len(sec)))
	return append(m, sec...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	// no locals, the loop, four resume blocks and the dispatch on PC_B
	// (pc n resumes at block n, anything past 2 at block 3)
	head = []byte{0x00, 0x03, 0x40, 0x02, 0x40, 0x02, 0x40, 0x02, 0x40, 0x02, 0x40,
		0x20, 0x00, 0x0e, 0x03, 0x00, 0x01, 0x02, 0x03, 0x0b}
	end = []byte{0x0b}
)

func TestRewriteJumps(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in, want  []byte
		fwd, back int
	}{{
		name: "forward jump from block 0 to block 2",
		in:   cat(head, []byte{0x41, 0x02, 0x21, 0x00, 0x0c, 0x03}, end, end, end, end, end),
		want: cat(head, []byte{0x0c, 0x01}, end, end, end, end, end),
		fwd:  1,
	}, {
		name: "a conditional forward jump becomes br_if",
		in:   cat(head, end, []byte{0x20, 0x01, 0x04, 0x40, 0x41, 0x03, 0x21, 0x00, 0x0c, 0x03, 0x0b}, end, end, end, end),
		want: cat(head, end, []byte{0x20, 0x01, 0x0d, 0x01}, end, end, end, end),
		fwd:  1,
	}, {
		name: "a pc past the table resumes at the last block",
		in:   cat(head, []byte{0x41, 0xe4, 0x00, 0x21, 0x00, 0x0c, 0x03}, end, end, end, end, end),
		want: cat(head, []byte{0x0c, 0x02}, end, end, end, end, end),
		fwd:  1,
	}, {
		name: "backward jumps and a jump to its own block stay",
		in: cat(head, end, end, []byte{0x41, 0x00, 0x21, 0x00, 0x0c, 0x01},
			[]byte{0x41, 0x02, 0x21, 0x00, 0x0c, 0x01}, end, end, end),
		back: 2,
	}, {
		name: "a branch to the code's own loop is not a jump",
		in:   cat(head, []byte{0x03, 0x40, 0x41, 0x02, 0x21, 0x00, 0x0c, 0x00, 0x0b}, end, end, end, end, end),
	}, {
		name: "PC_B written without a branch is not a jump",
		in:   cat(head, []byte{0x41, 0x02, 0x21, 0x00, 0x01}, end, end, end, end, end),
	}, {
		name: "a function without the dispatch stays",
		in:   []byte{0x00, 0x41, 0x02, 0x21, 0x00, 0x0c, 0x00, 0x0b},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = tc.in
			}
			got, st, err := rewriteJumps(moduleWithCode(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, moduleWithCode(want)) {
				t.Errorf("got  %x\nwant %x", got, moduleWithCode(want))
			}
			if st.forward != tc.fwd || st.backward != tc.back {
				t.Errorf("stats %+v, want %d forward, %d backward", st, tc.fwd, tc.back)
			}
		})
	}
}

func TestRewriteJumpsRefusesWhatItCannotRead(t *testing.T) {
	for name, m := range map[string][]byte{
		"no code section":      wasmMagic,
		"unknown instruction":  moduleWithCode(cat(head, []byte{0xfd, 0x00}, end, end, end, end, end)),
		"no end":               moduleWithCode(cat(head, end, end)),
		"code after the end":   moduleWithCode(cat(head, end, end, end, end, end, []byte{0x01})),
		"label past blocks":    moduleWithCode([]byte{0x00, 0x03, 0x40, 0x02, 0x40, 0x02, 0x40, 0x20, 0x00, 0x0e, 0x00, 0x05, 0x0b}),
		"body past the end":    append(append([]byte(nil), wasmMagic...), 10, 3, 1, 9, 0),
		"truncated immediate":  moduleWithCode(cat(head, []byte{0x41})),
		"truncated block type": moduleWithCode(cat(head, []byte{0x02})),
		"truncated jump":       moduleWithCode(cat(head, []byte{0x41, 0x02, 0x21, 0x00, 0x0c})),
	} {
		in := bytes.Clone(m)
		if out, _, err := rewriteJumps(in); err == nil {
			t.Errorf("%s: rewritten without an error: %x", name, out)
		}
		if !bytes.Equal(in, m) {
			t.Errorf("%s: the input changed", name)
		}
	}
}

func FuzzRewriteJumps(f *testing.F) {
	f.Add(moduleWithCode(cat(head, []byte{0x41, 0x02, 0x21, 0x00, 0x0c, 0x03}, end, end, end, end, end)))
	f.Add(moduleWithCode(cat(head, end, []byte{0x20, 0x01, 0x04, 0x40, 0x41, 0x03, 0x21, 0x00, 0x0c, 0x03, 0x0b}, end, end, end, end)))
	f.Fuzz(func(t *testing.T, m []byte) {
		rewriteJumps(m)
	})
}
