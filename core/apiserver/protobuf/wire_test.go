package protobuf

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// objectMeta builds a metadata message with just a name.
func objectMeta(name string) []byte { return pbString(nil, 1, name) }

func TestPresenceOfZeros(t *testing.T) {
	// Deployment.spec.replicas is a pointer: a zero on the wire is set.
	// minReadySeconds is an omitempty value: a zero is what Go omits.
	spec := pbVarint(pbVarint(nil, 1, 0), 5, 0)
	raw := pbBytes(pbBytes(nil, 1, objectMeta("web")), 2, spec)
	got := mustJSON(t, pbEnvelope("apps/v1", "Deployment", raw))
	compareJSON(t, got, []byte(`{"kind":"Deployment","apiVersion":"apps/v1",
		"metadata":{"name":"web"},
		"spec":{"replicas":0,"selector":null,"template":{"metadata":{},"spec":{"containers":null}},"strategy":{}},
		"status":{}}`))
}

func TestEvictionDeleteOptions(t *testing.T) {
	opts := pbVarint(pbVarint(nil, 1, 0), 3, 0) // gracePeriodSeconds: 0, orphanDependents: false
	raw := pbBytes(pbBytes(nil, 1, objectMeta("web-1")), 2, opts)
	got := mustJSON(t, pbEnvelope("policy/v1", "Eviction", raw))
	compareJSON(t, got, []byte(`{"kind":"Eviction","apiVersion":"policy/v1",
		"metadata":{"name":"web-1"},"deleteOptions":{"gracePeriodSeconds":0,"orphanDependents":false}}`))
}

func TestMetaKindsInEveryGroup(t *testing.T) {
	raw := pbString(pbVarint(nil, 1, 30), 4, "Foreground")
	got := mustJSON(t, pbEnvelope("apps/v1", "DeleteOptions", raw))
	compareJSON(t, got, []byte(`{"kind":"DeleteOptions","apiVersion":"apps/v1","gracePeriodSeconds":30,"propagationPolicy":"Foreground"}`))
}

func TestWellKnownTypes(t *testing.T) {
	// A Service port: targetPort as a number, then as a name.
	port := func(target []byte) []byte {
		return pbBytes(pbVarint(pbString(nil, 1, "http"), 3, 80), 4, target)
	}
	intTarget := pbVarint(pbVarint(nil, 1, 0), 2, 8080)
	strTarget := pbString(pbVarint(nil, 1, 1), 3, "web")
	spec := pbBytes(pbBytes(nil, 1, port(intTarget)), 1, port(strTarget))
	got := mustJSON(t, pbEnvelope("v1", "Service", pbBytes(nil, 2, spec)))
	compareJSON(t, got, []byte(`{"kind":"Service","apiVersion":"v1","metadata":{},
		"spec":{"ports":[{"name":"http","port":80,"targetPort":8080},{"name":"http","port":80,"targetPort":"web"}]},
		"status":{"loadBalancer":{}}}`))

	// Times: seconds precision for Time, microseconds for MicroTime.
	ts := pbVarint(pbVarint(nil, 1, 1700000000), 2, 123456789)
	meta := pbBytes(pbString(nil, 1, "e"), 9, ts) // deletionTimestamp
	ev := pbBytes(pbBytes(nil, 1, meta), 10, ts)  // core/v1 Event eventTime
	got = mustJSON(t, pbEnvelope("v1", "Event", ev))
	if !strings.Contains(string(got), `"deletionTimestamp":"2023-11-14T22:13:20Z"`) ||
		!strings.Contains(string(got), `"eventTime":"2023-11-14T22:13:20.123456Z"`) {
		t.Errorf("times: %s", got)
	}

	// Quantities in a map, a negative int64, an int64 beyond 2^53.
	limits := pbBytes(pbString(nil, 1, "cpu"), 2, pbString(nil, 1, "500m"))
	res := pbBytes(nil, 1, limits)
	c := pbBytes(pbString(nil, 1, "c"), 8, res)
	neg := binary.AppendUvarint(nil, uint64(1<<64-5)) // int32 -5, sign-extended
	podSpec := pbBytes(nil, 2, c)
	podSpec = append(binary.AppendUvarint(podSpec, 4<<3), neg...) // terminationGracePeriodSeconds: -5
	podSpec = pbVarint(podSpec, 5, 1<<60)                         // activeDeadlineSeconds
	got = mustJSON(t, pbEnvelope("v1", "Pod", pbBytes(nil, 2, podSpec)))
	for _, want := range []string{`"limits":{"cpu":"500m"}`, `"terminationGracePeriodSeconds":-5`, `"activeDeadlineSeconds":1152921504606846976`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("want %s in %s", want, got)
		}
	}
}

