package codec

import "bytes"

// The parser turns tokens into events with libyaml's state machine, whose
// error words ("did not find expected key") are what kubectl prints.

type eventType uint8

const (
	evNone eventType = iota
	evStreamStart
	evStreamEnd
	evDocumentStart
	evDocumentEnd
	evAlias
	evScalar
	evSequenceStart
	evSequenceEnd
	evMappingStart
	evMappingEnd
)

var eventNames = [...]string{"none", "stream start", "stream end", "document start", "document end",
	"alias", "scalar", "sequence start", "sequence end", "mapping start", "mapping end"}

type event struct {
	typ        eventType
	start, end mark
	anchor     []byte
	tag        []byte
	value      []byte
	implicit   bool // plain scalar without tag, or collection without tag
	style      scalarStyle
}

type parseState uint8

const (
	psStreamStart parseState = iota
	psImplicitDocumentStart
	psDocumentStart
	psDocumentContent
	psDocumentEnd
	psBlockNode
	psBlockNodeOrIndentlessSequence
	psFlowNode
	psBlockSequenceFirstEntry
	psBlockSequenceEntry
	psIndentlessSequenceEntry
	psBlockMappingFirstKey
	psBlockMappingKey
	psBlockMappingValue
	psFlowSequenceFirstEntry
	psFlowSequenceEntry
	psFlowSequenceEntryMappingKey
	psFlowSequenceEntryMappingValue
	psFlowSequenceEntryMappingEnd
	psFlowMappingFirstKey
	psFlowMappingKey
	psFlowMappingValue
	psFlowMappingEmptyValue
	psEnd
)

type tagDirective struct{ handle, prefix []byte }

var defaultTagDirectives = []tagDirective{
	{[]byte("!"), []byte("!")},
	{[]byte("!!"), []byte("tag:yaml.org,2002:")},
}

type parser struct {
	scanner
	state         parseState
	states        []parseState
	marks         []mark
	tagDirectives []tagDirective
}

func newParser(in []byte) *parser {
	return &parser{scanner: scanner{reader: newReader(in)}}
}

func (p *parser) parserError(problem string, problemMark mark) bool {
	if p.err == nil {
		p.err = &yamlError{kind: parserErr, problem: problem, problemMark: problemMark}
	}
	return false
}

func (p *parser) parserErrorContext(context string, contextMark mark, problem string, problemMark mark) bool {
	if p.err == nil {
		p.err = &yamlError{kind: parserErr, context: context, contextMark: contextMark, problem: problem, problemMark: problemMark}
	}
	return false
}

func (p *parser) popState() {
	p.state = p.states[len(p.states)-1]
	p.states = p.states[:len(p.states)-1]
}

func (p *parser) popMark() mark {
	m := p.marks[len(p.marks)-1]
	p.marks = p.marks[:len(p.marks)-1]
	return m
}

// parse produces the next event; false means p.err is set. After the
// stream ends it returns an event of type evNone.
func (p *parser) parse(e *event) bool {
	*e = event{}
	if p.streamEndProduced || p.err != nil || p.state == psEnd {
		return p.err == nil
	}
	switch p.state {
	case psStreamStart:
		return p.parseStreamStart(e)
	case psImplicitDocumentStart:
		return p.parseDocumentStart(e, true)
	case psDocumentStart:
		return p.parseDocumentStart(e, false)
	case psDocumentContent:
		return p.parseDocumentContent(e)
	case psDocumentEnd:
		return p.parseDocumentEnd(e)
	case psBlockNode:
		return p.parseNode(e, true, false)
	case psBlockNodeOrIndentlessSequence:
		return p.parseNode(e, true, true)
	case psFlowNode:
		return p.parseNode(e, false, false)
	case psBlockSequenceFirstEntry:
		return p.parseBlockSequenceEntry(e, true)
	case psBlockSequenceEntry:
		return p.parseBlockSequenceEntry(e, false)
	case psIndentlessSequenceEntry:
		return p.parseIndentlessSequenceEntry(e)
	case psBlockMappingFirstKey:
		return p.parseBlockMappingKey(e, true)
	case psBlockMappingKey:
		return p.parseBlockMappingKey(e, false)
	case psBlockMappingValue:
		return p.parseBlockMappingValue(e)
	case psFlowSequenceFirstEntry:
		return p.parseFlowSequenceEntry(e, true)
	case psFlowSequenceEntry:
		return p.parseFlowSequenceEntry(e, false)
	case psFlowSequenceEntryMappingKey:
		return p.parseFlowSequenceEntryMappingKey(e)
	case psFlowSequenceEntryMappingValue:
		return p.parseFlowSequenceEntryMappingValue(e)
	case psFlowSequenceEntryMappingEnd:
		return p.parseFlowSequenceEntryMappingEnd(e)
	case psFlowMappingFirstKey:
		return p.parseFlowMappingKey(e, true)
	case psFlowMappingKey:
		return p.parseFlowMappingKey(e, false)
	case psFlowMappingValue:
		return p.parseFlowMappingValue(e, false)
	case psFlowMappingEmptyValue:
		return p.parseFlowMappingValue(e, true)
	}
	return p.parserError("invalid parser state", p.mark)
}

