package codec

// The reader hands the scanner characters the way libyaml's reader does:
// input is decoded in windows of rawWindow bytes, and a bad byte (invalid
// UTF-8, a control character) is reported only when the window holding it is
// decoded. That timing decides which error wins when a document has both a
// syntax error and a bad byte, so it is kept.

const rawWindow = 512

// mark is a position: index counts characters from the start, line and
// column are 0-based, as libyaml counts them.
type mark struct {
	index, line, column int
}

// reader owns the input and the current position.
type reader struct {
	buf      []byte // input followed by zero padding, so lookahead never runs off the end
	n        int    // input length
	pos      int    // byte offset of the current character
	mark     mark
	frontier int  // bytes decoded so far
	rawEnd   int  // end of the raw window read so far
	unread   int  // decoded characters at and after pos
	eof      bool // the input has been read to the end
	started  bool // the encoding (BOM) has been looked at
	bufStart int  // where libyaml's buffer starts after its last compaction (see isBOMAtStart)

	err *yamlError
}

func newReader(in []byte) reader {
	buf := make([]byte, len(in)+8)
	copy(buf, in)
	return reader{buf: buf, n: len(in)}
}

// readerError records a problem found while decoding the input.
func (r *reader) readerError(problem string, offset int) bool {
	if r.err == nil {
		r.err = &yamlError{kind: readerErr, problem: problem, offset: offset}
	}
	return false
}

// readRaw extends the raw window by one read, as libyaml's string reader
// does: a read at the end of the input reports EOF.
func (r *reader) readRaw() {
	if r.rawEnd-r.frontier >= rawWindow || r.eof {
		return
	}
	if r.rawEnd == r.n {
		r.eof = true
		return
	}
	r.rawEnd = r.frontier + rawWindow
	if r.rawEnd > r.n {
		r.rawEnd = r.n
	}
}

// cache makes sure length characters are decoded at and after pos.
func (r *reader) cache(length int) bool {
	if r.unread >= length {
		return true
	}
	if r.err != nil {
		return false
	}
	if !r.started {
		r.started = true
		for !r.eof && r.rawEnd-r.frontier < 3 {
			r.readRaw()
		}
		if r.rawEnd-r.frontier >= 3 && r.buf[0] == 0xEF && r.buf[1] == 0xBB && r.buf[2] == 0xBF {
			r.frontier += 3
			r.pos = 3
		}
	}
	r.bufStart = r.pos
	first := true
	for r.unread < length {
		if !first || r.frontier == r.rawEnd {
			r.readRaw()
		}
		first = false
		for r.frontier < r.rawEnd {
			w, ok := r.decodeOne()
			if !ok {
				return false
			}
			if w == 0 {
				break // an incomplete sequence waits for the next read
			}
			r.frontier += w
			r.unread++
		}
		if r.eof {
			r.unread++ // the terminating NUL
			break
		}
	}
	return true
}

// decodeOne checks the character at frontier. It returns its width, 0 when
// the window ends inside it, or false on a reader error.
func (r *reader) decodeOne() (int, bool) {
	b := r.buf
	p := r.frontier
	avail := r.rawEnd - p
	octet := b[p]
	var w int
	var v rune
	switch {
	case octet&0x80 == 0:
		w, v = 1, rune(octet)
	case octet&0xE0 == 0xC0:
		w, v = 2, rune(octet&0x1F)
	case octet&0xF0 == 0xE0:
		w, v = 3, rune(octet&0x0F)
	case octet&0xF8 == 0xF0:
		w, v = 4, rune(octet&0x07)
	default:
		return 0, r.readerError("invalid leading UTF-8 octet", p)
	}
	if w > avail {
		if r.eof {
			return 0, r.readerError("incomplete UTF-8 octet sequence", p)
		}
		return 0, true
	}
	for k := 1; k < w; k++ {
		o := b[p+k]
		if o&0xC0 != 0x80 {
			return 0, r.readerError("invalid trailing UTF-8 octet", p+k)
		}
		v = v<<6 + rune(o&0x3F)
	}
	switch {
	case w == 1, w == 2 && v >= 0x80, w == 3 && v >= 0x800, w == 4 && v >= 0x10000:
	default:
		return 0, r.readerError("invalid length of a UTF-8 sequence", p)
	}
	if v >= 0xD800 && v <= 0xDFFF || v > 0x10FFFF {
		return 0, r.readerError("invalid Unicode character", p)
	}
	switch {
	case v == 0x09, v == 0x0A, v == 0x0D, v >= 0x20 && v <= 0x7E, v == 0x85,
		v >= 0xA0 && v <= 0xD7FF, v >= 0xE000 && v <= 0xFFFD, v >= 0x10000 && v <= 0x10FFFF:
	default:
		return 0, r.readerError("control characters are not allowed", p)
	}
	return w, true
}

