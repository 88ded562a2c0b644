package codec

import "strconv"

// The scanner turns characters into tokens, following libyaml's scanner
// step for step (simple keys, indentation stack, flow levels), so that the
// same input fails at the same place with the same words.

type tokenType uint8

const (
	tokNone tokenType = iota
	tokStreamStart
	tokStreamEnd
	tokVersionDirective
	tokTagDirective
	tokDocumentStart
	tokDocumentEnd
	tokBlockSequenceStart
	tokBlockMappingStart
	tokBlockEnd
	tokFlowSequenceStart
	tokFlowSequenceEnd
	tokFlowMappingStart
	tokFlowMappingEnd
	tokBlockEntry
	tokFlowEntry
	tokKey
	tokValue
	tokAlias
	tokAnchor
	tokTag
	tokScalar
)

type scalarStyle uint8

const (
	stylePlain scalarStyle = iota + 1
	styleSingleQuoted
	styleDoubleQuoted
	styleLiteral
	styleFolded
)

type token struct {
	typ        tokenType
	start, end mark
	value      []byte // scalar text, anchor or alias name, tag handle, %TAG handle
	suffix     []byte // tag suffix, %TAG prefix
	style      scalarStyle
	major      int // %YAML version
	minor      int
}

type simpleKey struct {
	possible    bool
	required    bool
	tokenNumber int
	mark        mark
}

// Limits libyaml enforces against runaway nesting.
const (
	maxFlowLevel = 10000
	maxIndents   = 10000
)

type scanner struct {
	reader

	tokens         []token
	head           int // index of the next token to hand out
	tokensParsed   int // tokens handed out so far
	tokenAvailable bool

	streamStartProduced bool
	streamEndProduced   bool

	flowLevel        int
	indent           int
	indents          []int
	simpleKeyAllowed bool
	simpleKeys       []simpleKey
	keysByToken      map[int]int // token number → index in simpleKeys
}

func (s *scanner) scannerError(context string, contextMark mark, problem string) bool {
	if s.err == nil {
		s.err = &yamlError{kind: scannerErr, context: context, contextMark: contextMark, problem: problem, problemMark: s.mark}
	}
	return false
}

// insert puts a token at pos places after the queue head, or at the end when pos < 0.
func (s *scanner) insert(pos int, t token) {
	if s.head > 0 && s.head == len(s.tokens) {
		s.tokens = s.tokens[:0]
		s.head = 0
	}
	if pos < 0 {
		s.tokens = append(s.tokens, t)
		return
	}
	at := s.head + pos
	s.tokens = append(s.tokens, token{})
	copy(s.tokens[at+1:], s.tokens[at:])
	s.tokens[at] = t
}

// peek returns the next token without consuming it, or nil on error.
func (s *scanner) peek() *token {
	if s.tokenAvailable || s.fetchMoreTokens() {
		return &s.tokens[s.head]
	}
	return nil
}

// next consumes the token peek returned.
func (s *scanner) next() {
	s.tokenAvailable = false
	s.tokensParsed++
	s.streamEndProduced = s.tokens[s.head].typ == tokStreamEnd
	s.head++
}

func (s *scanner) fetchMoreTokens() bool {
	if s.err != nil {
		return false
	}
	for {
		if s.head != len(s.tokens) {
			// The head token is final unless a pending simple key may
			// still turn into a KEY in front of it.
			i, ok := s.keysByToken[s.tokensParsed]
			if !ok {
				break
			}
			valid, ok := s.simpleKeyIsValid(&s.simpleKeys[i])
			if !ok {
				return false
			}
			if !valid {
				break
			}
		}
		if !s.fetchNextToken() {
			return false
		}
	}
	s.tokenAvailable = true
	return true
}

