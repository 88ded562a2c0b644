package hashutil

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/clock"
)

// ComputeHash is upstream's pod template hash (controller.ComputeHash): a
// DaemonSet's revisions are named <ds>-<hash> and its pods labelled
// controller-revision-hash=<hash>. Upstream hashes the text go-spew prints
// for the Go value ("%#v" with types, sorted map keys, methods off), so
// the same text is printed here from upstreamTypes, the layout of
// k8s.io/api's types, with the values read from the template's JSON. The
// collision count follows as 8 little-endian bytes.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write(spewTemplate(template))
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:], uint32(*collisionCount))
		h.Write(b[:])
	}
	return clock.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

type typeKind uint8

const (
	kindStruct typeKind = iota
	kindPtr
	kindSlice
	kindMap
	kindString
	kindBool
	kindInt
	kindUint
	kindFloat
	kindTime
	kindQuantity
	kindIntOrString
)

type upstreamType struct {
	kind   typeKind
	elem   string
	key    string
	fields []upstreamField
}

type upstreamField struct{ name, json, typ string }

// spewTemplate prints template as go-spew's "%#v" prints a v1.PodTemplateSpec.
func spewTemplate(template *api.PodTemplateSpec) []byte {
	raw, err := json.Marshal(template)
	if err != nil {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil
	}
	p := &spewPrinter{}
	p.value("v1.PodTemplateSpec", v, false)
	return p.buf.Bytes()
}

// spewPrinter mirrors go-spew's formatState: ignoreNextType is its flag
// that drops the "(type)" prefix of slice elements, map keys and values,
// and pointer targets.
type spewPrinter struct {
	buf bytes.Buffer
}

func (p *spewPrinter) typePrefix(name string, ignore bool) {
	if !ignore {
		p.buf.WriteString("(" + name + ")")
	}
}

