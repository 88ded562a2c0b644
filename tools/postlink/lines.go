package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// stripLines clears the runtime's line tables: each function's file and
// line tables, its first line and the table of calls inlined into it,
// which only tracebacks and runtime.Caller read. It also clears the
// unsafe-point tables, which only async preemption reads (a signal
// handler's, which js/wasm does not have). What the runtime needs to run
// (frame sizes, stack maps, function names) stays, and so does every
// offset: the module keeps its size and the cleared bytes are zeros, which
// compress to almost nothing. A panic's trace then names its functions
// without "file:line", an inlined call under its caller. The page's
// download is 9% smaller without them.

// The runtime's function tables as Go 1.20 and later lay them out for a
// 64-bit target (runtime/symtab.go's pcHeader, runtime2.go's _func):
// a header, function names, the compilation units' file lists, file
// names, the pc-value tables, then the function table (entry and offset
// of each function's _func record).
var pcHeaderStart = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8} // magic, pads, minLC 1, pointers of 8

const (
	pcHeaderSize = 72

	// offsets in a _func record
	funcEntryOff  = 0
	funcPCSP      = 16
	funcPCFile    = 20
	funcPCLine    = 24
	funcNPCData   = 28
	funcCUOffset  = 32
	funcStartLine = 36
	funcPCData    = 44 // npcdata offsets into the pc-value tables follow

	funcNFuncData = 43 // a byte; the funcdata offsets follow the pcdata's

	// The pc-value tables (runtime/internal abi's PCDATA_*): at each pc,
	// whether a signal may preempt there, and which inlined call the pc
	// belongs to.
	pcdataUnsafePoint  = 0
	pcdataInlTreeIndex = 2

	// funcdataInlTree is the function's table of inlined calls (abi's
	// FUNCDATA_InlTree), entries of inlTreeEntrySize bytes that
	// pcdataInlTreeIndex indexes; noFuncdata marks a funcdata as absent.
	funcdataInlTree  = 3
	inlTreeEntrySize = 16
	noFuncdata       = ^uint32(0)
)

// The runtime's module data (runtime/symtab.go's moduledata) as 64-bit
// words: the table header's address, then slices of the tables (address,
// length, capacity) in the header's order; gofunc, the base of every
// funcdata offset, is word 40.
const (
	moduleGofunc = 40
	moduleWords  = 42
)

// tables are the runtime's function tables, slices of linear memory.
type tables struct {
	cutab, filetab []byte
	pctab          []byte
	functab        []byte // the function table and the _func records
	nfunc          int
	// gofunc is linear memory from the funcdata's base on.
	gofunc []byte
}

// stripLines returns the module with its line tables cleared (see the
// package comment).
func stripLines(m []byte) ([]byte, error) {
	segs, err := dataSegments(m)
	if err != nil {
		return nil, err
	}
	mem := memoryImage(m, segs)
	t, err := findTables(mem)
	if err != nil {
		return nil, err
	}
	if err := t.clearLines(); err != nil {
		return nil, err
	}
	out := bytes.Clone(m)
	writeBack(out, mem, segs)
	return out, nil
}

