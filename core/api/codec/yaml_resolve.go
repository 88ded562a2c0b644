package codec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// YAML 1.1 scalar resolution as yaml.v2 does it: `yes`, `on`, `y` are true,
// `080` is the float 80, `0x1F` is 31, `1_000` is 1000, `~` is null, and a
// date stays the string it was written as.

const (
	tagPrefix    = "tag:yaml.org,2002:"
	tagNull      = tagPrefix + "null"
	tagBool      = tagPrefix + "bool"
	tagStr       = tagPrefix + "str"
	tagInt       = tagPrefix + "int"
	tagFloat     = tagPrefix + "float"
	tagTimestamp = tagPrefix + "timestamp"
	tagSeq       = tagPrefix + "seq"
	tagMap       = tagPrefix + "map"
	tagBinary    = tagPrefix + "binary"
	tagMerge     = tagPrefix + "merge"
)

type resolved struct {
	tag string
	v   any
}

// resolveTable holds the words yaml.v2 maps to fixed values.
var resolveTable = func() map[string]resolved {
	m := map[string]resolved{}
	add := func(v any, tag string, words ...string) {
		for _, w := range words {
			m[w] = resolved{tag, v}
		}
	}
	add(true, tagBool, "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
	add(false, tagBool, "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
	add(nil, tagNull, "", "~", "null", "Null", "NULL")
	add(math.NaN(), tagFloat, ".nan", ".NaN", ".NAN")
	add(math.Inf(1), tagFloat, ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")
	add(math.Inf(-1), tagFloat, "-.inf", "-.Inf", "-.INF")
	return m
}()

// isYAMLStyleFloat matches yaml.v2's float syntax,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ (without regexp, which
// would weigh on the WebAssembly build).
func isYAMLStyleFloat(s string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i - start
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func shortTag(tag string) string {
	if strings.HasPrefix(tag, tagPrefix) {
		return "!!" + tag[len(tagPrefix):]
	}
	return tag
}

func resolvableTag(tag string) bool {
	switch tag {
	case "", tagStr, tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
		return true
	}
	return false
}

// resolveScalar gives the tag and value of a scalar written as in; tag is
// the explicit tag or "". Values are nil, bool, int, uint64, float64,
// string or time.Time, the types yaml.v2 produces.
func resolveScalar(tag, in string) (string, any, error) {
	if !resolvableTag(tag) {
		return tag, in, nil
	}
	rtag, out := resolvePlain(tag, in)
	switch tag {
	case "", rtag, tagStr, tagBinary:
		return rtag, out, nil
	case tagFloat:
		if rtag == tagInt {
			if v, ok := out.(int); ok {
				return tagFloat, float64(v), nil
			}
		}
	}
	return "", nil, fmt.Errorf("cannot decode %s `%s` as a %s", shortTag(rtag), in, shortTag(tag))
}

func resolvePlain(tag, in string) (string, any) {
	if tag == tagStr || tag == tagBinary {
		return tagStr, in
	}
	hint := byte('N') // empty: null
	if in != "" {
		switch c := in[0]; {
		case c == '+' || c == '-':
			hint = 'S'
		case c >= '0' && c <= '9':
			hint = 'D'
		case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
			hint = 'M'
		case c == '.':
			hint = '.'
		default:
			hint = 0
		}
	}
	if hint == 0 {
		return tagStr, in
	}
	if r, ok := resolveTable[in]; ok {
		return r.tag, r.v
	}
	switch hint {
	case '.':
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return tagFloat, f
		}
	case 'D', 'S':
		if tag == "" || tag == tagTimestamp {
			if t, ok := parseTimestamp(in); ok {
				return tagTimestamp, t
			}
		}
		plain := strings.ReplaceAll(in, "_", "")
		if v, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return tagInt, int(v)
		}
		if v, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return tagInt, v
		}
		if isYAMLStyleFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return tagFloat, f
			}
		}
		if strings.HasPrefix(plain, "0b") {
			if v, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
				return tagInt, int(v)
			}
			if v, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
				return tagInt, v
			}
		} else if strings.HasPrefix(plain, "-0b") {
			if v, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
				return tagInt, int(v)
			}
		}
	}
	return tagStr, in
}

// Timestamp forms yaml.v2 recognises (a subset of YAML 1.1's).
var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

func parseTimestamp(s string) (time.Time, bool) {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return time.Time{}, false
	}
	for _, f := range timestampFormats {
		if t, err := time.Parse(f, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// isBase60Float reports sexagesimal numbers like 1:20, which yaml.v2 quotes
// on output for YAML 1.1 readers although it no longer parses them:
// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
func isBase60Float(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 {
		return false
	}
	i := 0
	if c == '+' || c == '-' {
		i++
	}
	if i >= len(s) || !isDigit(s[i]) {
		return false
	}
	for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
		i++
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		switch n := i - start; {
		case n == 1:
		case n == 2 && s[start] <= '5':
		default:
			return false
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && (isDigit(s[i]) || s[i] == '_') {
			i++
		}
	}
	return i == len(s)
}
