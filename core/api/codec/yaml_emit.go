package codec

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JSONToYAML prints a JSON document as YAML exactly as sigs.k8s.io/yaml's
// JSONToYAML (and so `kubectl get -o yaml`) does: the JSON is read as YAML,
// then written by yaml.v2's emitter with keys in its natural order, two-space
// indentation, sequences not indented under their key, strings quoted only
// where YAML would read them as something else, multi-line strings as
// literal blocks and long plain strings folded after column 80.
func JSONToYAML(j []byte) ([]byte, error) {
	v, _, yerr := yamlToValue(j, false)
	if yerr != nil {
		return nil, yerr.syntaxError(j)
	}
	e := &emitter{indent: -1, whitespace: true, indention: true}
	e.events(v)
	e.run()
	return e.out, nil
}

// The emitter replays libyaml's emitter state machine over the events of a
// value, for the parts yaml.v2 uses when marshalling plain data: block
// collections, empty flow collections, and plain, quoted and literal scalars.

type emitEvent struct {
	typ      eventType
	value    string
	style    scalarStyle
	implicit bool // false only for scalars that must not be read as plain
}

type emitState uint8

const (
	esDocumentContent emitState = iota
	esDocumentEnd
	esFlowSequenceFirstItem
	esFlowMappingFirstKey
	esBlockSequenceFirstItem
	esBlockSequenceItem
	esBlockMappingFirstKey
	esBlockMappingKey
	esBlockMappingSimpleValue
	esBlockMappingValue
	esEnd
)

const (
	bestIndent = 2
	bestWidth  = 80
)

type emitter struct {
	out    []byte
	evs    []emitEvent
	head   int
	state  emitState
	states []emitState

	indent  int
	indents []int

	column     int
	whitespace bool
	indention  bool

	mappingContext   bool
	simpleKeyContext bool

	scalar scalarAnalysis
}

// events flattens a value into the events yaml.v2's encoder would emit.
func (e *emitter) events(v any) {
	switch v := v.(type) {
	case nil:
		e.evs = append(e.evs, emitEvent{typ: evScalar, value: "null", style: stylePlain, implicit: true})
	case bool:
		e.evs = append(e.evs, emitEvent{typ: evScalar, value: strconv.FormatBool(v), style: stylePlain, implicit: true})
	case int:
		e.evs = append(e.evs, emitEvent{typ: evScalar, value: strconv.Itoa(v), style: stylePlain, implicit: true})
	case uint64:
		e.evs = append(e.evs, emitEvent{typ: evScalar, value: strconv.FormatUint(v, 10), style: stylePlain, implicit: true})
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		switch {
		case math.IsInf(v, 1):
			s = ".inf"
		case math.IsInf(v, -1):
			s = "-.inf"
		case math.IsNaN(v):
			s = ".nan"
		}
		e.evs = append(e.evs, emitEvent{typ: evScalar, value: s, style: stylePlain, implicit: true})
	case string:
		e.evs = append(e.evs, stringEvent(v))
	case *yseq:
		e.evs = append(e.evs, emitEvent{typ: evSequenceStart})
		for _, x := range v.items {
			e.events(x)
		}
		e.evs = append(e.evs, emitEvent{typ: evSequenceEnd})
	case *ymap:
		// Keys from JSON are strings; anything else is spelled as JSON would.
		type kv struct {
			k string
			v any
		}
		entries := make([]kv, 0, len(v.keys))
		for i, k := range v.keys {
			s, ok := k.(string)
			if !ok {
				s, _ = keyString(k)
			}
			entries = append(entries, kv{s, v.vals[i]})
		}
		sort.SliceStable(entries, func(a, b int) bool { return naturalLess(entries[a].k, entries[b].k) })
		e.evs = append(e.evs, emitEvent{typ: evMappingStart})
		for _, x := range entries {
			e.evs = append(e.evs, stringEvent(x.k))
			e.events(x.v)
		}
		e.evs = append(e.evs, emitEvent{typ: evMappingEnd})
	}
}

