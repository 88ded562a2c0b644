package patch

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// canonical re-marshals JSON so expectations can be written loosely.
func canonical(t *testing.T, s string) string {
	t.Helper()
	v, err := decodeJSONNumbers([]byte(s))
	if err != nil {
		t.Fatalf("bad JSON in test: %v\n%s", err, s)
	}
	b, err := marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func errorCode(err error) int {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return 0
}

func TestJSONPatchOperations(t *testing.T) {
	doc := `{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":1}}`
	tests := []struct {
		name, patch, want string
	}{
		{"add a key", `[{"op":"add","path":"/metadata/labels/tier","value":"fe"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y","tier":"fe"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":1}}`},
		{"add replaces an existing key", `[{"op":"add","path":"/spec/n","value":2}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":2}}`},
		{"add inserts into a list", `[{"op":"add","path":"/spec/list/1","value":"z"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","z","b","c"],"n":1}}`},
		{"dash appends", `[{"op":"add","path":"/metadata/finalizers/-","value":"foo"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes","foo"]},"spec":{"list":["a","b","c"],"n":1}}`},
		{"negative index counts from the end", `[{"op":"remove","path":"/spec/list/-1"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b"],"n":1}}`},
		{"remove finalizers (the seed's unblock step)", `[{"op":"remove","path":"/metadata/finalizers"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"}},"spec":{"list":["a","b","c"],"n":1}}`},
		{"~1 escapes a slash", `[{"op":"remove","path":"/metadata/labels/a~1b"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":1}}`},
		{"~0 escapes a tilde", `[{"op":"replace","path":"/metadata/labels/t~0n","value":"z"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"z"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":1}}`},
		{"replace a list item", `[{"op":"replace","path":"/spec/list/0","value":"A"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["A","b","c"],"n":1}}`},
		{"replace of a missing object key adds it, as json-patch v4 does", `[{"op":"replace","path":"/spec/m","value":true}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"m":true,"n":1}}`},
		{"move", `[{"op":"move","from":"/metadata/labels/app","path":"/metadata/labels/name"}]`,
			`{"metadata":{"name":"p","labels":{"name":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":1}}`},
		{"move within a list", `[{"op":"move","from":"/spec/list/0","path":"/spec/list/2"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["b","c","a"],"n":1}}`},
		{"copy", `[{"op":"copy","from":"/metadata/finalizers","path":"/spec/copied"}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"copied":["kubernetes"],"list":["a","b","c"],"n":1}}`},
		{"test then change", `[{"op":"test","path":"/spec/n","value":1},{"op":"replace","path":"/spec/n","value":5}]`,
			`{"metadata":{"name":"p","labels":{"app":"web","a/b":"x","t~n":"y"},"finalizers":["kubernetes"]},"spec":{"list":["a","b","c"],"n":5}}`},
		{"test a whole object", `[{"op":"test","path":"/spec","value":{"n":1,"list":["a","b","c"]}}]`, doc},
		{"replace the whole document", `[{"op":"replace","path":"","value":{"x":1}}]`, `{"x":1}`},
		{"no operations", `[]`, doc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := JSONPatch([]byte(doc), []byte(tt.patch))
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if string(got) != canonical(t, tt.want) {
				t.Errorf("got  %s\nwant %s", got, canonical(t, tt.want))
			}
		})
	}
}