func TestWireRules(t *testing.T) {
	// Unknown fields of every wire type are skipped, a group included;
	// repeated singular fields: last scalar wins, messages merge; map
	// keys: last wins; packed repeated numbers unpack.
	var raw []byte
	raw = pbVarint(raw, 99, 7)
	raw = append(binary.AppendUvarint(raw, 98<<3|wireFixed64), 1, 2, 3, 4, 5, 6, 7, 8)
	raw = append(binary.AppendUvarint(raw, 97<<3|wireFixed32), 1, 2, 3, 4)
	raw = binary.AppendUvarint(raw, 96<<3|wireStartGroup)
	raw = pbVarint(raw, 1, 1)
	raw = binary.AppendUvarint(raw, 96<<3|wireEndGroup)
	raw = pbBytes(raw, 1, pbString(pbString(nil, 1, "old"), 3, "ns"))
	raw = pbBytes(raw, 1, pbString(nil, 1, "new"))
	raw = pbBytes(raw, 1, pbBytes(nil, 11, pbString(pbString(nil, 1, "k"), 2, "v1")))
	raw = pbBytes(raw, 1, pbBytes(nil, 11, pbString(pbString(nil, 1, "k"), 2, "v2")))
	got := mustJSON(t, pbEnvelope("v1", "Namespace", raw))
	compareJSON(t, got, []byte(`{"kind":"Namespace","apiVersion":"v1",
		"metadata":{"name":"new","namespace":"ns","labels":{"k":"v2"}},"spec":{},"status":{}}`))

	// A repeated int32 arriving both packed and one by one: Job's
	// podFailurePolicy.rules[].onExitCodes.values.
	values := binary.AppendUvarint(binary.AppendUvarint(nil, 1), 42)
	onExit := pbBytes(pbString(nil, 1, "c"), 3, values) // packed
	onExit = pbVarint(onExit, 3, 7)                     // and one unpacked
	rule := pbBytes(pbString(nil, 1, "FailJob"), 2, onExit)
	jobSpec := pbBytes(nil, 11, pbBytes(nil, 1, rule))
	got = mustJSON(t, pbEnvelope("batch/v1", "Job", pbBytes(nil, 2, jobSpec)))
	if !strings.Contains(string(got), `"values":[1,42,7]`) {
		t.Errorf("packed values: %s", got)
	}
}

func TestErrors(t *testing.T) {
	deployment := pbEnvelope("apps/v1", "Deployment", pbBytes(nil, 1, objectMeta("web")))
	cases := map[string][]byte{
		"no magic":          []byte(`{"kind":"Deployment"}`),
		"empty":             nil,
		"truncated":         deployment[:len(deployment)-2],
		"field zero":        pbEnvelope("v1", "Namespace", pbVarint(nil, 0, 1)),
		"wrong wire type":   pbEnvelope("v1", "Namespace", pbVarint(nil, 1, 1)),
		"bad wire type":     pbEnvelope("v1", "Namespace", []byte{1<<3 | 7}),
		"varint overflow":   pbEnvelope("v1", "Namespace", []byte{8 << 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
		"unclosed group":    pbEnvelope("v1", "Namespace", []byte{5<<3 | wireStartGroup}),
		"stray end group":   pbEnvelope("v1", "Namespace", []byte{5<<3 | wireEndGroup}),
		"long length":       pbEnvelope("v1", "Namespace", []byte{1<<3 | wireBytes, 100, 1}),
		"intstr type 2":     pbEnvelope("policy/v1", "PodDisruptionBudget", pbBytes(nil, 2, pbBytes(nil, 1, pbVarint(nil, 1, 2)))),
		"gzip":              pbString(pbBytes(append([]byte(nil), magic...), 1, pbString(pbString(nil, 1, "v1"), 2, "Namespace")), 3, "gzip"),
		"raw not json":      pbEnvelope("apps/v1", "ControllerRevision", pbBytes(nil, 2, pbString(nil, 1, "not json"))),
		"time out of range": pbEnvelope("v1", "Namespace", pbBytes(nil, 1, pbBytes(nil, 9, pbVarint(nil, 1, 1<<40)))),
	}
	for name, body := range cases {
		if out, err := ToJSON(body); err == nil {
			t.Errorf("%s: no error; got %s", name, out)
		} else if errors.Is(err, ErrUnknownKind) {
			t.Errorf("%s: reported as an unknown kind: %v", name, err)
		}
	}
	_, err := ToJSON(pbEnvelope("example.com/v1", "Widget", nil))
	if !errors.Is(err, ErrUnknownKind) {
		t.Errorf("unknown kind: %v", err)
	}
}

func TestRawExtension(t *testing.T) {
	// ControllerRevision.data: embedded JSON, or a whole envelope.
	cm := pbEnvelope("v1", "ConfigMap", pbBytes(pbBytes(nil, 1, objectMeta("c")), 2, pbString(pbString(nil, 1, "k"), 2, "v")))
	for _, tc := range []struct {
		raw  []byte
		want string
	}{
		{[]byte(`{"a": [1, 2]}`), `{"a":[1,2]}`},
		{cm, `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"k":"v"}}`},
	} {
		raw := pbBytes(pbBytes(nil, 1, objectMeta("r")), 2, pbBytes(nil, 1, tc.raw))
		got := mustJSON(t, pbEnvelope("apps/v1", "ControllerRevision", raw))
		compareJSON(t, got, []byte(`{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r"},"data":`+tc.want+`,"revision":0}`))
	}
}

func mustJSON(t *testing.T, body []byte) []byte {
	t.Helper()
	out, err := ToJSON(body)
	if err != nil {
		t.Fatalf("ToJSON: %v", err)
	}
	return out
}

func TestOutputIsBounded(t *testing.T) {
	// Empty list items cost two bytes each, but a PodTemplate comes out
	// with every member Go writes for a zero one, some 70 bytes.
	var items []byte
	for len(items) < 200000 {
		items = pbBytes(items, 2, nil)
	}
	if _, err := ToJSON(pbEnvelope("v1", "PodTemplateList", items)); !errors.Is(err, errTooLarge) {
		t.Errorf("want errTooLarge, got %v", err)
	}
}