// stringEvent chooses the style yaml.v2 asks for: literal for multi-line
// text, plain when the text would read back as the same string, double
// quotes otherwise (the emitter may still refine it).
func stringEvent(s string) emitEvent {
	tag, _ := resolvePlain("", s)
	canPlain := tag == tagStr && !isBase60Float(s)
	style := styleDoubleQuoted
	switch {
	case strings.Contains(s, "\n"):
		style = styleLiteral
	case canPlain:
		style = stylePlain
	}
	return emitEvent{typ: evScalar, value: s, style: style, implicit: true}
}

// naturalLess is yaml.v2's key order: runs of digits compare as numbers,
// letters sort before other characters.
func naturalLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

func (e *emitter) run() {
	e.state = esDocumentContent
	for e.head < len(e.evs) {
		ev := e.evs[e.head]
		if ev.typ == evScalar {
			e.scalar = analyzeScalar(ev.value)
		}
		e.step(ev)
		e.head++
	}
	// Document end: finish the last line.
	e.writeIndent()
}

func (e *emitter) step(ev emitEvent) {
	switch e.state {
	case esDocumentContent:
		e.states = append(e.states, esDocumentEnd)
		e.node(ev, false, false)
	case esFlowSequenceFirstItem, esFlowMappingFirstKey:
		// Only empty collections are written in flow style.
		open, close := "[", "]"
		if e.state == esFlowMappingFirstKey {
			open, close = "{", "}"
		}
		e.writeIndicator(open, true, true, false)
		e.writeIndicator(close, false, false, false)
		e.popState()
	case esBlockSequenceFirstItem, esBlockSequenceItem:
		if e.state == esBlockSequenceFirstItem {
			e.increaseIndent(false, e.mappingContext && !e.indention)
		}
		if ev.typ == evSequenceEnd {
			e.popIndent()
			e.popState()
			return
		}
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		e.states = append(e.states, esBlockSequenceItem)
		e.node(ev, false, false)
	case esBlockMappingFirstKey, esBlockMappingKey:
		if e.state == esBlockMappingFirstKey {
			e.increaseIndent(false, false)
		}
		if ev.typ == evMappingEnd {
			e.popIndent()
			e.popState()
			return
		}
		e.writeIndent()
		if e.checkSimpleKey() {
			e.states = append(e.states, esBlockMappingSimpleValue)
			e.node(ev, true, true)
			return
		}
		e.writeIndicator("?", true, false, true)
		e.states = append(e.states, esBlockMappingValue)
		e.node(ev, true, false)
	case esBlockMappingSimpleValue:
		e.writeIndicator(":", false, false, false)
		e.states = append(e.states, esBlockMappingKey)
		e.node(ev, true, false)
	case esBlockMappingValue:
		e.writeIndent()
		e.writeIndicator(":", true, false, true)
		e.states = append(e.states, esBlockMappingKey)
		e.node(ev, true, false)
	}
}

func (e *emitter) popState() {
	e.state = e.states[len(e.states)-1]
	e.states = e.states[:len(e.states)-1]
}

