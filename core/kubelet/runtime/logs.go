package runtime

import (
	"bytes"
	"time"
)

// LogLine is one line a container wrote.
type LogLine struct {
	Time   time.Time
	Stderr bool
	Text   string
}

// maxLogLines bounds a container's log, as log rotation would.
const maxLogLines = 10000

// containerLog is what kubectl logs reads. Upstream's kubelet keeps it in
// files on disk; here it stays in memory for the container's life, so the
// lines share one buffer and their stamps a slice without pointers: two
// objects a garbage collection need not look into, instead of a string
// per line.
type containerLog struct {
	text  []byte // the kept lines' text, back to back
	lines []logEntry
	// base is the offset, in everything ever written, of text[0]: the end
	// of the last line rotated away.
	base int
}

type logEntry struct {
	end    int   // offset of the line's end, counted like base
	at     int64 // virtual time written, Unix nanoseconds
	stderr bool
}

func (l *containerLog) add(at time.Time, stderr bool, text []byte) {
	l.text = append(l.text, text...)
	l.lines = append(l.lines, logEntry{end: l.base + len(l.text), at: at.UnixNano(), stderr: stderr})
	if len(l.lines) > maxLogLines {
		drop := l.lines[0].end
		l.text = l.text[drop-l.base:]
		l.base = drop
		l.lines = l.lines[1:]
	}
}

// all returns the kept lines, oldest first.
func (l *containerLog) all() []LogLine {
	if len(l.lines) == 0 {
		return nil
	}
	text := string(l.text)
	out := make([]LogLine, len(l.lines))
	start := l.base
	for i, e := range l.lines {
		out[i] = LogLine{Time: time.Unix(0, e.at).UTC(), Stderr: e.stderr, Text: text[start-l.base : e.end-l.base]}
		start = e.end
	}
	return out
}

// lineWriter turns a stream into timestamped log lines.
type lineWriter struct {
	c      *Container
	stderr bool
	// partial is a line not ended yet; nil between lines, so a container
	// that wrote whole lines holds no buffer here.
	partial []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			break
		}
		if w.partial != nil {
			w.add(append(w.partial, p[:i]...))
			w.partial = nil
		} else {
			w.add(p[:i])
		}
		p = p[i+1:]
	}
	if len(p) > 0 {
		w.partial = append(w.partial, p...)
	}
	return n, nil
}

func (w *lineWriter) flush() {
	if len(w.partial) > 0 {
		w.add(w.partial)
		w.partial = nil
	}
}

func (w *lineWriter) add(text []byte) {
	w.c.log.add(w.c.rt.clock.Now(), w.stderr, text)
}

// Logs returns the container's log lines, oldest first.
func (c *Container) Logs() []LogLine { return c.log.all() }
