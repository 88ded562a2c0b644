package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A segment is one active data segment of a module: where its bytes sit
// in the file and where they go in linear memory. Go's linker writes
// data as many such segments, leaving out long runs of zeros.
type segment struct {
	file int // offset of the bytes in the module file
	mem  int // address in linear memory
	size int
}

// maxMemoryImage bounds the memory the data segments may initialise, far
// above a Go module's (the page's ends below 8 MB), so that a malformed
// address cannot make the tool allocate gigabytes.
const maxMemoryImage = 256 << 20

var wasmMagic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// section finds the module's section with the id: where its header
// starts, and where its contents start and end.
func section(m []byte, id byte, name string) (header, start, end int, err error) {
	if !bytes.HasPrefix(m, wasmMagic) {
		return 0, 0, 0, errors.New("not a WebAssembly module (version 1)")
	}
	for p := len(wasmMagic); p < len(m); {
		size, q, err := uleb(m, p+1)
		if err != nil {
			return 0, 0, 0, err
		}
		end := q + int(size)
		if size > uint64(len(m)) || end > len(m) {
			return 0, 0, 0, fmt.Errorf("section %d runs past the end of the module", m[p])
		}
		if m[p] == id {
			return p, q, end, nil
		}
		p = end
	}
	return 0, 0, 0, fmt.Errorf("the module has no %s section", name)
}

// dataSegments lists the active data segments of the module, each an
// i32.const address as Go's linker writes them.
func dataSegments(m []byte) ([]segment, error) {
	_, start, end, err := section(m, 11, "data")
	if err != nil {
		return nil, err
	}
	return readDataSection(m[:end], start)
}

func readDataSection(m []byte, p int) ([]segment, error) {
	count, p, err := uleb(m, p)
	if err != nil {
		return nil, err
	}
	var segs []segment
	for i := uint64(0); i < count; i++ {
		var flags uint64
		if flags, p, err = uleb(m, p); err != nil {
			return nil, err
		}
		if flags != 0 || p >= len(m) || m[p] != 0x41 { // active, memory 0, i32.const
			return nil, fmt.Errorf("data segment %d is not an active segment at a constant address", i)
		}
		var addr int64
		if addr, p, err = sleb(m, p+1); err != nil {
			return nil, err
		}
		if p >= len(m) || m[p] != 0x0b || addr < 0 || addr > math.MaxInt32 {
			return nil, fmt.Errorf("data segment %d: unexpected address expression", i)
		}
		var size uint64
		if size, p, err = uleb(m, p+1); err != nil {
			return nil, err
		}
		if size > uint64(len(m)-p) {
			return nil, fmt.Errorf("data segment %d runs past the end of the module", i)
		}
		if uint64(addr)+size > maxMemoryImage {
			return nil, fmt.Errorf("data segment %d lies beyond %d MB of memory", i, maxMemoryImage>>20)
		}
		segs = append(segs, segment{file: p, mem: int(addr), size: int(size)})
		p += int(size)
	}
	return segs, nil
}

// memoryImage is linear memory as the data segments initialise it, up to
// the end of the last segment.
func memoryImage(m []byte, segs []segment) []byte {
	top := 0
	for _, s := range segs {
		top = max(top, s.mem+s.size)
	}
	mem := make([]byte, top)
	for _, s := range segs {
		copy(mem[s.mem:], m[s.file:s.file+s.size])
	}
	return mem
}

// writeBack copies memory into the segments' bytes of the module.
func writeBack(m, mem []byte, segs []segment) {
	for _, s := range segs {
		copy(m[s.file:s.file+s.size], mem[s.mem:])
	}
}

var errLEB = errors.New("malformed LEB128 number")

func uleb(b []byte, p int) (uint64, int, error) {
	v, n := binary.Uvarint(b[min(p, len(b)):])
	if n <= 0 {
		return 0, p, errLEB
	}
	return v, p + n, nil
}

func sleb(b []byte, p int) (int64, int, error) {
	var v int64
	var shift uint
	for ; p < len(b) && shift < 64; shift += 7 {
		c := b[p]
		p++
		v |= int64(c&0x7f) << shift
		if c < 0x80 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v, p, nil
		}
	}
	return 0, p, errLEB
}