// value prints v (a decoded JSON value, nil when absent) as type name.
// It returns whether go-spew would leave its ignoreNextType flag set,
// which only a nil pointer printed without its type does.
func (p *spewPrinter) value(name string, v any, ignore bool) bool {
	t, ok := upstreamTypes()[name]
	if !ok {
		// Not a type a template can hold: print nothing distinctive.
		p.typePrefix(name, ignore)
		return false
	}
	switch t.kind {
	case kindPtr:
		if v == nil {
			if ignore {
				p.buf.WriteString("<nil>")
				return true
			}
			p.buf.WriteString("(" + name + ")<nil>")
			return false
		}
		if ignore {
			p.buf.WriteString("<*>")
		} else {
			p.buf.WriteString("(*" + t.elem + ")")
		}
		return p.value(t.elem, v, true)
	case kindStruct:
		p.typePrefix(name, ignore)
		obj, _ := v.(map[string]any)
		p.buf.WriteByte('{')
		ignoreNext := false
		for i, f := range t.fields {
			if i > 0 {
				p.buf.WriteByte(' ')
			}
			p.buf.WriteString(f.name + ":")
			var fv any
			if f.json == ",inline" {
				fv = v
			} else if obj != nil {
				fv = obj[f.json]
			}
			ignoreNext = p.value(f.typ, fv, ignoreNext)
		}
		p.buf.WriteByte('}')
		return ignoreNext
	case kindSlice:
		p.typePrefix(name, ignore)
		arr, isArr := v.([]any)
		if !isArr {
			p.buf.WriteString("<nil>")
			return false
		}
		p.buf.WriteByte('[')
		left := false
		for i, e := range arr {
			if i > 0 {
				p.buf.WriteByte(' ')
			}
			left = p.value(t.elem, e, true)
		}
		p.buf.WriteByte(']')
		return left
	case kindMap:
		p.typePrefix(name, ignore)
		obj, isObj := v.(map[string]any)
		if !isObj {
			p.buf.WriteString("<nil>")
			return false
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		p.buf.WriteString("map[")
		left := false
		for i, k := range keys {
			if i > 0 {
				p.buf.WriteByte(' ')
			}
			p.buf.WriteString(k + ":")
			left = p.value(t.elem, obj[k], true)
		}
		p.buf.WriteByte(']')
		return left
	case kindString:
		p.typePrefix(name, ignore)
		s, _ := v.(string)
		p.buf.WriteString(s)
	case kindBool:
		p.typePrefix(name, ignore)
		b, _ := v.(bool)
		p.buf.WriteString(strconv.FormatBool(b))
	case kindInt, kindUint, kindFloat:
		p.typePrefix(name, ignore)
		n, _ := v.(json.Number)
		if n == "" {
			n = "0"
		}
		p.buf.WriteString(n.String())
	case kindTime:
		// Templates carry no timestamps: the zero time.
		p.typePrefix(name, ignore)
		p.buf.WriteString("{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}")
	case kindIntOrString:
		p.typePrefix(name, ignore)
		switch x := v.(type) {
		case string:
			p.buf.WriteString("{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)" + x + "}")
		case json.Number:
			p.buf.WriteString("{Type:(intstr.Type)0 IntVal:(int32)" + x.String() + " StrVal:(string)}")
		default:
			p.buf.WriteString("{Type:(intstr.Type)0 IntVal:(int32)0 StrVal:(string)}")
		}
	case kindQuantity:
		p.typePrefix(name, ignore)
		s, _ := v.(string)
		p.buf.WriteString(spewQuantity(s))
	}
	return false
}

// spewQuantity prints the resource.Quantity upstream's controller holds
// for canonical string s, as ParseQuantity builds it: an int64 amount and
// scale, the string kept when it is already canonical.
func spewQuantity(s string) string {
	value, scale, format, cached := parseCanonicalQuantity(s)
	if !cached {
		s = ""
	}
	return "{i:(resource.int64Amount){value:(int64)" + strconv.FormatInt(value, 10) + " scale:(resource.Scale)" + strconv.Itoa(int(scale)) +
		"} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)" + s + " Format:(resource.Format)" + format + "}"
}

// quantitySuffixes maps a suffix to its base-2 or base-10 exponent.
var (
	decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binarySuffixes  = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
)

// parseCanonicalQuantity follows ParseQuantity's int64 fast path, the one
// canonical strings take.
func parseCanonicalQuantity(s string) (value int64, scale int32, format string, cached bool) {
	if s == "0" || s == "" {
		return 0, 0, "DecimalSI", s == "0"
	}
	positive := true
	rest := s
	if rest[0] == '-' || rest[0] == '+' {
		positive = rest[0] == '+'
		rest = rest[1:]
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	num := rest[:i]
	denom := ""
	if i < len(rest) && rest[i] == '.' {
		j := i + 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		denom = rest[i+1 : j]
		i = j
	}
	suffix := rest[i:]
	var exponent int32
	mantissa := int64(1)
	if e, ok := binarySuffixes[suffix]; ok {
		format, exponent = "BinarySI", e
	} else if e, ok := decimalSuffixes[suffix]; ok {
		format, exponent = "DecimalSI", e
	} else if strings.HasPrefix(suffix, "e") || strings.HasPrefix(suffix, "E") {
		n, err := strconv.Atoi(suffix[1:])
		if err != nil {
			return 0, 0, "DecimalSI", false
		}
		format, exponent = "DecimalExponent", int32(n)
	} else {
		return 0, 0, "DecimalSI", false
	}
	if format == "BinarySI" {
		mantissa <<= uint(exponent)
		scale = 0
	} else {
		scale = exponent
	}
	scale -= int32(len(denom))
	shifted := num + denom
	v, err := strconv.ParseInt(shifted, 10, 64)
	if err != nil || shifted == "" {
		return 0, scale, format, false
	}
	value = v * mantissa
	if !positive {
		value = -value
	}
	if format == "BinarySI" {
		cached = exponent%10 == 0 && v&0x07 != 0
	} else {
		cached = scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'
	}
	return value, scale, format, cached
}