// Character classes over the decoded input, as libyaml defines them.

func (r *reader) at(k int) byte { return r.buf[r.pos+k] }

func isAlpha(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '-'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' || c >= 'a' && c <= 'f'
}
func asHex(c byte) int {
	switch {
	case c >= 'A' && c <= 'F':
		return int(c) - 'A' + 10
	case c >= 'a' && c <= 'f':
		return int(c) - 'a' + 10
	}
	return int(c) - '0'
}

func isBreakAt(b []byte, i int) bool {
	return b[i] == '\r' || b[i] == '\n' ||
		b[i] == 0xC2 && b[i+1] == 0x85 ||
		b[i] == 0xE2 && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9)
}
func isBreakzAt(b []byte, i int) bool { return b[i] == 0 || isBreakAt(b, i) }
func isBlankAt(b []byte, i int) bool  { return b[i] == ' ' || b[i] == '\t' }
func isBlankzAt(b []byte, i int) bool { return isBlankAt(b, i) || isBreakzAt(b, i) }

// isPrintableAt is libyaml's is_printable: what may appear unescaped.
func isPrintableAt(b []byte, i int) bool {
	c := b[i]
	return c == 0x0A || c >= 0x20 && c <= 0x7E ||
		c == 0xC2 && b[i+1] >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && b[i+1] < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(b[i+1] == 0xBB && b[i+2] == 0xBF) && !(b[i+1] == 0xBF && (b[i+2] == 0xBE || b[i+2] == 0xBF))
}

// utf8Width is the length of the sequence a leading byte starts.
func utf8Width(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 0
}

func (r *reader) isBreak() bool  { return isBreakAt(r.buf, r.pos) }
func (r *reader) isBreakz() bool { return isBreakzAt(r.buf, r.pos) }
func (r *reader) isBlank() bool  { return isBlankAt(r.buf, r.pos) }
func (r *reader) isBlankz() bool { return isBlankzAt(r.buf, r.pos) }
func (r *reader) isZ() bool      { return r.buf[r.pos] == 0 }

// isBOMAtStart reproduces libyaml's is_bom, which looks at the start of its
// buffer rather than at the current character.
func (r *reader) isBOMAtStart() bool {
	b := r.buf[r.bufStart:]
	return b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
}

// skip moves over one character.
func (r *reader) skip() {
	r.mark.index++
	r.mark.column++
	r.unread--
	r.pos += utf8Width(r.buf[r.pos])
}

// skipLine moves over a line break (CR LF counts as one).
func (r *reader) skipLine() {
	b := r.buf
	if b[r.pos] == '\r' && b[r.pos+1] == '\n' {
		r.mark.index += 2
		r.mark.column = 0
		r.mark.line++
		r.unread -= 2
		r.pos += 2
	} else if r.isBreak() {
		r.mark.index++
		r.mark.column = 0
		r.mark.line++
		r.unread--
		r.pos += utf8Width(b[r.pos])
	}
}

// read appends the current character to s and moves over it.
func (r *reader) read(s []byte) []byte {
	w := utf8Width(r.buf[r.pos])
	s = append(s, r.buf[r.pos:r.pos+w]...)
	r.pos += w
	r.mark.index++
	r.mark.column++
	r.unread--
	return s
}

// readLine appends a line break, normalised to \n (LS and PS are kept).
func (r *reader) readLine(s []byte) []byte {
	b := r.buf
	p := r.pos
	switch {
	case b[p] == '\r' && b[p+1] == '\n':
		s = append(s, '\n')
		r.pos += 2
		r.mark.index++
		r.unread--
	case b[p] == '\r' || b[p] == '\n':
		s = append(s, '\n')
		r.pos++
	case b[p] == 0xC2 && b[p+1] == 0x85:
		s = append(s, '\n')
		r.pos += 2
	case b[p] == 0xE2 && b[p+1] == 0x80 && (b[p+2] == 0xA8 || b[p+2] == 0xA9):
		s = append(s, b[p:p+3]...)
		r.pos += 3
	default:
		return s
	}
	r.mark.index++
	r.mark.column = 0
	r.mark.line++
	r.unread--
	return s
}
