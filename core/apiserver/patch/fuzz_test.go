package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// Every fuzz target checks the same contract: no input panics, a failure
// is a *Error with a status, a success is valid JSON, and the same input
// gives the same bytes.

func checkPatchResult(t *testing.T, out []byte, err error, again func() ([]byte, error)) {
	t.Helper()
	if err != nil {
		var pe *Error
		if !errors.As(err, &pe) || pe.Code == 0 || pe.Message == "" {
			t.Fatalf("error without a status: %#v", err)
		}
		return
	}
	if len(out) > 0 && !json.Valid(out) {
		t.Fatalf("invalid JSON out: %s", out)
	}
	out2, err2 := again()
	if err2 != nil || !bytes.Equal(out, out2) {
		t.Fatalf("not deterministic: %s / %s (%v)", out, out2, err2)
	}
}

func FuzzJSONPatch(f *testing.F) {
	doc := `{"metadata":{"name":"p","labels":{"a":"1"},"finalizers":["x"]},"spec":{"list":[1,2,3]}}`
	for _, p := range []string{
		`[{"op":"add","path":"/metadata/labels/b","value":"2"}]`,
		`[{"op":"remove","path":"/metadata/finalizers"}]`,
		`[{"op":"replace","path":"/spec/list/-1","value":{"x":null}}]`,
		`[{"op":"move","from":"/spec/list/0","path":"/spec/list/-"}]`,
		`[{"op":"copy","from":"/spec","path":"/spec/list/0"}]`,
		`[{"op":"test","path":"","value":{}}]`,
		`[{"op":"replace","path":"","value":[1]},{"op":"add","path":"/0","value":2}]`,
		`[{"op":"add","path":"/a~1b~0c","value":1}]`,
		`[{"op":"remove","path":"x/metadata"}]`,
		`[{}]`, `[null]`, `{}`, `[`,
	} {
		f.Add([]byte(doc), []byte(p))
	}
	f.Add([]byte(`[1,{"a":[]}]`), []byte(`[{"op":"add","path":"/1/a/0","value":0}]`))
	f.Add([]byte(`"str"`), []byte(`[{"op":"add","path":"/a","value":0}]`))
	f.Add([]byte(``), []byte(`[]`))
	f.Fuzz(func(t *testing.T, doc, p []byte) {
		out, err := JSONPatch(doc, p)
		checkPatchResult(t, out, err, func() ([]byte, error) { return JSONPatch(doc, p) })
	})
}

func FuzzMergePatch(f *testing.F) {
	for _, c := range [][2]string{
		{`{"a":"b"}`, `{"a":null}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[{"x":null}]}`},
		{`[1,2]`, `{"a":"b","c":null}`},
		{`{"a":"b"}`, `["c",null]`},
		{`{"a":"foo"}`, `null`},
		{`{"a":1e400}`, `{"b":-0.0}`},
	} {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
	f.Fuzz(func(t *testing.T, doc, p []byte) {
		out, err := MergePatch(doc, p)
		checkPatchResult(t, out, err, func() ([]byte, error) { return MergePatch(doc, p) })
	})
}

var fuzzKinds = []string{"Pod", "Deployment", "Service", "Node", "ConfigMap", "CronJob"}

func FuzzStrategicMergePatch(f *testing.F) {
	for _, p := range []string{
		`{"spec":{"containers":[{"name":"app","image":"nginx:2"}]}}`,
		`{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}`,
		`{"spec":{"containers":[{"$patch":"replace"},{"name":"x"}]}}`,
		`{"metadata":{"finalizers":["a"],"$deleteFromPrimitiveList/finalizers":["kubernetes"]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"app"}]}}`,
		`{"spec":{"$setElementOrder/tolerations":[{"key":"x"}],"tolerations":[{"key":"x"}]}}`,
		`{"metadata":{"$retainKeys":["name"],"name":"x"}}`,
		`{"metadata":{"labels":{"$patch":"delete"}}}`,
		`{"spec":{"containers":[{"name":{"a":1}}]}}`,
		`{"spec":{"containers":[null,{"name":"a"}]}}`,
		`{"metadata":{"finalizers":[null,[1],{"a":1}]}}`,
		`{"spec":{"$setElementOrder/newList":[["a"]],"newList":[["a"]]}}`,
		`{"$patch":"replace","x":{"$patch":"delete"}}`,
	} {
		f.Add(uint8(0), []byte(podJSON), []byte(p))
	}
	f.Add(uint8(1), []byte(lastApplied), []byte(`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`))
	f.Add(uint8(2), []byte(`{"spec":{"ports":[{"port":80},{"port":"80"}]}}`), []byte(`{"spec":{"ports":[{"port":80,"name":"a"}]}}`))
	f.Fuzz(func(t *testing.T, kind uint8, doc, p []byte) {
		s := KindSchema(fuzzKinds[int(kind)%len(fuzzKinds)])
		out, err := StrategicMergePatch(doc, p, s)
		checkPatchResult(t, out, err, func() ([]byte, error) { return StrategicMergePatch(doc, p, s) })
	})
}

func FuzzCreateThreeWayMergePatch(f *testing.F) {
	f.Add(uint8(1), []byte(lastApplied), []byte(newManifest), []byte(liveObject))
	f.Add(uint8(0), []byte(podJSON), []byte(`{"metadata":{"finalizers":["b","a"]},"spec":{"containers":[{"name":"app"}]}}`), []byte(podJSON))
	f.Add(uint8(7), []byte(`{"a":[1,2]}`), []byte(`{"a":[2]}`), []byte(`{"a":[1,2,3],"b":null}`))
	f.Add(uint8(0), []byte(``), []byte(`{"spec":{"containers":[{"name":"a","env":[{"name":"x"}]}]}}`), []byte(`{"spec":{"containers":[]}}`))
	f.Fuzz(func(t *testing.T, kind uint8, original, modified, current []byte) {
		s := Schema{}
		if int(kind) < len(fuzzKinds) {
			s = KindSchema(fuzzKinds[kind])
		}
		for _, overwrite := range []bool{true, false} {
			p, err := CreateThreeWayMergePatch(original, modified, current, s, overwrite)
			if err != nil {
				continue
			}
			if !json.Valid(p) {
				t.Fatalf("invalid patch: %s", p)
			}
			p2, err := CreateThreeWayMergePatch(original, modified, current, s, overwrite)
			if err != nil || !bytes.Equal(p, p2) {
				t.Fatalf("not deterministic: %s / %s", p, p2)
			}
			if !s.IsZero() {
				_, _ = StrategicMergePatch(current, p, s)
			}
		}
		_, _ = CreateTwoWayMergePatch(original, modified, s)
	})
}