func (p *parser) parseStreamStart(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ != tokStreamStart {
		return p.parserError("did not find expected <stream-start>", t.start)
	}
	p.state = psImplicitDocumentStart
	*e = event{typ: evStreamStart, start: t.start, end: t.end}
	p.next()
	return true
}

func (p *parser) parseDocumentStart(e *event, implicit bool) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if !implicit {
		for t.typ == tokDocumentEnd {
			p.next()
			if t = p.peek(); t == nil {
				return false
			}
		}
	}
	switch {
	case implicit && t.typ != tokVersionDirective && t.typ != tokTagDirective && t.typ != tokDocumentStart && t.typ != tokStreamEnd:
		if !p.processDirectives() {
			return false
		}
		p.states = append(p.states, psDocumentEnd)
		p.state = psBlockNode
		*e = event{typ: evDocumentStart, start: t.start, end: t.end}
	case t.typ != tokStreamEnd:
		start := t.start
		if !p.processDirectives() {
			return false
		}
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokDocumentStart {
			return p.parserError("did not find expected <document start>", t.start)
		}
		p.states = append(p.states, psDocumentEnd)
		p.state = psDocumentContent
		*e = event{typ: evDocumentStart, start: start, end: t.end}
		p.next()
	default:
		p.state = psEnd
		*e = event{typ: evStreamEnd, start: t.start, end: t.end}
		p.next()
	}
	return true
}

func (p *parser) parseDocumentContent(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	switch t.typ {
	case tokVersionDirective, tokTagDirective, tokDocumentStart, tokDocumentEnd, tokStreamEnd:
		p.popState()
		return p.emptyScalar(e, t.start)
	}
	return p.parseNode(e, true, false)
}

func (p *parser) parseDocumentEnd(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	start, end := t.start, t.start
	if t.typ == tokDocumentEnd {
		end = t.end
		p.next()
	}
	p.tagDirectives = p.tagDirectives[:0]
	p.state = psDocumentStart
	*e = event{typ: evDocumentEnd, start: start, end: end}
	return true
}

func (p *parser) parseNode(e *event, block, indentlessSequence bool) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ == tokAlias {
		p.popState()
		*e = event{typ: evAlias, start: t.start, end: t.end, anchor: t.value}
		p.next()
		return true
	}
	start, end := t.start, t.start
	var hasTag bool
	var tagHandle, tagSuffix, anchor []byte
	var tagMark mark
	if t.typ == tokAnchor {
		anchor = t.value
		start, end = t.start, t.end
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ == tokTag {
			hasTag = true
			tagHandle, tagSuffix, tagMark, end = t.value, t.suffix, t.start, t.end
			p.next()
			if t = p.peek(); t == nil {
				return false
			}
		}
	} else if t.typ == tokTag {
		hasTag = true
		tagHandle, tagSuffix = t.value, t.suffix
		start, tagMark, end = t.start, t.start, t.end
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ == tokAnchor {
			anchor, end = t.value, t.end
			p.next()
			if t = p.peek(); t == nil {
				return false
			}
		}
	}
	var tag []byte
	if hasTag {
		if len(tagHandle) == 0 {
			tag = tagSuffix
		} else {
			for _, d := range p.tagDirectives {
				if bytes.Equal(d.handle, tagHandle) {
					tag = append(append([]byte(nil), d.prefix...), tagSuffix...)
					break
				}
			}
			if len(tag) == 0 {
				return p.parserErrorContext("while parsing a node", start, "found undefined tag handle", tagMark)
			}
		}
	}
	implicit := len(tag) == 0
	if indentlessSequence && t.typ == tokBlockEntry {
		p.state = psIndentlessSequenceEntry
		*e = event{typ: evSequenceStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}
		return true
	}
	switch {
	case t.typ == tokScalar:
		plainImplicit := len(tag) == 0 && t.style == stylePlain || len(tag) == 1 && tag[0] == '!'
		p.popState()
		*e = event{typ: evScalar, start: start, end: t.end, anchor: anchor, tag: tag, value: t.value, implicit: plainImplicit, style: t.style}
		p.next()
		return true
	case t.typ == tokFlowSequenceStart:
		p.state = psFlowSequenceFirstEntry
		*e = event{typ: evSequenceStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}
		return true
	case t.typ == tokFlowMappingStart:
		p.state = psFlowMappingFirstKey
		*e = event{typ: evMappingStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}
		return true
	case block && t.typ == tokBlockSequenceStart:
		p.state = psBlockSequenceFirstEntry
		*e = event{typ: evSequenceStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}
		return true
	case block && t.typ == tokBlockMappingStart:
		p.state = psBlockMappingFirstKey
		*e = event{typ: evMappingStart, start: start, end: t.end, anchor: anchor, tag: tag, implicit: implicit}
		return true
	case len(anchor) > 0 || len(tag) > 0:
		// An anchor or tag with nothing after it is an empty scalar.
		p.popState()
		*e = event{typ: evScalar, start: start, end: end, anchor: anchor, tag: tag, implicit: implicit, style: stylePlain}
		return true
	}
	context := "while parsing a flow node"
	if block {
		context = "while parsing a block node"
	}
	return p.parserErrorContext(context, start, "did not find expected node content", t.start)
}

