package protobuf

// kind is what a field holds on the wire and how it is written as JSON.
type kind uint8

const (
	kString  kind = iota + 1 // length-delimited UTF-8, JSON string
	kBytes                   // length-delimited, base64 JSON string
	kBool                    // varint, JSON true/false
	kInt32                   // varint truncated to 32 bits, JSON number
	kInt64                   // varint, JSON number (Go writes int64 as a number)
	kMessage                 // length-delimited nested message, see field.typ
)

// card is a field's cardinality.
type card uint8

const (
	single  card = iota
	list         // repeated
	mapping      // map<string, V>: repeated entries {key = 1, value = 2}
)

// presence says when Go's encoding/json writes a field once the wire has been
// decoded into the upstream Go struct. The wire alone cannot say this: gogo
// writes every non-pointer field even when zero, and Go then omits some of
// them again (omitempty) and writes others as zero or null.
type presence uint8

const (
	presPointer   presence = iota // a pointer: written iff present on the wire, even when zero
	presOmitEmpty                 // omitempty value: written iff present and not zero/empty
	presAlways                    // written always; its zero value (or null, or {}) when absent
	presOmitZero                  // omitzero: written iff present and not zero/empty
	presNullable                  // a pointer without omitempty: written always, null when absent
)

// field is one field of a message, keyed by its protobuf field number.
type field struct {
	num    int32
	name   string // the JSON name (from upstream's json tag, which may differ from the proto name)
	kind   kind   // for maps, the value's kind (keys are always strings)
	typ    string // full proto name of the message, when kind is kMessage
	card   card
	inline bool // an embedded Go struct whose JSON members sit in the parent object
	pres   presence
}

// special marks messages whose JSON form is not an object of their fields.
type special uint8

const (
	specNone         special = iota
	specTime                 // metav1.Time: seconds = 1, nanos = 2; RFC 3339 string, seconds precision
	specMicroTime            // metav1.MicroTime: like Time, microsecond precision
	specDuration             // metav1.Duration: duration = 1 (ns); Go duration string
	specIntOrString          // intstr.IntOrString: type = 1, intVal = 2, strVal = 3
	specQuantity             // resource.Quantity: string = 1
	specRawExtension         // runtime.RawExtension: raw = 1, embedded JSON
	specFieldsV1             // metav1.FieldsV1: Raw = 1, embedded JSON
	specStringList           // a Go []string wrapped as {repeated string items = 1}
)

// message is one protobuf message type.
type message struct {
	name    string // short name; the package supplies the prefix
	object  bool   // a runtime.Object: a kind that can be a request body
	special special
	fields  []field
}

// protoPackage is one generated.proto file: its messages and the API group
// version its kinds are served under.
type protoPackage struct {
	name         string // proto package, e.g. k8s.io.api.apps.v1
	groupVersion string // e.g. apps/v1; empty for packages without kinds
	messages     []message
}

// lookup finds the field with protobuf number num, or nil for unknown
// numbers (which protobuf skips).
func (m *message) lookup(num int32) (int, *field) {
	for i := range m.fields {
		if m.fields[i].num == num {
			return i, &m.fields[i]
		}
	}
	return -1, nil
}
