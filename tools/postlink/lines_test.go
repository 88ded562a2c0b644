package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A program that leans on what the stripped tables must still give the
// runtime: stack growth and copying (frame sizes), the collector walking
// stacks (stack maps), goroutines, and a recovered panic's trace, which
// must still name its functions; and on the rewritten code, which the
// whole runtime is: loops, and goroutines resumed after the calls they
// blocked in.
const program = `package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

type node struct{ next *node; pad [64]byte }

func deep(n int, keep *node) int {
	var local [128]byte
	local[n%128] = byte(n)
	if n == 0 {
		runtime.GC()
		return int(keep.pad[0])
	}
	return deep(n-1, &node{next: keep}) + int(local[n%128]&0)
}

//go:noinline
func boom() { panic("boom") }

func main() {
	done := make(chan int)
	for i := 0; i < 4; i++ {
		go func(i int) { done <- deep(20000+i, &node{}) }(i)
	}
	sum := 0
	for i := 0; i < 4; i++ {
		sum += <-done
	}
	func() {
		defer func() {
			recover()
			stack := string(debug.Stack())
			fmt.Println("names:", strings.Contains(stack, "main.boom"), strings.Contains(stack, "main.main"))
			fmt.Println("lines:", strings.Contains(stack, "main.go:"))
			fmt.Print(stack)
		}()
		boom()
	}()
	fmt.Println("sum:", sum)
}
`

func TestRewrittenModuleRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a wasm program")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go is not on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module probe\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-ldflags=-s -w", "-trimpath", "-o", "probe.wasm", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	wasm := filepath.Join(dir, "probe.wasm")
	runner := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	run := func() string {
		t.Helper()
		out, err := exec.Command(node, "--stack-size=8192", runner, wasm).CombinedOutput()
		if err != nil {
			t.Fatalf("running the module: %v\n%s", err, out)
		}
		return string(out)
	}
	const want = "names: true true\n"
	if before := run(); !strings.Contains(before, want) || !strings.Contains(before, "lines: true\n") {
		t.Fatalf("the program before rewriting printed:\n%s", before)
	}
	orig, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	stripped, err := stripLines(orig)
	if err != nil {
		t.Fatal(err)
	}
	if len(stripped) != len(orig) || bytes.Equal(stripped, orig) {
		t.Fatalf("stripping gave %d bytes from %d, changed: %v", len(stripped), len(orig), !bytes.Equal(stripped, orig))
	}
	unsafePoints, inlTrees := countTables(t, orig)
	if unsafePoints < 100 || inlTrees < 100 {
		t.Fatalf("the program has %d unsafe-point tables and %d tables of inlined calls", unsafePoints, inlTrees)
	}
	if unsafePoints, inlTrees = countTables(t, stripped); unsafePoints != 0 || inlTrees != 0 {
		t.Fatalf("stripping left %d unsafe-point tables and %d tables of inlined calls", unsafePoints, inlTrees)
	}
	_, st, err := rewriteJumps(stripped)
	if err != nil {
		t.Fatal(err)
	}
	if st.forward < 1000 || st.backward < 100 {
		t.Fatalf("the runtime's jumps: %+v", st)
	}
	if err := rewriteFile(wasm); err != nil {
		t.Fatal(err)
	}
	after := run()
	t.Logf("the rewritten program printed:\n%s", after)
	if !strings.Contains(after, want) || !strings.Contains(after, "lines: false\n") || !strings.Contains(after, "sum: 0\n") {
		t.Fatalf("the rewritten program printed:\n%s", after)
	}
}

// countTables counts the functions with an unsafe-point table and with a
// table of inlined calls.
func countTables(t *testing.T, m []byte) (unsafePoints, inlTrees int) {
	t.Helper()
	segs, err := dataSegments(m)
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := findTables(memoryImage(m, segs))
	if err != nil {
		t.Fatal(err)
	}
	for i := range tabs.nfunc {
		f, err := tabs.record(i)
		if err != nil {
			t.Fatal(err)
		}
		npcdata := binary.LittleEndian.Uint32(f[funcNPCData:])
		if npcdata > pcdataUnsafePoint && binary.LittleEndian.Uint32(f[funcPCData+4*pcdataUnsafePoint:]) != 0 {
			unsafePoints++
		}
		if f[funcNFuncData] > funcdataInlTree && binary.LittleEndian.Uint32(f[funcPCData+4*(npcdata+funcdataInlTree):]) != noFuncdata {
			inlTrees++
		}
	}
	return unsafePoints, inlTrees
}

