package codec

import (
	"encoding/json"
	"errors"
)

// A small JSON reader that keeps what encoding/json throws away and the
// decoder needs: member order, duplicate keys and each value's raw bytes.

type jsonKind byte

const (
	jsonNull   jsonKind = 'n'
	jsonBool   jsonKind = 'b'
	jsonNumber jsonKind = '0'
	jsonString jsonKind = '"'
	jsonArray  jsonKind = '['
	jsonObject jsonKind = '{'
)

type jsonValue struct {
	kind    jsonKind
	raw     []byte // the value's text
	str     string // decoded string, or the number's literal
	members []jsonMember
	items   []*jsonValue
}

type jsonMember struct {
	key   string
	value *jsonValue
}

// kindName is how encoding/json names a value's kind in its errors.
func (v *jsonValue) kindName() string {
	switch v.kind {
	case jsonBool:
		return "bool"
	case jsonNumber:
		return "number"
	case jsonString:
		return "string"
	case jsonArray:
		return "array"
	case jsonObject:
		return "object"
	}
	return "null"
}

var errBadJSON = errors.New("invalid JSON")

// parseJSON reads one JSON value (surrounding space allowed). The callers
// hand it documents encoding/json has already accepted; anything else is
// errBadJSON.
func parseJSON(b []byte) (*jsonValue, error) {
	p := jsonParser{b: b}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(b) {
		return nil, errBadJSON
	}
	return v, nil
}

type jsonParser struct {
	b []byte
	i int
}

func (p *jsonParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (*jsonValue, error) {
	if depth > 10000 {
		return nil, errBadJSON
	}
	p.space()
	if p.i >= len(p.b) {
		return nil, errBadJSON
	}
	start := p.i
	switch c := p.b[p.i]; {
	case c == '{':
		v := &jsonValue{kind: jsonObject}
		p.i++
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			v.raw = p.b[start:p.i]
			return v, nil
		}
		for {
			p.space()
			k, err := p.value(depth + 1)
			if err != nil || k.kind != jsonString {
				return nil, errBadJSON
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, errBadJSON
			}
			p.i++
			x, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.members = append(v.members, jsonMember{k.str, x})
			p.space()
			if p.i >= len(p.b) {
				return nil, errBadJSON
			}
			if p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.b[p.i] != '}' {
				return nil, errBadJSON
			}
			p.i++
			v.raw = p.b[start:p.i]
			return v, nil
		}
	case c == '[':
		v := &jsonValue{kind: jsonArray}
		p.i++
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			v.raw = p.b[start:p.i]
			return v, nil
		}
		for {
			x, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, x)
			p.space()
			if p.i >= len(p.b) {
				return nil, errBadJSON
			}
			if p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.b[p.i] != ']' {
				return nil, errBadJSON
			}
			p.i++
			v.raw = p.b[start:p.i]
			return v, nil
		}
	case c == '"':
		p.i++
		plain := true
		for p.i < len(p.b) && p.b[p.i] != '"' {
			if p.b[p.i] == '\\' {
				plain = false
				p.i++
			} else if p.b[p.i] >= 0x80 || p.b[p.i] < 0x20 {
				plain = false
			}
			p.i++
		}
		if p.i >= len(p.b) {
			return nil, errBadJSON
		}
		p.i++
		v := &jsonValue{kind: jsonString, raw: p.b[start:p.i]}
		if plain {
			v.str = string(v.raw[1 : len(v.raw)-1])
		} else if err := json.Unmarshal(v.raw, &v.str); err != nil {
			return nil, errBadJSON
		}
		return v, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, word := range []string{"true", "false", "null"} {
			if len(p.b)-p.i >= len(word) && string(p.b[p.i:p.i+len(word)]) == word {
				p.i += len(word)
				kind := jsonBool
				if word == "null" {
					kind = jsonNull
				}
				return &jsonValue{kind: kind, raw: p.b[start:p.i], str: word}, nil
			}
		}
		return nil, errBadJSON
	default:
		for p.i < len(p.b) {
			c := p.b[p.i]
			if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
				p.i++
				continue
			}
			break
		}
		if p.i == start {
			return nil, errBadJSON
		}
		return &jsonValue{kind: jsonNumber, raw: p.b[start:p.i], str: string(p.b[start:p.i])}, nil
	}
}