func (p *parser) parseBlockSequenceEntry(e *event, first bool) bool {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.next()
	}
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ == tokBlockEntry {
		m := t.end
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokBlockEntry && t.typ != tokBlockEnd {
			p.states = append(p.states, psBlockSequenceEntry)
			return p.parseNode(e, true, false)
		}
		p.state = psBlockSequenceEntry
		return p.emptyScalar(e, m)
	}
	if t.typ == tokBlockEnd {
		p.popState()
		p.popMark()
		*e = event{typ: evSequenceEnd, start: t.start, end: t.end}
		p.next()
		return true
	}
	return p.parserErrorContext("while parsing a block collection", p.popMark(), "did not find expected '-' indicator", t.start)
}

func (p *parser) parseIndentlessSequenceEntry(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ == tokBlockEntry {
		m := t.end
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokBlockEntry && t.typ != tokKey && t.typ != tokValue && t.typ != tokBlockEnd {
			p.states = append(p.states, psIndentlessSequenceEntry)
			return p.parseNode(e, true, false)
		}
		p.state = psIndentlessSequenceEntry
		return p.emptyScalar(e, m)
	}
	p.popState()
	*e = event{typ: evSequenceEnd, start: t.start, end: t.start}
	return true
}

func (p *parser) parseBlockMappingKey(e *event, first bool) bool {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.next()
	}
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ == tokKey {
		m := t.end
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokKey && t.typ != tokValue && t.typ != tokBlockEnd {
			p.states = append(p.states, psBlockMappingValue)
			return p.parseNode(e, true, true)
		}
		p.state = psBlockMappingValue
		return p.emptyScalar(e, m)
	}
	if t.typ == tokBlockEnd {
		p.popState()
		p.popMark()
		*e = event{typ: evMappingEnd, start: t.start, end: t.end}
		p.next()
		return true
	}
	return p.parserErrorContext("while parsing a block mapping", p.popMark(), "did not find expected key", t.start)
}

func (p *parser) parseBlockMappingValue(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ == tokValue {
		m := t.end
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokKey && t.typ != tokValue && t.typ != tokBlockEnd {
			p.states = append(p.states, psBlockMappingKey)
			return p.parseNode(e, true, true)
		}
		p.state = psBlockMappingKey
		return p.emptyScalar(e, m)
	}
	p.state = psBlockMappingKey
	return p.emptyScalar(e, t.start)
}

func (p *parser) parseFlowSequenceEntry(e *event, first bool) bool {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.next()
	}
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ != tokFlowSequenceEnd {
		if !first {
			if t.typ != tokFlowEntry {
				return p.parserErrorContext("while parsing a flow sequence", p.popMark(), "did not find expected ',' or ']'", t.start)
			}
			p.next()
			if t = p.peek(); t == nil {
				return false
			}
		}
		if t.typ == tokKey {
			p.state = psFlowSequenceEntryMappingKey
			*e = event{typ: evMappingStart, start: t.start, end: t.end, implicit: true}
			p.next()
			return true
		} else if t.typ != tokFlowSequenceEnd {
			p.states = append(p.states, psFlowSequenceEntry)
			return p.parseNode(e, false, false)
		}
	}
	p.popState()
	p.popMark()
	*e = event{typ: evSequenceEnd, start: t.start, end: t.end}
	p.next()
	return true
}

