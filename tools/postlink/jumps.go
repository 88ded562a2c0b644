package main

import (
	"bytes"
	"errors"
	"fmt"
)

// Go's WebAssembly backend (cmd/internal/obj/wasm) lays out every function
// that jumps as one loop around a ladder of blocks: each basic block and
// each return point from a call starts after the end of one of the blocks,
// and a br_table at the top picks the block to resume at from the
// parameter PC_B. A jump sets PC_B and branches back to the loop, which
// dispatches it through the br_table.
//
// A jump forward, to a basic block whose block is still open where the
// jump stands, can instead branch out of that block directly: the same
// code runs next, without the loop's dispatch. rewriteJumps does this for
// every forward jump. PC_B is read only by the dispatch (and as a scratch
// register right after it is written), so leaving it unset on the direct
// path changes nothing the function can see. Backward jumps, the loops of
// the Go code, keep going through the loop.
//
// V8 counts a branch back to a loop against the function's budget for
// compiling it again with its optimizing compiler, weighed by the code's
// length from the loop's top; as every jump went to the function's top, a
// long function ran through that budget after a run or two.

// jumpStats counts what rewriteJumps found.
type jumpStats struct {
	functions int // functions with the loop and dispatch
	forward   int // jumps made direct branches
	backward  int // jumps left to the loop
}

// Control entries on the walk's stack: a resume block is its index (>= 1),
// anything else one of these.
const (
	ctlLoop  = -1 // the dispatch loop
	ctlOther = -2 // the unwinding exit block and the code's own blocks
)

// rewriteJumps returns the module with its functions' forward jumps made
// direct branches.
func rewriteJumps(m []byte) ([]byte, jumpStats, error) {
	var st jumpStats
	out, err := rewriteCode(m, func(body []byte) ([]byte, error) { return rewriteBody(body, &st) })
	return out, st, err
}

// rewriteBody rewrites one function body; one without Go's dispatch is
// returned as it is.
func rewriteBody(b []byte, st *jumpStats) ([]byte, error) {
	p, err := skipLocals(b)
	if err != nil {
		return nil, err
	}
	h, err := readDispatch(b, p)
	if err != nil || h == nil {
		return b, err
	}
	st.functions++
	out := append(make([]byte, 0, len(b)), b[:h.end]...)
	stack := h.open
	segment := 0 // the resume block whose code the walk is in
	for p = h.end; p < len(b); {
		op := b[p]
		next, err := instrEnd(b, p)
		if err != nil {
			return nil, err
		}
		switch op {
		case 0x04: // if: one holding only a forward jump becomes br_if
			if b[p+1] == 0x40 && next < len(b) && b[next] == 0x41 {
				inner := append(stack, ctlOther)
				if constEnd, err := instrEnd(b, next); err == nil {
					d, after, kind, err := h.classify(b, next, constEnd, inner, segment)
					if err != nil {
						return nil, err
					}
					if kind == forwardJump && after < len(b) && b[after] == 0x0b {
						out = append(out, 0x0d)
						out = appendUleb(out, uint64(d-1))
						st.forward++
						p = after + 1
						continue
					}
				}
			}
			stack = append(stack, ctlOther)
		case 0x02, 0x03: // block, loop
			stack = append(stack, ctlOther)
		case 0x0b: // end
			if len(stack) == 0 {
				if next != len(b) {
					return nil, errors.New("code after the function's end")
				}
				return append(out, b[p:next]...), nil
			}
			if k := stack[len(stack)-1]; k >= 1 {
				segment = k
			}
			stack = stack[:len(stack)-1]
		case 0x41: // i32.const C; local.set 0; br to the loop: a jump
			d, after, kind, err := h.classify(b, p, next, stack, segment)
			if err != nil {
				return nil, err
			}
			switch kind {
			case forwardJump:
				out = append(out, 0x0c)
				out = appendUleb(out, uint64(d))
				st.forward++
				p = after
				continue
			case backwardJump:
				st.backward++
			}
		}
		out = append(out, b[p:next]...)
		p = next
	}
	return nil, errors.New("the function has no end")
}

