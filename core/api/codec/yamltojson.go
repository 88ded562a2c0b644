package codec

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
)

// YAMLToJSON converts one YAML document to compact JSON exactly as
// sigs.k8s.io/yaml.YAMLToJSON does: object keys sorted, non-string keys
// turned into strings (true → "true", 1 → "1"), a later duplicate key
// replacing an earlier one, only the first document of the input read, and
// an empty document giving `null`. Errors are *SyntaxError.
func YAMLToJSON(doc []byte) ([]byte, error) {
	return yamlToJSON(doc, false)
}

// YAMLToJSONStrict is YAMLToJSON that rejects duplicate keys, as the API
// server's strict decoding does: `yaml: unmarshal errors:\n  line 9: key "a"
// already set in map`.
func YAMLToJSONStrict(doc []byte) ([]byte, error) {
	return yamlToJSON(doc, true)
}

func yamlToJSON(doc []byte, strict bool) ([]byte, error) {
	v, rootPos, yerr := yamlToValue(doc, strict)
	if yerr != nil {
		return nil, yerr.syntaxError(doc)
	}
	w := jsonWriter{}
	if yerr := w.checkKeys(v); yerr != nil {
		return nil, yerr.syntaxError(doc)
	}
	if yerr := w.write(v, rootPos); yerr != nil {
		return nil, yerr.syntaxError(doc)
	}
	return w.buf, nil
}

type jsonWriter struct {
	buf []byte
}

// checkKeys finds map keys JSON cannot hold (null, or integers beyond
// int64), which sigs.k8s.io/yaml reports before writing anything.
func (w *jsonWriter) checkKeys(v any) *yamlError {
	switch v := v.(type) {
	case *ymap:
		for i, k := range v.keys {
			if _, ok := keyString(k); !ok {
				text := fmt.Sprintf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, goValue(v.vals[i]))
				return &yamlError{kind: decodeErr, problem: text, problemMark: v.keyPos[i], text: text}
			}
			if err := w.checkKeys(v.vals[i]); err != nil {
				return err
			}
		}
	case *yseq:
		for _, x := range v.items {
			if err := w.checkKeys(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyString is how sigs.k8s.io/yaml spells a non-string key.
func keyString(k any) (string, bool) {
	switch k := k.(type) {
	case string:
		return k, true
	case int:
		return strconv.Itoa(k), true
	case float64:
		s := strconv.FormatFloat(k, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, true
	case bool:
		if k {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

func (w *jsonWriter) write(v any, at mark) *yamlError {
	switch v := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case bool:
		w.buf = strconv.AppendBool(w.buf, v)
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case uint64:
		w.buf = strconv.AppendUint(w.buf, v, 10)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			text := "json: unsupported value: " + strconv.FormatFloat(v, 'g', -1, 64)
			return &yamlError{kind: decodeErr, problem: text, problemMark: at, text: text}
		}
		w.buf = appendJSONFloat(w.buf, v)
	case string:
		w.buf = appendJSONString(w.buf, v)
	case *yseq:
		w.buf = append(w.buf, '[')
		for i, x := range v.items {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			if err := w.write(x, v.pos[i]); err != nil {
				return err
			}
		}
		w.buf = append(w.buf, ']')
	case *ymap:
		// Keys that spell the same string collapse; the later one wins.
		idx := map[string]int{}
		var names []string
		var order []int
		for i, k := range v.keys {
			s, _ := keyString(k)
			if j, ok := idx[s]; ok {
				order[j] = i
				continue
			}
			idx[s] = len(names)
			names = append(names, s)
			order = append(order, i)
		}
		perm := make([]int, len(names))
		for i := range perm {
			perm[i] = i
		}
		sort.Slice(perm, func(a, b int) bool { return names[perm[a]] < names[perm[b]] })
		w.buf = append(w.buf, '{')
		for n, j := range perm {
			if n > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = appendJSONString(w.buf, names[j])
			w.buf = append(w.buf, ':')
			i := order[j]
			if err := w.write(v.vals[i], v.valPos[i]); err != nil {
				return err
			}
		}
		w.buf = append(w.buf, '}')
	}
	return nil
}

// appendJSONFloat formats like encoding/json: plain decimals, exponent form
// below 1e-6 and from 1e21, and no leading zero in a negative exponent.
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes like encoding/json with HTML escaping on, as
// json.Marshal does: <, > and & become \u003c, \u003e, \u0026, invalid
// UTF-8 becomes \ufffd, and U+2028/U+2029 are escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