func (p *parser) parseFlowSequenceEntryMappingKey(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ != tokValue && t.typ != tokFlowEntry && t.typ != tokFlowSequenceEnd {
		p.states = append(p.states, psFlowSequenceEntryMappingValue)
		return p.parseNode(e, false, false)
	}
	m := t.end
	p.next()
	p.state = psFlowSequenceEntryMappingValue
	return p.emptyScalar(e, m)
}

func (p *parser) parseFlowSequenceEntryMappingValue(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	// The empty value sits where the ':' (or whatever came instead) was.
	m := t.start
	if t.typ == tokValue {
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokFlowEntry && t.typ != tokFlowSequenceEnd {
			p.states = append(p.states, psFlowSequenceEntryMappingEnd)
			return p.parseNode(e, false, false)
		}
	}
	p.state = psFlowSequenceEntryMappingEnd
	return p.emptyScalar(e, m)
}

func (p *parser) parseFlowSequenceEntryMappingEnd(e *event) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	p.state = psFlowSequenceEntry
	*e = event{typ: evMappingEnd, start: t.start, end: t.start}
	return true
}

func (p *parser) parseFlowMappingKey(e *event, first bool) bool {
	if first {
		t := p.peek()
		p.marks = append(p.marks, t.start)
		p.next()
	}
	t := p.peek()
	if t == nil {
		return false
	}
	if t.typ != tokFlowMappingEnd {
		if !first {
			if t.typ != tokFlowEntry {
				return p.parserErrorContext("while parsing a flow mapping", p.popMark(), "did not find expected ',' or '}'", t.start)
			}
			p.next()
			if t = p.peek(); t == nil {
				return false
			}
		}
		if t.typ == tokKey {
			p.next()
			if t = p.peek(); t == nil {
				return false
			}
			if t.typ != tokValue && t.typ != tokFlowEntry && t.typ != tokFlowMappingEnd {
				p.states = append(p.states, psFlowMappingValue)
				return p.parseNode(e, false, false)
			}
			p.state = psFlowMappingValue
			return p.emptyScalar(e, t.start)
		} else if t.typ != tokFlowMappingEnd {
			p.states = append(p.states, psFlowMappingEmptyValue)
			return p.parseNode(e, false, false)
		}
	}
	p.popState()
	p.popMark()
	*e = event{typ: evMappingEnd, start: t.start, end: t.end}
	p.next()
	return true
}

func (p *parser) parseFlowMappingValue(e *event, empty bool) bool {
	t := p.peek()
	if t == nil {
		return false
	}
	if empty {
		p.state = psFlowMappingKey
		return p.emptyScalar(e, t.start)
	}
	if t.typ == tokValue {
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
		if t.typ != tokFlowEntry && t.typ != tokFlowMappingEnd {
			p.states = append(p.states, psFlowMappingKey)
			return p.parseNode(e, false, false)
		}
	}
	p.state = psFlowMappingKey
	return p.emptyScalar(e, t.start)
}

func (p *parser) emptyScalar(e *event, m mark) bool {
	*e = event{typ: evScalar, start: m, end: m, implicit: true, style: stylePlain}
	return true
}

func (p *parser) processDirectives() bool {
	t := p.peek()
	if t == nil {
		return false
	}
	seenVersion := false
	for t.typ == tokVersionDirective || t.typ == tokTagDirective {
		if t.typ == tokVersionDirective {
			if seenVersion {
				return p.parserError("found duplicate %YAML directive", t.start)
			}
			if t.major != 1 || t.minor != 1 {
				return p.parserError("found incompatible YAML document", t.start)
			}
			seenVersion = true
		} else if !p.appendTagDirective(tagDirective{t.value, t.suffix}, false, t.start) {
			return false
		}
		p.next()
		if t = p.peek(); t == nil {
			return false
		}
	}
	for _, d := range defaultTagDirectives {
		if !p.appendTagDirective(d, true, t.start) {
			return false
		}
	}
	return true
}

func (p *parser) appendTagDirective(d tagDirective, allowDuplicates bool, m mark) bool {
	for _, have := range p.tagDirectives {
		if bytes.Equal(d.handle, have.handle) {
			if allowDuplicates {
				return true
			}
			return p.parserError("found duplicate %TAG directive", m)
		}
	}
	p.tagDirectives = append(p.tagDirectives, tagDirective{
		handle: append([]byte(nil), d.handle...),
		prefix: append([]byte(nil), d.prefix...),
	})
	return true
}