func (e *emitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

func (e *emitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	if e.indent < 0 {
		if flow {
			e.indent = bestIndent
		} else {
			e.indent = 0
		}
	} else if !indentless {
		e.indent += bestIndent
	}
}

func (e *emitter) nextIsEnd() bool {
	if e.head+1 >= len(e.evs) {
		return false
	}
	t := e.evs[e.head+1].typ
	return t == evSequenceEnd || t == evMappingEnd
}

// node starts a value; mapping and simpleKey say where it stands, which
// decides sequence indentation and scalar styles.
func (e *emitter) node(ev emitEvent, mapping, simpleKey bool) {
	e.mappingContext = mapping
	e.simpleKeyContext = simpleKey
	switch ev.typ {
	case evScalar:
		style := e.selectScalarStyle(ev)
		e.increaseIndent(true, false)
		switch style {
		case stylePlain:
			e.writePlain(ev.value, !e.simpleKeyContext)
		case styleSingleQuoted:
			e.writeSingleQuoted(ev.value, !e.simpleKeyContext)
		case styleDoubleQuoted:
			e.writeDoubleQuoted(ev.value, !e.simpleKeyContext)
		case styleLiteral:
			e.writeLiteral(ev.value)
		}
		e.popIndent()
		e.popState()
	case evSequenceStart:
		if e.nextIsEnd() {
			e.state = esFlowSequenceFirstItem
		} else {
			e.state = esBlockSequenceFirstItem
		}
	case evMappingStart:
		if e.nextIsEnd() {
			e.state = esFlowMappingFirstKey
		} else {
			e.state = esBlockMappingFirstKey
		}
	}
}

// checkSimpleKey: a key is written inline unless it spans lines, is a
// non-empty collection, or is longer than 128 bytes.
func (e *emitter) checkSimpleKey() bool {
	ev := e.evs[e.head]
	switch ev.typ {
	case evScalar:
		if e.scalar.multiline {
			return false
		}
		return len(ev.value) <= 128
	case evSequenceStart, evMappingStart:
		return e.nextIsEnd()
	}
	return false
}

func (e *emitter) selectScalarStyle(ev emitEvent) scalarStyle {
	style := ev.style
	a := &e.scalar
	if e.simpleKeyContext && a.multiline {
		style = styleDoubleQuoted
	}
	if style == stylePlain {
		if !a.blockPlainAllowed {
			style = styleSingleQuoted
		}
		if len(ev.value) == 0 && e.simpleKeyContext {
			style = styleSingleQuoted
		}
	}
	if style == styleSingleQuoted && !a.singleQuotedAllowed {
		style = styleDoubleQuoted
	}
	if style == styleLiteral && (!a.blockAllowed || e.simpleKeyContext) {
		style = styleDoubleQuoted
	}
	return style
}

type scalarAnalysis struct {
	multiline           bool
	blockPlainAllowed   bool
	singleQuotedAllowed bool
	blockAllowed        bool
}

// analyzeScalar decides which styles can carry the text unchanged.
func analyzeScalar(s string) scalarAnalysis {
	if len(s) == 0 {
		return scalarAnalysis{blockPlainAllowed: true, singleQuotedAllowed: true}
	}
	v := padded(s)
	n := len(s)
	var blockIndicators, lineBreaks, specialCharacters bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var previousSpace, previousBreak bool
	if n >= 3 && (s[:3] == "---" || s[:3] == "...") {
		blockIndicators = true
	}
	precededByWhitespace := true
	for i, w := 0, 0; i < n; i += w {
		w = utf8Width(v[i])
		if w == 0 {
			w = 1
		}
		followedByWhitespace := i+w >= n || isBlankAt(v, i+w)
		c := v[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if !isPrintableAt(v, i) {
			specialCharacters = true
		}
		switch {
		case c == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == n {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		case isBreakAt(v, i):
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == n {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isBlankzAt(v, i)
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlainAllowed = false
	}
	if trailingSpace {
		a.blockAllowed = false
	}
	if breakSpace {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
	}
	if spaceBreak || specialCharacters {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
		a.blockAllowed = false
	}
	if lineBreaks || blockIndicators {
		a.blockPlainAllowed = false
	}
	return a
}

// padded gives s with zero bytes after it, for libyaml-style lookahead.
func padded(s string) []byte {
	b := make([]byte, len(s)+4)
	copy(b, s)
	return b
}

func (e *emitter) put(c byte) {
	e.out = append(e.out, c)
	e.column++
}

func (e *emitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

// write copies one character.
func (e *emitter) write(v []byte, i *int) {
	w := utf8Width(v[*i])
	if w == 0 {
		w = 1
	}
	e.out = append(e.out, v[*i:*i+w]...)
	e.column++
	*i += w
}

func (e *emitter) writeBreak(v []byte, i *int) {
	if v[*i] == '\n' {
		e.putBreak()
		*i++
		return
	}
	e.write(v, i)
	e.column = 0
}

func (e *emitter) writeIndent() {
	indent := e.indent
	if indent < 0 {
		indent = 0
	}
	if !e.indention || e.column > indent || e.column == indent && !e.whitespace {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

func (e *emitter) writeIndicator(ind string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	for i := 0; i < len(ind); {
		e.write([]byte(ind), &i)
	}
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *emitter) writePlain(s string, allowBreaks bool) {
	v := padded(s)
	if !e.whitespace {
		e.put(' ')
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case v[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && v[i+1] != ' ' {
				e.writeIndent()
				i++
			} else {
				e.write(v, &i)
			}
			spaces = true
		case isBreakAt(v, i):
			if !breaks && v[i] == '\n' {
				e.putBreak()
			}
			e.writeBreak(v, &i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			e.write(v, &i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeSingleQuoted(s string, allowBreaks bool) {
	v := padded(s)
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case v[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 && v[i+1] != ' ' {
				e.writeIndent()
				i++
			} else {
				e.write(v, &i)
			}
			spaces = true
		case isBreakAt(v, i):
			if !breaks && v[i] == '\n' {
				e.putBreak()
			}
			e.writeBreak(v, &i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if v[i] == '\'' {
				e.put('\'')
			}
			e.write(v, &i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeDoubleQuoted(s string, allowBreaks bool) {
	v := padded(s)
	// libyaml's is_bom looks at the start of the value, so a value that
	// begins with U+FEFF has every character escaped.
	bomStart := len(s) >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF
	spaces := false
	e.writeIndicator("\"", true, false, false)
	for i := 0; i < len(s); {
		c := v[i]
		if !isPrintableAt(v, i) || bomStart || isBreakAt(v, i) || c == '"' || c == '\\' {
			r, w := utf8.DecodeRune(v[i:])
			if w == 0 {
				w = 1
			}
			i += w
			e.put('\\')
			switch r {
			case 0x00:
				e.put('0')
			case 0x07:
				e.put('a')
			case 0x08:
				e.put('b')
			case 0x09:
				e.put('t')
			case 0x0A:
				e.put('n')
			case 0x0B:
				e.put('v')
			case 0x0C:
				e.put('f')
			case 0x0D:
				e.put('r')
			case 0x1B:
				e.put('e')
			case 0x22:
				e.put('"')
			case 0x5C:
				e.put('\\')
			case 0x85:
				e.put('N')
			case 0xA0:
				e.put('_')
			case 0x2028:
				e.put('L')
			case 0x2029:
				e.put('P')
			default:
				digits := 8
				switch {
				case r <= 0xFF:
					e.put('x')
					digits = 2
				case r <= 0xFFFF:
					e.put('u')
					digits = 4
				default:
					e.put('U')
				}
				for k := (digits - 1) * 4; k >= 0; k -= 4 {
					d := byte(r>>uint(k)) & 0x0F
					if d < 10 {
						e.put('0' + d)
					} else {
						e.put('A' + d - 10)
					}
				}
			}
			spaces = false
		} else if c == ' ' {
			if allowBreaks && !spaces && e.column > bestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if v[i+1] == ' ' {
					e.put('\\')
				}
				i++
			} else {
				e.write(v, &i)
			}
			spaces = true
		} else {
			e.write(v, &i)
			spaces = false
		}
	}
	e.writeIndicator("\"", false, false, false)
	e.whitespace = false
	e.indention = false
}

func (e *emitter) writeLiteral(s string) {
	v := padded(s)
	e.writeIndicator("|", true, false, false)
	// Hints: an indentation digit when the text starts with a blank or a
	// break, then '-' (strip) or '+' (keep) for its final line breaks.
	if len(s) > 0 && (v[0] == ' ' || isBreakAt(v, 0)) {
		e.writeIndicator(string(rune('0'+bestIndent)), false, false, false)
	}
	chomp := ""
	if len(s) == 0 {
		chomp = "-"
	} else {
		i := len(s) - 1
		for i > 0 && v[i]&0xC0 == 0x80 {
			i--
		}
		if !isBreakAt(v, i) {
			chomp = "-"
		} else if i == 0 {
			chomp = "+"
		} else {
			i--
			for i > 0 && v[i]&0xC0 == 0x80 {
				i--
			}
			if isBreakAt(v, i) {
				chomp = "+"
			}
		}
	}
	if chomp != "" {
		e.writeIndicator(chomp, false, false, false)
	}
	e.putBreak()
	e.indention = true
	e.whitespace = true
	breaks := true
	for i := 0; i < len(s); {
		if isBreakAt(v, i) {
			e.writeBreak(v, &i)
			e.indention = true
			breaks = true
		} else {
			if breaks {
				e.writeIndent()
			}
			e.write(v, &i)
			e.indention = false
			breaks = false
		}
	}
}
