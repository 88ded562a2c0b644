package playground

import (
	"io"
	"time"
)

// outBuffer holds a command's output until the command ends, waits or
// has held it for a slice of a frame. Printers write a table cell by cell
// (text/tabwriter): handed on as written, `kubectl get pods -o wide` on
// 100 pods reached the page's terminal in two thousand writes, each a
// call into JavaScript and a write to xterm.
type outBuffer struct {
	w     io.Writer
	buf   []byte
	since time.Time // when the oldest byte held was written
	wall  func() time.Time
}

// outHold is how long output may wait for more before it is shown.
const outHold = 8 * time.Millisecond

func (b *outBuffer) Write(p []byte) (int, error) {
	if len(b.buf) == 0 {
		b.since = b.wall()
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// Flush hands on what is held.
func (b *outBuffer) Flush() {
	if len(b.buf) > 0 {
		b.w.Write(b.buf)
		b.buf = b.buf[:0]
	}
}

// spare returns the emptied buffer for the next command, unless a long
// output (a log, a large -o yaml) made it too big to keep around.
func (b *outBuffer) spare() []byte {
	if cap(b.buf) > maxSpareOut {
		return nil
	}
	return b.buf[:0]
}

// maxSpareOut is the largest buffer kept between commands: a table of a
// few hundred rows.
const maxSpareOut = 64 << 10

// flushIfHeld hands on output held for longer than outHold.
func (b *outBuffer) flushIfHeld() {
	if len(b.buf) > 0 && b.wall().Sub(b.since) >= outHold {
		b.Flush()
	}
}
