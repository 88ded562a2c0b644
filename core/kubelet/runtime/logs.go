package runtime

import (
	"bytes"
	"io"
	"strings"
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
// per line. Offsets count everything the container ever wrote, line
// texts back to back.
type containerLog struct {
	// head is the first lines' text when the container began with output
	// the runtime holds for every container (logBlock), shared with them;
	// it spans offsets [0, textStart) until rotated away.
	head []byte
	text []byte // the container's own text, from offset textStart
	// textStart is the offset of text[0]; base, of the first kept line.
	textStart, base int
	lines           []logEntry
}

type logEntry struct {
	end    int   // offset of the line's end
	at     int64 // virtual time written, Unix nanoseconds
	stderr bool
}

func (l *containerLog) add(at time.Time, stderr bool, text []byte) {
	l.text = append(l.text, text...)
	l.appendEntry(logEntry{end: l.textStart + len(l.text), at: at.UnixNano(), stderr: stderr})
}

// addBlock adds the lines of b, sharing its text when they are the first.
func (l *containerLog) addBlock(at time.Time, stderr bool, b *logBlock) {
	if len(l.lines) > 0 || l.base > 0 {
		start := 0
		for _, end := range b.ends {
			l.add(at, stderr, b.text[start:end])
			start = end
		}
		return
	}
	l.head, l.textStart = b.text, len(b.text)
	for _, end := range b.ends {
		l.appendEntry(logEntry{end: end, at: at.UnixNano(), stderr: stderr})
	}
}

func (l *containerLog) appendEntry(e logEntry) {
	l.lines = append(l.lines, e)
	if len(l.lines) <= maxLogLines {
		return
	}
	l.base = l.lines[0].end
	l.lines = l.lines[1:]
	if l.base >= l.textStart {
		l.head = nil
		l.text = l.text[l.base-l.textStart:]
		l.textStart = l.base
	}
}

// all returns the kept lines, oldest first.
func (l *containerLog) all() []LogLine {
	if len(l.lines) == 0 {
		return nil
	}
	var b strings.Builder
	b.Grow(l.textStart - l.base + len(l.text))
	if l.head != nil {
		b.Write(l.head[l.base:])
	}
	b.Write(l.text)
	text := b.String()
	out := make([]LogLine, len(l.lines))
	start := l.base
	for i, e := range l.lines {
		out[i] = LogLine{Time: time.Unix(0, e.at).UTC(), Stderr: e.stderr, Text: text[start-l.base : e.end-l.base]}
		start = e.end
	}
	return out
}

// logBlock is output the runtime writes the same into many containers'
// logs (an image entrypoint's notice), split into lines once so the logs
// can share its text.
type logBlock struct {
	src  string // whole lines, each ending in a newline
	text []byte // their text back to back
	ends []int
}

func newLogBlock(src string) *logBlock {
	b := &logBlock{src: src}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(src, "\n"), "\n") {
		b.text = append(b.text, strings.TrimSuffix(line, "\n")...)
		b.ends = append(b.ends, len(b.text))
	}
	return b
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

// writeBlock writes b's lines.
func (w *lineWriter) writeBlock(b *logBlock) {
	if w.partial != nil {
		_, _ = io.WriteString(w, b.src)
		return
	}
	w.c.log.addBlock(w.c.rt.clock.Now(), w.stderr, b)
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