// dispatch is the head of a function as Go's backend writes it.
type dispatch struct {
	end    int      // where the code after the head starts
	labels []uint64 // the br_table's labels, default last
	open   []int    // the control stack after the head, outermost first
}

// readDispatch reads the head at p: the stack pointer loaded into its
// local, an optional block (the unwinding exit), the loop, blocks,
// local.get 0, br_table, end. It returns nil for a function without one.
func readDispatch(b []byte, p int) (*dispatch, error) {
	h := &dispatch{}
	if bytes.HasPrefix(b[p:], []byte{0x23, 0x00, 0x21, 0x01}) { // global.get SP; local.set 1
		p += 4
	}
	if bytes.HasPrefix(b[p:], []byte{0x02, 0x40, 0x03, 0x40}) {
		h.open = append(h.open, ctlOther)
		p += 2
	}
	if !bytes.HasPrefix(b[p:], []byte{0x03, 0x40}) {
		return nil, nil
	}
	h.open = append(h.open, ctlLoop)
	p += 2
	blocks := 0
	for ; bytes.HasPrefix(b[p:], []byte{0x02, 0x40}); p += 2 {
		blocks++
	}
	if !bytes.HasPrefix(b[p:], []byte{0x20, 0x00, 0x0e}) || blocks < 2 {
		return nil, nil
	}
	n, q, err := uleb(b, p+3)
	if err != nil || n > uint64(len(b)) {
		return nil, errors.New("malformed br_table")
	}
	for i := uint64(0); i <= n; i++ {
		var l uint64
		if l, q, err = uleb(b, q); err != nil {
			return nil, err
		}
		if l >= uint64(blocks) {
			return nil, fmt.Errorf("dispatch label %d past its %d blocks", l, blocks)
		}
		h.labels = append(h.labels, l)
	}
	if q >= len(b) || b[q] != 0x0b {
		return nil, nil
	}
	for k := blocks - 1; k >= 1; k-- {
		h.open = append(h.open, k)
	}
	h.end = q + 1
	return h, nil
}

// jump reports whether the i32.const at p (ending at next) starts a jump:
// the constant written to PC_B (local 0) and a branch to the loop. It
// returns the resume block the dispatch would pick and where the jump's
// instructions end.
func (h *dispatch) jump(b []byte, p, next int, stack []int) (target, after int, ok bool) {
	c, _, err := sleb(b, p+1)
	if err != nil || c < 0 || !bytes.HasPrefix(b[next:], []byte{0x21, 0x00, 0x0c}) {
		return 0, 0, false
	}
	d, after, err := uleb(b, next+3)
	if err != nil || d >= uint64(len(stack)) || stack[len(stack)-1-int(d)] != ctlLoop {
		return 0, 0, false
	}
	l := h.labels[min(uint64(c), uint64(len(h.labels)-1))]
	return int(l), after, true
}

const (
	notAJump = iota
	forwardJump
	backwardJump
)

// classify tells whether the i32.const at p (ending at next) starts a
// jump, in which direction from the walk's segment, and for a forward one
// the depth of the block to branch out of.
func (h *dispatch) classify(b []byte, p, next int, stack []int, segment int) (depth, after, kind int, err error) {
	target, after, ok := h.jump(b, p, next, stack)
	switch {
	case !ok:
		return 0, 0, notAJump, nil
	case target <= segment:
		return 0, after, backwardJump, nil
	}
	d, ok := depthOf(stack, target)
	if !ok {
		return 0, 0, notAJump, fmt.Errorf("a jump to block %d, which is not open", target)
	}
	return d, after, forwardJump, nil
}

// depthOf is the branch depth of resume block k from the top of stack,
// which holds it when k is ahead of the walk.
func depthOf(stack []int, k int) (int, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == k {
			return len(stack) - 1 - i, true
		}
	}
	return 0, false
}