func (s *scanner) fetchNextToken() bool {
	if !s.cache(1) {
		return false
	}
	if !s.streamStartProduced {
		return s.fetchStreamStart()
	}
	if !s.scanToNextToken() {
		return false
	}
	s.unrollIndent(s.mark.column)
	if !s.cache(4) {
		return false
	}
	if s.isZ() {
		return s.fetchStreamEnd()
	}
	c := s.at(0)
	if s.mark.column == 0 {
		if c == '%' {
			return s.fetchDirective()
		}
		if c == '-' && s.at(1) == '-' && s.at(2) == '-' && isBlankzAt(s.buf, s.pos+3) {
			return s.fetchDocumentIndicator(tokDocumentStart)
		}
		if c == '.' && s.at(1) == '.' && s.at(2) == '.' && isBlankzAt(s.buf, s.pos+3) {
			return s.fetchDocumentIndicator(tokDocumentEnd)
		}
	}
	next1Blankz := isBlankzAt(s.buf, s.pos+1)
	switch {
	case c == '[':
		return s.fetchFlowCollectionStart(tokFlowSequenceStart)
	case c == '{':
		return s.fetchFlowCollectionStart(tokFlowMappingStart)
	case c == ']':
		return s.fetchFlowCollectionEnd(tokFlowSequenceEnd)
	case c == '}':
		return s.fetchFlowCollectionEnd(tokFlowMappingEnd)
	case c == ',':
		return s.fetchFlowEntry()
	case c == '-' && next1Blankz:
		return s.fetchBlockEntry()
	case c == '?' && (s.flowLevel > 0 || next1Blankz):
		return s.fetchKey()
	case c == ':' && (s.flowLevel > 0 || next1Blankz):
		return s.fetchValue()
	case c == '*':
		return s.fetchAnchor(tokAlias)
	case c == '&':
		return s.fetchAnchor(tokAnchor)
	case c == '!':
		return s.fetchTag()
	case c == '|' && s.flowLevel == 0:
		return s.fetchBlockScalar(true)
	case c == '>' && s.flowLevel == 0:
		return s.fetchBlockScalar(false)
	case c == '\'':
		return s.fetchFlowScalar(true)
	case c == '"':
		return s.fetchFlowScalar(false)
	}
	// A plain scalar may not start with an indicator, except '-', '?' and
	// ':' followed by a non-space ('?' and ':' only in block context).
	switch c {
	case '-':
		if !isBlankAt(s.buf, s.pos+1) {
			return s.fetchPlainScalar()
		}
	case '?', ':':
		if s.flowLevel == 0 && !next1Blankz {
			return s.fetchPlainScalar()
		}
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
	default:
		if !s.isBlankz() {
			return s.fetchPlainScalar()
		}
	}
	return s.scannerError("while scanning for the next token", s.mark, "found character that cannot start any token")
}

// simpleKeyIsValid drops a key that can no longer be one (a line break or
// 1024 characters since it started); a required one is an error.
func (s *scanner) simpleKeyIsValid(k *simpleKey) (valid, ok bool) {
	if !k.possible {
		return false, true
	}
	if k.mark.line < s.mark.line || k.mark.index+1024 < s.mark.index {
		if k.required {
			return false, s.scannerError("while scanning a simple key", k.mark, "could not find expected ':'")
		}
		k.possible = false
		return false, true
	}
	return true, true
}

func (s *scanner) saveSimpleKey() bool {
	required := s.flowLevel == 0 && s.indent == s.mark.column
	if s.simpleKeyAllowed {
		k := simpleKey{possible: true, required: required, tokenNumber: s.tokensParsed + len(s.tokens) - s.head, mark: s.mark}
		if !s.removeSimpleKey() {
			return false
		}
		s.simpleKeys[len(s.simpleKeys)-1] = k
		s.keysByToken[k.tokenNumber] = len(s.simpleKeys) - 1
	}
	return true
}

func (s *scanner) removeSimpleKey() bool {
	i := len(s.simpleKeys) - 1
	if s.simpleKeys[i].possible {
		if s.simpleKeys[i].required {
			return s.scannerError("while scanning a simple key", s.simpleKeys[i].mark, "could not find expected ':'")
		}
		s.simpleKeys[i].possible = false
		delete(s.keysByToken, s.simpleKeys[i].tokenNumber)
	}
	return true
}

func (s *scanner) increaseFlowLevel() bool {
	s.simpleKeys = append(s.simpleKeys, simpleKey{tokenNumber: s.tokensParsed + len(s.tokens) - s.head, mark: s.mark})
	s.flowLevel++
	if s.flowLevel > maxFlowLevel {
		return s.scannerError("while increasing flow level", s.simpleKeys[len(s.simpleKeys)-1].mark, "exceeded max depth of "+strconv.Itoa(maxFlowLevel))
	}
	return true
}

func (s *scanner) decreaseFlowLevel() {
	if s.flowLevel > 0 {
		s.flowLevel--
		last := len(s.simpleKeys) - 1
		delete(s.keysByToken, s.simpleKeys[last].tokenNumber)
		s.simpleKeys = s.simpleKeys[:last]
	}
}

// rollIndent opens a block collection when column is deeper than the
// current indentation; number is the token number to insert before, or -1.
func (s *scanner) rollIndent(column, number int, typ tokenType, m mark) bool {
	if s.flowLevel > 0 {
		return true
	}
	if s.indent < column {
		s.indents = append(s.indents, s.indent)
		s.indent = column
		if len(s.indents) > maxIndents {
			return s.scannerError("while increasing indent level", s.simpleKeys[len(s.simpleKeys)-1].mark, "exceeded max depth of "+strconv.Itoa(maxIndents))
		}
		if number > -1 {
			number -= s.tokensParsed
		}
		s.insert(number, token{typ: typ, start: m, end: m})
	}
	return true
}