func TestJSONPatchErrors(t *testing.T) {
	doc := `{"metadata":{"name":"p"},"spec":{"list":["a"],"n":1}}`
	tests := []struct {
		name, patch string
		code        int
		msg         string
	}{
		{"not JSON", `[{`, http.StatusBadRequest, "unexpected end of JSON input"},
		{"not a list", `{"op":"add"}`, http.StatusBadRequest, "json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
		{"operation not an object", `["add"]`, http.StatusBadRequest, "json: cannot unmarshal string into Go value of type jsonpatch.Operation"},
		{"missing parent", `[{"op":"add","path":"/spec/foo/bar","value":1}]`, http.StatusUnprocessableEntity,
			`add operation does not apply: doc is missing path: "/spec/foo/bar": missing value`},
		{"path not a pointer", `[{"op":"add","path":"","value":1}]`, http.StatusUnprocessableEntity,
			`add operation does not apply: doc is missing path: "": missing value`},
		{"add without path", `[{"op":"add","value":1}]`, http.StatusUnprocessableEntity, "add operation failed to decode path: missing value"},
		{"remove a missing key", `[{"op":"remove","path":"/spec/x"}]`, http.StatusUnprocessableEntity,
			"error in remove for path: '/spec/x': Unable to remove nonexistent key: x: missing value"},
		{"remove past the end", `[{"op":"remove","path":"/spec/list/1"}]`, http.StatusUnprocessableEntity,
			"error in remove for path: '/spec/list/1': Unable to access invalid index: 1: invalid index referenced"},
		{"remove with dash", `[{"op":"remove","path":"/spec/list/-"}]`, http.StatusUnprocessableEntity,
			`error in remove for path: '/spec/list/-': strconv.Atoi: parsing "-": invalid syntax`},
		{"add past the end", `[{"op":"add","path":"/spec/list/5","value":"z"}]`, http.StatusUnprocessableEntity,
			"error in add for path: '/spec/list/5': Unable to access invalid index: 5: invalid index referenced"},
		{"add with a bad index", `[{"op":"add","path":"/spec/list/x","value":"z"}]`, http.StatusUnprocessableEntity,
			`error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`},
		{"replace under a missing parent", `[{"op":"replace","path":"/status/phase","value":"x"}]`, http.StatusUnprocessableEntity,
			"replace operation does not apply: doc is missing path: /status/phase: missing value"},
		{"replace past the end", `[{"op":"replace","path":"/spec/list/3","value":"x"}]`, http.StatusUnprocessableEntity,
			"replace operation does not apply: doc is missing key: /spec/list/3: missing value"},
		{"replace without path", `[{"op":"replace","value":"x"}]`, http.StatusUnprocessableEntity,
			"replace operation failed to decode path: operation missing path field: missing value"},
		{"move from nowhere", `[{"op":"move","from":"/nope/x","path":"/y"}]`, http.StatusUnprocessableEntity,
			"move operation does not apply: doc is missing from path: /nope/x: missing value"},
		{"move without from", `[{"op":"move","path":"/y"}]`, http.StatusUnprocessableEntity,
			"move operation failed to decode from: operation, missing from field: missing value"},
		{"copy to nowhere", `[{"op":"copy","from":"/spec/n","path":"/nope/x"}]`, http.StatusUnprocessableEntity,
			"copy operation does not apply: doc is missing destination path: /nope/x: missing value"},
		{"failing test", `[{"op":"test","path":"/spec/n","value":2}]`, http.StatusUnprocessableEntity,
			"testing value /spec/n failed: test failed"},
		{"test compares numbers as written", `[{"op":"test","path":"/spec/n","value":1.0}]`, http.StatusUnprocessableEntity,
			"testing value /spec/n failed: test failed"},
		{"test under a missing parent", `[{"op":"test","path":"/x/y","value":2}]`, http.StatusUnprocessableEntity,
			"test operation does not apply: is missing path: /x/y: missing value"},
		{"unknown op", `[{"op":"frobnicate","path":"/x"}]`, http.StatusUnprocessableEntity, "Unexpected kind: frobnicate"},
		{"op not a string", `[{"op":1,"path":"/x"}]`, http.StatusUnprocessableEntity, "Unexpected kind: unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := JSONPatch([]byte(doc), []byte(tt.patch))
			if err == nil {
				t.Fatalf("want error, got %s", got)
			}
			if err.Error() != tt.msg {
				t.Errorf("message\n got %q\nwant %q", err.Error(), tt.msg)
			}
			if errorCode(err) != tt.code {
				t.Errorf("code %d, want %d", errorCode(err), tt.code)
			}
		})
	}
}

func TestJSONPatchFailureLeavesNothingHalfDone(t *testing.T) {
	// The first operation applies, the second fails: no document comes
	// back, so the caller stores nothing.
	got, err := JSONPatch([]byte(`{"a":1}`), []byte(`[{"op":"add","path":"/b","value":2},{"op":"remove","path":"/c"}]`))
	if err == nil || got != nil {
		t.Fatalf("got %s, %v", got, err)
	}
}

func TestJSONPatchLimits(t *testing.T) {
	ops := "[" + strings.Repeat(`{"op":"test","path":"/a","value":1},`, MaxJSONPatchOperations) + `{"op":"test","path":"/a","value":1}]`
	_, err := JSONPatch([]byte(`{"a":1}`), []byte(ops))
	if errorCode(err) != http.StatusRequestEntityTooLarge ||
		err.Error() != "The allowed maximum operations in a JSON patch is 10000, got 10001" {
		t.Errorf("got %v (code %d)", err, errorCode(err))
	}

	// Doubling a value by copying it into itself cannot exhaust memory.
	var b strings.Builder
	b.WriteString(`[`)
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"op":"copy","from":"/a","path":"/a/-"}`)
	}
	b.WriteString(`]`)
	_, err = JSONPatch([]byte(`{"a":["xxxxxxxxxxxxxxxx"]}`), []byte(b.String()))
	if errorCode(err) != http.StatusUnprocessableEntity || !strings.HasPrefix(err.Error(), "Unable to complete the copy") {
		t.Errorf("got %v", err)
	}
}