func findTables(mem []byte) (*tables, error) {
	h := bytes.Index(mem, pcHeaderStart)
	if h < 0 || bytes.Contains(mem[h+1:], pcHeaderStart) {
		return nil, errors.New("no single table header of Go 1.20's layout in the module's data")
	}
	if len(mem)-h < pcHeaderSize {
		return nil, errors.New("the table header runs past the module's data")
	}
	word := func(i int) uint64 { return binary.LittleEndian.Uint64(mem[h+8+8*i:]) }
	nfunc := word(0)
	// word(1) is the number of files, word(2) unused
	offs := []uint64{word(3), word(4), word(5), word(6), word(7)} // names, cutab, filetab, pctab, functab
	for i, o := range offs {
		if o < pcHeaderSize || o > uint64(len(mem)-h) || (i > 0 && o < offs[i-1]) {
			return nil, fmt.Errorf("table offsets out of order: %v", offs)
		}
	}
	base := mem[h:]
	t := &tables{
		cutab:   base[offs[1]:offs[2]],
		filetab: base[offs[2]:offs[3]],
		pctab:   base[offs[3]:offs[4]],
		functab: base[offs[4]:],
	}
	if len(t.pctab) == 0 {
		return nil, errors.New("no pc-value tables")
	}
	if nfunc == 0 || nfunc > uint64(len(t.functab))/8 {
		return nil, fmt.Errorf("implausible function count %d", nfunc)
	}
	t.nfunc = int(nfunc)
	gofunc, err := findGofunc(mem, h, offs)
	if err != nil {
		return nil, err
	}
	t.gofunc = mem[gofunc:]
	return t, nil
}

// findGofunc finds the module data by its pointer to the table header
// followed by the function name table's slice, and returns its gofunc
// address, checked to lie past the function tables.
func findGofunc(mem []byte, h int, offs []uint64) (int, error) {
	var want [32]byte
	binary.LittleEndian.PutUint64(want[0:], uint64(h))
	binary.LittleEndian.PutUint64(want[8:], uint64(h)+offs[0])
	binary.LittleEndian.PutUint64(want[16:], offs[1]-offs[0])
	binary.LittleEndian.PutUint64(want[24:], offs[1]-offs[0])
	at := -1
	for i := 0; i+8*moduleWords <= len(mem); i += 8 {
		if bytes.Equal(mem[i:i+32], want[:]) {
			if at >= 0 {
				return 0, errors.New("two module data records refer to the table header")
			}
			at = i
		}
	}
	if at < 0 {
		return 0, errors.New("no module data of Go 1.26's layout refers to the table header")
	}
	gofunc := binary.LittleEndian.Uint64(mem[at+8*moduleGofunc:])
	if gofunc < uint64(h)+offs[4] || gofunc >= uint64(len(mem)) {
		return 0, fmt.Errorf("the funcdata's base %d is not past the function tables (%d)", gofunc, uint64(h)+offs[4])
	}
	return int(gofunc), nil
}

// record returns function i's _func record, checked against the function
// table's entry for it.
func (t *tables) record(i int) ([]byte, error) {
	entry := binary.LittleEndian.Uint32(t.functab[8*i:])
	off := uint64(binary.LittleEndian.Uint32(t.functab[8*i+4:]))
	if off+funcPCData > uint64(len(t.functab)) {
		return nil, fmt.Errorf("function %d: record past the end of the tables", i)
	}
	f := t.functab[off:]
	if binary.LittleEndian.Uint32(f[funcEntryOff:]) != entry {
		return nil, fmt.Errorf("function %d: its record does not start at its entry (not Go 1.20's layout)", i)
	}
	n := uint64(binary.LittleEndian.Uint32(f[funcNPCData:]))
	if funcPCData+4*n > uint64(len(f)) {
		return nil, fmt.Errorf("function %d: pcdata past the end of the tables", i)
	}
	return f, nil
}