// unrollIndent closes block collections deeper than column.
func (s *scanner) unrollIndent(column int) {
	if s.flowLevel > 0 {
		return
	}
	for s.indent > column {
		s.insert(-1, token{typ: tokBlockEnd, start: s.mark, end: s.mark})
		s.indent = s.indents[len(s.indents)-1]
		s.indents = s.indents[:len(s.indents)-1]
	}
}

func (s *scanner) fetchStreamStart() bool {
	s.indent = -1
	s.simpleKeys = append(s.simpleKeys, simpleKey{})
	s.keysByToken = map[int]int{}
	s.simpleKeyAllowed = true
	s.streamStartProduced = true
	s.insert(-1, token{typ: tokStreamStart, start: s.mark, end: s.mark})
	return true
}

func (s *scanner) fetchStreamEnd() bool {
	if s.mark.column != 0 {
		s.mark.column = 0
		s.mark.line++
	}
	s.unrollIndent(-1)
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	s.insert(-1, token{typ: tokStreamEnd, start: s.mark, end: s.mark})
	return true
}

func (s *scanner) fetchDirective() bool {
	s.unrollIndent(-1)
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	var t token
	if !s.scanDirective(&t) {
		return false
	}
	s.insert(-1, t)
	return true
}

func (s *scanner) fetchDocumentIndicator(typ tokenType) bool {
	s.unrollIndent(-1)
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	start := s.mark
	s.skip()
	s.skip()
	s.skip()
	s.insert(-1, token{typ: typ, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchFlowCollectionStart(typ tokenType) bool {
	if !s.saveSimpleKey() {
		return false
	}
	if !s.increaseFlowLevel() {
		return false
	}
	s.simpleKeyAllowed = true
	start := s.mark
	s.skip()
	s.insert(-1, token{typ: typ, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchFlowCollectionEnd(typ tokenType) bool {
	if !s.removeSimpleKey() {
		return false
	}
	s.decreaseFlowLevel()
	s.simpleKeyAllowed = false
	start := s.mark
	s.skip()
	s.insert(-1, token{typ: typ, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchFlowEntry() bool {
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = true
	start := s.mark
	s.skip()
	s.insert(-1, token{typ: tokFlowEntry, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchBlockEntry() bool {
	if s.flowLevel == 0 {
		if !s.simpleKeyAllowed {
			return s.scannerError("", s.mark, "block sequence entries are not allowed in this context")
		}
		if !s.rollIndent(s.mark.column, -1, tokBlockSequenceStart, s.mark) {
			return false
		}
	}
	// In flow context a '-' is the parser's to reject.
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = true
	start := s.mark
	s.skip()
	s.insert(-1, token{typ: tokBlockEntry, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchKey() bool {
	if s.flowLevel == 0 {
		if !s.simpleKeyAllowed {
			return s.scannerError("", s.mark, "mapping keys are not allowed in this context")
		}
		if !s.rollIndent(s.mark.column, -1, tokBlockMappingStart, s.mark) {
			return false
		}
	}
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = s.flowLevel == 0
	start := s.mark
	s.skip()
	s.insert(-1, token{typ: tokKey, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchValue() bool {
	k := &s.simpleKeys[len(s.simpleKeys)-1]
	valid, ok := s.simpleKeyIsValid(k)
	if !ok {
		return false
	}
	if valid {
		// The saved simple key was a key after all: put KEY (and maybe
		// BLOCK-MAPPING-START) in front of it.
		s.insert(k.tokenNumber-s.tokensParsed, token{typ: tokKey, start: k.mark, end: k.mark})
		if !s.rollIndent(k.mark.column, k.tokenNumber, tokBlockMappingStart, k.mark) {
			return false
		}
		k.possible = false
		delete(s.keysByToken, k.tokenNumber)
		s.simpleKeyAllowed = false
	} else {
		if s.flowLevel == 0 {
			if !s.simpleKeyAllowed {
				return s.scannerError("", s.mark, "mapping values are not allowed in this context")
			}
			if !s.rollIndent(s.mark.column, -1, tokBlockMappingStart, s.mark) {
				return false
			}
		}
		s.simpleKeyAllowed = s.flowLevel == 0
	}
	start := s.mark
	s.skip()
	s.insert(-1, token{typ: tokValue, start: start, end: s.mark})
	return true
}

func (s *scanner) fetchAnchor(typ tokenType) bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	var t token
	if !s.scanAnchor(&t, typ) {
		return false
	}
	s.insert(-1, t)
	return true
}

func (s *scanner) fetchTag() bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	var t token
	if !s.scanTag(&t) {
		return false
	}
	s.insert(-1, t)
	return true
}

func (s *scanner) fetchBlockScalar(literal bool) bool {
	if !s.removeSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = true
	var t token
	if !s.scanBlockScalar(&t, literal) {
		return false
	}
	s.insert(-1, t)
	return true
}

func (s *scanner) fetchFlowScalar(single bool) bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	var t token
	if !s.scanFlowScalar(&t, single) {
		return false
	}
	s.insert(-1, t)
	return true
}

func (s *scanner) fetchPlainScalar() bool {
	if !s.saveSimpleKey() {
		return false
	}
	s.simpleKeyAllowed = false
	var t token
	if !s.scanPlainScalar(&t) {
		return false
	}
	s.insert(-1, t)
	return true
}

// scanToNextToken skips blanks, comments and line breaks. Tabs are not
// blanks at the start of a block line or where a simple key may start.
func (s *scanner) scanToNextToken() bool {
	for {
		if !s.cache(1) {
			return false
		}
		if s.mark.column == 0 && s.isBOMAtStart() {
			s.skip()
		}
		if !s.cache(1) {
			return false
		}
		for s.at(0) == ' ' || (s.flowLevel > 0 || !s.simpleKeyAllowed) && s.at(0) == '\t' {
			s.skip()
			if !s.cache(1) {
				return false
			}
		}
		if s.at(0) == '#' {
			for !s.isBreakz() {
				s.skip()
				if !s.cache(1) {
					return false
				}
			}
		}
		if !s.isBreak() {
			return true
		}
		if !s.cache(2) {
			return false
		}
		s.skipLine()
		if s.flowLevel == 0 {
			s.simpleKeyAllowed = true
		}
	}
}

// skipBlanks moves over spaces and tabs.
func (s *scanner) skipBlanks() bool {
	if !s.cache(1) {
		return false
	}
	for s.isBlank() {
		s.skip()
		if !s.cache(1) {
			return false
		}
	}
	return true
}

// skipComment moves over a comment up to the line break.
func (s *scanner) skipComment() bool {
	if s.at(0) == '#' {
		for !s.isBreakz() {
			s.skip()
			if !s.cache(1) {
				return false
			}
		}
	}
	return true
}

func (s *scanner) scanDirective(t *token) bool {
	start := s.mark
	s.skip()
	var name []byte
	if !s.scanDirectiveName(start, &name) {
		return false
	}
	switch string(name) {
	case "YAML":
		var major, minor int
		if !s.scanVersionDirectiveValue(start, &major, &minor) {
			return false
		}
		*t = token{typ: tokVersionDirective, start: start, end: s.mark, major: major, minor: minor}
	case "TAG":
		var handle, prefix []byte
		if !s.scanTagDirectiveValue(start, &handle, &prefix) {
			return false
		}
		*t = token{typ: tokTagDirective, start: start, end: s.mark, value: handle, suffix: prefix}
	default:
		return s.scannerError("while scanning a directive", start, "found unknown directive name")
	}
	if !s.skipBlanks() || !s.skipComment() {
		return false
	}
	if !s.isBreakz() {
		return s.scannerError("while scanning a directive", start, "did not find expected comment or line break")
	}
	if s.isBreak() {
		if !s.cache(2) {
			return false
		}
		s.skipLine()
	}
	return true
}

func (s *scanner) scanDirectiveName(start mark, name *[]byte) bool {
	if !s.cache(1) {
		return false
	}
	var b []byte
	for isAlpha(s.at(0)) {
		b = s.read(b)
		if !s.cache(1) {
			return false
		}
	}
	if len(b) == 0 {
		return s.scannerError("while scanning a directive", start, "could not find expected directive name")
	}
	if !s.isBlankz() {
		return s.scannerError("while scanning a directive", start, "found unexpected non-alphabetical character")
	}
	*name = b
	return true
}

func (s *scanner) scanVersionDirectiveValue(start mark, major, minor *int) bool {
	if !s.skipBlanks() {
		return false
	}
	if !s.scanVersionDirectiveNumber(start, major) {
		return false
	}
	if s.at(0) != '.' {
		return s.scannerError("while scanning a %YAML directive", start, "did not find expected digit or '.' character")
	}
	s.skip()
	return s.scanVersionDirectiveNumber(start, minor)
}

func (s *scanner) scanVersionDirectiveNumber(start mark, number *int) bool {
	if !s.cache(1) {
		return false
	}
	value, length := 0, 0
	for isDigit(s.at(0)) {
		length++
		if length > 2 {
			return s.scannerError("while scanning a %YAML directive", start, "found extremely long version number")
		}
		value = value*10 + int(s.at(0)-'0')
		s.skip()
		if !s.cache(1) {
			return false
		}
	}
	if length == 0 {
		return s.scannerError("while scanning a %YAML directive", start, "did not find expected version number")
	}
	*number = value
	return true
}

func (s *scanner) scanTagDirectiveValue(start mark, handle, prefix *[]byte) bool {
	var h, p []byte
	if !s.skipBlanks() {
		return false
	}
	if !s.scanTagHandle(true, start, &h) {
		return false
	}
	if !s.cache(1) {
		return false
	}
	if !s.isBlank() {
		return s.scannerError("while scanning a %TAG directive", start, "did not find expected whitespace")
	}
	if !s.skipBlanks() {
		return false
	}
	if !s.scanTagURI(true, nil, start, &p) {
		return false
	}
	if !s.cache(1) {
		return false
	}
	if !s.isBlankz() {
		return s.scannerError("while scanning a %TAG directive", start, "did not find expected whitespace or line break")
	}
	*handle, *prefix = h, p
	return true
}

func (s *scanner) scanAnchor(t *token, typ tokenType) bool {
	var b []byte
	start := s.mark
	s.skip()
	if !s.cache(1) {
		return false
	}
	for isAlpha(s.at(0)) {
		b = s.read(b)
		if !s.cache(1) {
			return false
		}
	}
	end := s.mark
	c := s.at(0)
	if len(b) == 0 || !(s.isBlankz() || c == '?' || c == ':' || c == ',' || c == ']' || c == '}' || c == '%' || c == '@' || c == '`') {
		context := "while scanning an alias"
		if typ == tokAnchor {
			context = "while scanning an anchor"
		}
		return s.scannerError(context, start, "did not find expected alphabetic or numeric character")
	}
	*t = token{typ: typ, start: start, end: end, value: b}
	return true
}

func (s *scanner) scanTag(t *token) bool {
	var handle, suffix []byte
	start := s.mark
	if !s.cache(2) {
		return false
	}
	if s.at(1) == '<' {
		// Verbatim: !<tag:yaml.org,2002:str>
		s.skip()
		s.skip()
		if !s.scanTagURI(false, nil, start, &suffix) {
			return false
		}
		if s.at(0) != '>' {
			return s.scannerError("while scanning a tag", start, "did not find the expected '>'")
		}
		s.skip()
	} else {
		if !s.scanTagHandle(false, start, &handle) {
			return false
		}
		if handle[0] == '!' && len(handle) > 1 && handle[len(handle)-1] == '!' {
			if !s.scanTagURI(false, nil, start, &suffix) {
				return false
			}
		} else {
			// Not a handle after all ("!foo"): it is the start of the suffix.
			if !s.scanTagURI(false, handle, start, &suffix) {
				return false
			}
			handle = []byte{'!'}
			if len(suffix) == 0 {
				handle, suffix = suffix, handle
			}
		}
	}
	if !s.cache(1) {
		return false
	}
	if !s.isBlankz() {
		return s.scannerError("while scanning a tag", start, "did not find expected whitespace or line break")
	}
	*t = token{typ: tokTag, start: start, end: s.mark, value: handle, suffix: suffix}
	return true
}

func (s *scanner) tagError(directive bool, start mark, problem string) bool {
	context := "while parsing a tag"
	if directive {
		context = "while parsing a %TAG directive"
	}
	return s.scannerError(context, start, problem)
}

func (s *scanner) scanTagHandle(directive bool, start mark, handle *[]byte) bool {
	if !s.cache(1) {
		return false
	}
	if s.at(0) != '!' {
		return s.tagError(directive, start, "did not find expected '!'")
	}
	var b []byte
	b = s.read(b)
	if !s.cache(1) {
		return false
	}
	for isAlpha(s.at(0)) {
		b = s.read(b)
		if !s.cache(1) {
			return false
		}
	}
	if s.at(0) == '!' {
		b = s.read(b)
	} else if directive && string(b) != "!" {
		return s.tagError(directive, start, "did not find expected '!'")
	}
	*handle = b
	return true
}

func isURIChar(c byte) bool {
	switch c {
	case ';', '/', '?', ':', '@', '&', '=', '+', '$', ',', '.', '!', '~', '*', '\'', '(', ')', '[', ']', '%':
		return true
	}
	return isAlpha(c)
}

func (s *scanner) scanTagURI(directive bool, head []byte, start mark, uri *[]byte) bool {
	var b []byte
	hasTag := len(head) > 0
	if len(head) > 1 {
		b = append(b, head[1:]...)
	}
	if !s.cache(1) {
		return false
	}
	for isURIChar(s.at(0)) {
		if s.at(0) == '%' {
			if !s.scanURIEscapes(directive, start, &b) {
				return false
			}
		} else {
			b = s.read(b)
		}
		if !s.cache(1) {
			return false
		}
		hasTag = true
	}
	if !hasTag {
		return s.tagError(directive, start, "did not find expected tag URI")
	}
	*uri = b
	return true
}

func (s *scanner) scanURIEscapes(directive bool, start mark, b *[]byte) bool {
	w := 1024
	for w > 0 {
		if !s.cache(3) {
			return false
		}
		if !(s.at(0) == '%' && isHex(s.at(1)) && isHex(s.at(2))) {
			return s.tagError(directive, start, "did not find URI escaped octet")
		}
		octet := byte(asHex(s.at(1))<<4 + asHex(s.at(2)))
		if w == 1024 {
			w = utf8Width(octet)
			if w == 0 {
				return s.tagError(directive, start, "found an incorrect leading UTF-8 octet")
			}
		} else if octet&0xC0 != 0x80 {
			return s.tagError(directive, start, "found an incorrect trailing UTF-8 octet")
		}
		*b = append(*b, octet)
		s.skip()
		s.skip()
		s.skip()
		w--
	}
	return true
}

func (s *scanner) scanBlockScalar(t *token, literal bool) bool {
	start := s.mark
	s.skip()
	if !s.cache(1) {
		return false
	}
	chomping, increment := 0, 0
	if c := s.at(0); c == '+' || c == '-' {
		chomping = 1
		if c == '-' {
			chomping = -1
		}
		s.skip()
		if !s.cache(1) {
			return false
		}
		if isDigit(s.at(0)) {
			if s.at(0) == '0' {
				return s.scannerError("while scanning a block scalar", start, "found an indentation indicator equal to 0")
			}
			increment = int(s.at(0) - '0')
			s.skip()
		}
	} else if isDigit(c) {
		if c == '0' {
			return s.scannerError("while scanning a block scalar", start, "found an indentation indicator equal to 0")
		}
		increment = int(c - '0')
		s.skip()
		if !s.cache(1) {
			return false
		}
		if c := s.at(0); c == '+' || c == '-' {
			chomping = 1
			if c == '-' {
				chomping = -1
			}
			s.skip()
		}
	}
	if !s.skipBlanks() || !s.skipComment() {
		return false
	}
	if !s.isBreakz() {
		return s.scannerError("while scanning a block scalar", start, "did not find expected comment or line break")
	}
	if s.isBreak() {
		if !s.cache(2) {
			return false
		}
		s.skipLine()
	}
	end := s.mark
	indent := 0
	if increment > 0 {
		if s.indent >= 0 {
			indent = s.indent + increment
		} else {
			indent = increment
		}
	}
	var text, leadingBreak, trailingBreaks []byte
	if !s.scanBlockScalarBreaks(&indent, &trailingBreaks, start, &end) {
		return false
	}
	if !s.cache(1) {
		return false
	}
	var leadingBlank, trailingBlank bool
	for s.mark.column == indent && !s.isZ() {
		// A folded scalar joins lines with a space unless a line starts
		// with a blank (more-indented lines keep their breaks).
		trailingBlank = s.isBlank()
		if !literal && !leadingBlank && !trailingBlank && len(leadingBreak) > 0 && leadingBreak[0] == '\n' {
			if len(trailingBreaks) == 0 {
				text = append(text, ' ')
			}
		} else {
			text = append(text, leadingBreak...)
		}
		leadingBreak = leadingBreak[:0]
		text = append(text, trailingBreaks...)
		trailingBreaks = trailingBreaks[:0]
		leadingBlank = s.isBlank()
		for !s.isBreakz() {
			text = s.read(text)
			if !s.cache(1) {
				return false
			}
		}
		if !s.cache(2) {
			return false
		}
		leadingBreak = s.readLine(leadingBreak)
		if !s.scanBlockScalarBreaks(&indent, &trailingBreaks, start, &end) {
			return false
		}
	}
	if chomping != -1 {
		text = append(text, leadingBreak...)
	}
	if chomping == 1 {
		text = append(text, trailingBreaks...)
	}
	style := styleLiteral
	if !literal {
		style = styleFolded
	}
	*t = token{typ: tokScalar, start: start, end: end, value: text, style: style}
	return true
}

// scanBlockScalarBreaks eats indentation and empty lines, and settles the
// scalar's indentation from the first non-empty line when not given.
func (s *scanner) scanBlockScalarBreaks(indent *int, breaks *[]byte, start mark, end *mark) bool {
	*end = s.mark
	maxIndent := 0
	for {
		if !s.cache(1) {
			return false
		}
		for (*indent == 0 || s.mark.column < *indent) && s.at(0) == ' ' {
			s.skip()
			if !s.cache(1) {
				return false
			}
		}
		if s.mark.column > maxIndent {
			maxIndent = s.mark.column
		}
		if (*indent == 0 || s.mark.column < *indent) && s.at(0) == '\t' {
			return s.scannerError("while scanning a block scalar", start, "found a tab character where an indentation space is expected")
		}
		if !s.isBreak() {
			break
		}
		if !s.cache(2) {
			return false
		}
		*breaks = s.readLine(*breaks)
		*end = s.mark
	}
	if *indent == 0 {
		*indent = maxIndent
		if *indent < s.indent+1 {
			*indent = s.indent + 1
		}
		if *indent < 1 {
			*indent = 1
		}
	}
	return true
}

func (s *scanner) atDocumentIndicator() bool {
	if s.mark.column != 0 {
		return false
	}
	a, b, c := s.at(0), s.at(1), s.at(2)
	return (a == '-' && b == '-' && c == '-' || a == '.' && b == '.' && c == '.') && isBlankzAt(s.buf, s.pos+3)
}

func (s *scanner) scanFlowScalar(t *token, single bool) bool {
	start := s.mark
	s.skip()
	var text, leadingBreak, trailingBreaks, whitespaces []byte
	for {
		if !s.cache(4) {
			return false
		}
		if s.atDocumentIndicator() {
			return s.scannerError("while scanning a quoted scalar", start, "found unexpected document indicator")
		}
		if s.isZ() {
			return s.scannerError("while scanning a quoted scalar", start, "found unexpected end of stream")
		}
		leadingBlanks := false
		for !s.isBlankz() {
			c := s.at(0)
			if single && c == '\'' && s.at(1) == '\'' {
				text = append(text, '\'')
				s.skip()
				s.skip()
			} else if single && c == '\'' || !single && c == '"' {
				break
			} else if !single && c == '\\' && isBreakAt(s.buf, s.pos+1) {
				// An escaped line break joins lines without a space.
				if !s.cache(3) {
					return false
				}
				s.skip()
				s.skipLine()
				leadingBlanks = true
				break
			} else if !single && c == '\\' {
				codeLength := 0
				switch s.at(1) {
				case '0':
					text = append(text, 0)
				case 'a':
					text = append(text, '\x07')
				case 'b':
					text = append(text, '\x08')
				case 't', '\t':
					text = append(text, '\x09')
				case 'n':
					text = append(text, '\x0A')
				case 'v':
					text = append(text, '\x0B')
				case 'f':
					text = append(text, '\x0C')
				case 'r':
					text = append(text, '\x0D')
				case 'e':
					text = append(text, '\x1B')
				case ' ':
					text = append(text, '\x20')
				case '"':
					text = append(text, '"')
				case '\'':
					text = append(text, '\'')
				case '\\':
					text = append(text, '\\')
				case 'N':
					text = append(text, "\u0085"...)
				case '_':
					text = append(text, "\u00a0"...)
				case 'L':
					text = append(text, "\u2028"...)
				case 'P':
					text = append(text, "\u2029"...)
				case 'x':
					codeLength = 2
				case 'u':
					codeLength = 4
				case 'U':
					codeLength = 8
				default:
					return s.scannerError("while parsing a quoted scalar", start, "found unknown escape character")
				}
				s.skip()
				s.skip()
				if codeLength > 0 {
					if !s.cache(codeLength) {
						return false
					}
					value := 0
					for k := 0; k < codeLength; k++ {
						if !isHex(s.at(k)) {
							return s.scannerError("while parsing a quoted scalar", start, "did not find expected hexdecimal number")
						}
						value = value<<4 + asHex(s.at(k))
					}
					if value >= 0xD800 && value <= 0xDFFF || value > 0x10FFFF {
						return s.scannerError("while parsing a quoted scalar", start, "found invalid Unicode character escape code")
					}
					text = appendRune(text, value)
					for k := 0; k < codeLength; k++ {
						s.skip()
					}
				}
			} else {
				text = s.read(text)
			}
			if !s.cache(2) {
				return false
			}
		}
		if !s.cache(1) {
			return false
		}
		if c := s.at(0); single && c == '\'' || !single && c == '"' {
			break
		}
		// Fold blanks and line breaks between the parts.
		for s.isBlank() || s.isBreak() {
			if s.isBlank() {
				if !leadingBlanks {
					whitespaces = s.read(whitespaces)
				} else {
					s.skip()
				}
			} else {
				if !s.cache(2) {
					return false
				}
				if !leadingBlanks {
					whitespaces = whitespaces[:0]
					leadingBreak = s.readLine(leadingBreak)
					leadingBlanks = true
				} else {
					trailingBreaks = s.readLine(trailingBreaks)
				}
			}
			if !s.cache(1) {
				return false
			}
		}
		if leadingBlanks {
			if len(leadingBreak) > 0 && leadingBreak[0] == '\n' {
				if len(trailingBreaks) == 0 {
					text = append(text, ' ')
				} else {
					text = append(text, trailingBreaks...)
				}
			} else {
				text = append(text, leadingBreak...)
				text = append(text, trailingBreaks...)
			}
			trailingBreaks = trailingBreaks[:0]
			leadingBreak = leadingBreak[:0]
		} else {
			text = append(text, whitespaces...)
			whitespaces = whitespaces[:0]
		}
	}
	s.skip()
	style := styleDoubleQuoted
	if single {
		style = styleSingleQuoted
	}
	*t = token{typ: tokScalar, start: start, end: s.mark, value: text, style: style}
	return true
}

// appendRune writes a code point as UTF-8 the way libyaml does (surrogates
// were rejected before).
func appendRune(b []byte, v int) []byte {
	switch {
	case v <= 0x7F:
		return append(b, byte(v))
	case v <= 0x7FF:
		return append(b, byte(0xC0+v>>6), byte(0x80+v&0x3F))
	case v <= 0xFFFF:
		return append(b, byte(0xE0+v>>12), byte(0x80+(v>>6)&0x3F), byte(0x80+v&0x3F))
	}
	return append(b, byte(0xF0+v>>18), byte(0x80+(v>>12)&0x3F), byte(0x80+(v>>6)&0x3F), byte(0x80+v&0x3F))
}

func (s *scanner) scanPlainScalar(t *token) bool {
	var text, leadingBreak, trailingBreaks, whitespaces []byte
	leadingBlanks := false
	indent := s.indent + 1
	start := s.mark
	end := s.mark
	for {
		if !s.cache(4) {
			return false
		}
		if s.atDocumentIndicator() {
			break
		}
		if s.at(0) == '#' {
			break
		}
		for !s.isBlankz() {
			c := s.at(0)
			if c == ':' && isBlankzAt(s.buf, s.pos+1) ||
				s.flowLevel > 0 && (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') {
				break
			}
			if leadingBlanks || len(whitespaces) > 0 {
				if leadingBlanks {
					if leadingBreak[0] == '\n' {
						if len(trailingBreaks) == 0 {
							text = append(text, ' ')
						} else {
							text = append(text, trailingBreaks...)
						}
					} else {
						text = append(text, leadingBreak...)
						text = append(text, trailingBreaks...)
					}
					trailingBreaks = trailingBreaks[:0]
					leadingBreak = leadingBreak[:0]
					leadingBlanks = false
				} else {
					text = append(text, whitespaces...)
					whitespaces = whitespaces[:0]
				}
			}
			text = s.read(text)
			end = s.mark
			if !s.cache(2) {
				return false
			}
		}
		if !(s.isBlank() || s.isBreak()) {
			break
		}
		if !s.cache(1) {
			return false
		}
		for s.isBlank() || s.isBreak() {
			if s.isBlank() {
				if leadingBlanks && s.mark.column < indent && s.at(0) == '\t' {
					return s.scannerError("while scanning a plain scalar", start, "found a tab character that violates indentation")
				}
				if !leadingBlanks {
					whitespaces = s.read(whitespaces)
				} else {
					s.skip()
				}
			} else {
				if !s.cache(2) {
					return false
				}
				if !leadingBlanks {
					whitespaces = whitespaces[:0]
					leadingBreak = s.readLine(leadingBreak)
					leadingBlanks = true
				} else {
					trailingBreaks = s.readLine(trailingBreaks)
				}
			}
			if !s.cache(1) {
				return false
			}
		}
		if s.flowLevel == 0 && s.mark.column < indent {
			break
		}
	}
	*t = token{typ: tokScalar, start: start, end: end, value: text, style: stylePlain}
	if leadingBlanks {
		s.simpleKeyAllowed = true
	}
	return true
}