// Whatever the input, stripLines answers with an error or a module, and
// never changes its input.
func TestStripLinesRefusesWhatItCannotRead(t *testing.T) {
	valid := append(append([]byte(nil), wasmMagic...), 11, 1, 0) // an empty data section
	for name, m := range map[string][]byte{
		"empty":              nil,
		"not wasm":           []byte("hello, world"),
		"no data section":    wasmMagic,
		"no function tables": valid,
		"section too long":   append(append([]byte(nil), wasmMagic...), 11, 0x80, 0x80, 0x04),
		"segment past end":   append(append([]byte(nil), wasmMagic...), 11, 7, 1, 0, 0x41, 0, 0x0b, 9, 1),
		"no pc-value tables": moduleWithData(append(tableHeader(1, 72, 72, 72, 72, 72), oneFunction...)),
		"too many functions": moduleWithData(append(tableHeader(9, 72, 72, 72, 72, 73), 0, 0, 0, 0, 0, 0, 0, 0)),
		"offsets backwards":  moduleWithData(tableHeader(1, 72, 80, 72, 72, 72)),
		"no module data":     moduleWithData(append(tableHeader(1, 72, 72, 72, 72, 74), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
	} {
		in := bytes.Clone(m)
		if out, err := stripLines(in); err == nil {
			t.Errorf("%s: stripped without an error: %x", name, out)
		}
		if !bytes.Equal(in, m) {
			t.Errorf("%s: the input changed", name)
		}
	}
}

// A segment at the top of the 32-bit address space is refused before its
// memory image is made (2 GB).
func TestStripLinesBoundsTheMemoryImage(t *testing.T) {
	far := append(append([]byte(nil), wasmMagic...), 11, 11, 1, 0, 0x41, 0xff, 0xff, 0xff, 0xff, 0x07, 0x0b, 1, 1)
	if _, err := dataSegments(far); err == nil || !strings.Contains(err.Error(), "beyond") {
		t.Fatalf("a segment at 2 GB: got %v, want the memory bound's error", err)
	}
}

// tableHeader is a runtime table header: the function count, then the
// offsets of the names, compilation units, file names, pc-value tables and
// function table.
func tableHeader(nfunc uint64, offsets ...uint64) []byte {
	h := append([]byte(nil), pcHeaderStart...)
	for _, w := range append([]uint64{nfunc, 0, 0}, offsets...) {
		h = binary.LittleEndian.AppendUint64(h, w)
	}
	return h
}

// oneFunction is a function table of one function, its record at offset
// 16, entry 0, no pc-value tables.
var oneFunction = append([]byte{0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, make([]byte, funcPCData)...)

// moduleWithData is a module whose only section holds one data segment
// at address 0.
func moduleWithData(data []byte) []byte {
	seg := append([]byte{1, 0, 0x41, 0, 0x0b}, binary.AppendUvarint(nil, uint64(len(data)))...)
	seg = append(seg, data...)
	m := append(append([]byte(nil), wasmMagic...), 11)
	m = binary.AppendUvarint(m, uint64(len(seg)))
	return append(m, seg...)
}

func FuzzStripLines(f *testing.F) {
	f.Add(append(append([]byte(nil), wasmMagic...), 11, 7, 1, 0, 0x41, 0, 0x0b, 1, 1))
	f.Add(moduleWithData(tableHeader(1, 72, 72, 72, 72, 72)))
	f.Add(moduleWithData(append(tableHeader(1, 72, 72, 72, 72, 74), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
	f.Fuzz(func(t *testing.T, m []byte) {
		stripLines(m)
	})
}

func TestPcvalueMax(t *testing.T) {
	// At offset 1: -1 → 0 for 5 bytes, → 3 for 2, → 1 for 1, then the end.
	pctab := []byte{0, 2, 5, 6, 2, 3, 1, 0}
	for _, c := range []struct {
		off  uint32
		want int64
	}{{0, -1}, {1, 3}} {
		if got, err := pcvalueMax(pctab, c.off); err != nil || got != c.want {
			t.Errorf("table at %d: %d, %v; want %d", c.off, got, err, c.want)
		}
	}
	if _, err := pcvalueMax(pctab[:6], 1); err == nil {
		t.Error("a table cut short: no error")
	}
}