// clearLines zeroes every function's file and line tables, first line,
// compilation unit (which only the file table is read through), unsafe
// points and inlining tables (the index and the calls it indexes, marked
// absent), and the pc-value bytes and file names nothing refers to any
// more.
func (t *tables) clearLines() error {
	keep := make([]bool, len(t.pctab))
	keep[0] = true // offset 0 means "no table"
	mark := func(off uint32) error {
		n, err := pcvalueLen(t.pctab, off)
		for i := range n {
			keep[int(off)+i] = true
		}
		return err
	}
	for i := range t.nfunc {
		f, err := t.record(i)
		if err != nil {
			return err
		}
		if err := mark(binary.LittleEndian.Uint32(f[funcPCSP:])); err != nil {
			return fmt.Errorf("function %d: %v", i, err)
		}
		npcdata := binary.LittleEndian.Uint32(f[funcNPCData:])
		for j := range npcdata {
			switch j {
			case pcdataInlTreeIndex:
				if err := t.clearInlTree(f, npcdata); err != nil {
					return fmt.Errorf("function %d: %v", i, err)
				}
				fallthrough
			case pcdataUnsafePoint:
				binary.LittleEndian.PutUint32(f[funcPCData+4*j:], 0)
				continue
			}
			if err := mark(binary.LittleEndian.Uint32(f[funcPCData+4*j:])); err != nil {
				return fmt.Errorf("function %d: %v", i, err)
			}
		}
		for _, field := range []int{funcPCFile, funcPCLine, funcCUOffset, funcStartLine} {
			binary.LittleEndian.PutUint32(f[field:], 0)
		}
	}
	for i, k := range keep {
		if !k {
			t.pctab[i] = 0
		}
	}
	clear(t.cutab)
	clear(t.filetab)
	return nil
}

// clearInlTree zeroes the inlined calls of the function whose record is
// f and marks them absent. Their count is not stored: the index table's
// largest value is the last one a pc refers to, and the entries past it,
// if any, are left as they are.
func (t *tables) clearInlTree(f []byte, npcdata uint32) error {
	nfuncdata := uint32(f[funcNFuncData])
	if nfuncdata <= funcdataInlTree {
		return nil
	}
	at := funcPCData + 4*(npcdata+funcdataInlTree)
	if uint64(at)+4 > uint64(len(f)) {
		return errors.New("funcdata past the end of the tables")
	}
	off := binary.LittleEndian.Uint32(f[at:])
	if off == noFuncdata {
		return nil
	}
	last, err := pcvalueMax(t.pctab, binary.LittleEndian.Uint32(f[funcPCData+4*pcdataInlTreeIndex:]))
	if err != nil {
		return err
	}
	if last >= 0 {
		end := uint64(off) + inlTreeEntrySize*uint64(last+1)
		if end > uint64(len(t.gofunc)) {
			return fmt.Errorf("inlined calls at %d past the end of memory", off)
		}
		clear(t.gofunc[off:end])
	}
	binary.LittleEndian.PutUint32(f[at:], noFuncdata)
	return nil
}

// pcvalueMax is the largest value in the pc-value table at off (values
// start at -1 and change by zigzag-encoded deltas), -1 for no table.
func pcvalueMax(pctab []byte, off uint32) (int64, error) {
	n, err := pcvalueLen(pctab, off)
	if err != nil || n == 0 {
		return -1, err
	}
	p := pctab[off : int(off)+n]
	v, best := int64(-1), int64(-1)
	for first := true; ; first = false {
		u, k := binary.Uvarint(p)
		if u == 0 && !first {
			break
		}
		v += int64(u>>1) ^ -int64(u&1)
		best = max(best, v)
		_, k2 := binary.Uvarint(p[k:])
		p = p[k+k2:]
	}
	return best, nil
}

// pcvalueLen is the length of the pc-value table at off: pairs of a value
// delta (zigzag varint) and a pc delta (varint), ended by a zero value
// delta after the first pair. Offset 0 is no table.
func pcvalueLen(pctab []byte, off uint32) (int, error) {
	if off == 0 {
		return 0, nil
	}
	if uint64(off) >= uint64(len(pctab)) {
		return 0, fmt.Errorf("pc-value table at %d past the end", off)
	}
	p := pctab[off:]
	for n, first := 0, true; ; first = false {
		v, k := binary.Uvarint(p[n:])
		if k <= 0 {
			return 0, fmt.Errorf("pc-value table at %d runs past the end", off)
		}
		n += k
		if v == 0 && !first {
			return n, nil
		}
		if _, k = binary.Uvarint(p[n:]); k <= 0 {
			return 0, fmt.Errorf("pc-value table at %d runs past the end", off)
		}
		n += k
	}
}
