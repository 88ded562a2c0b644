package patch

import (
	"net/http"
	"testing"
)

func TestMergePatch(t *testing.T) {
	tests := []struct {
		name, doc, patch, want string
	}{
		// RFC 7386, appendix A.
		{"replace a value", `{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{"add a key", `{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{"null deletes", `{"a":"b"}`, `{"a":null}`, `{}`},
		{"null deletes only its key", `{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{"scalar replaces a list", `{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{"list replaces a scalar", `{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{"objects merge recursively", `{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{"lists are replaced, not merged", `{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{"a null already there stays", `{"e":null}`, `{"a":1}`, `{"a":1,"e":null}`},
		{"nulls inside new objects are dropped", `{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
		// Kubernetes uses.
		{"labels", `{"metadata":{"labels":{"app":"web","tier":"fe"}}}`, `{"metadata":{"labels":{"tier":null,"v":"2"}}}`,
			`{"metadata":{"labels":{"app":"web","v":"2"}}}`},
		{"finalizers are replaced wholesale", `{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["c"]}}`,
			`{"metadata":{"finalizers":["c"]}}`},
		{"numbers keep their spelling", `{"spec":{"replicas":3}}`, `{"spec":{"x":1.50}}`, `{"spec":{"replicas":3,"x":1.50}}`},
		{"a patch that is a list becomes the document", `{"a":"b"}`, `["c"]`, `["c"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MergePatch([]byte(tt.doc), []byte(tt.patch))
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if string(got) != canonical(t, tt.want) {
				t.Errorf("got  %s\nwant %s", got, canonical(t, tt.want))
			}
		})
	}
}

func TestMergePatchErrors(t *testing.T) {
	tests := []struct {
		name, doc, patch string
		code             int
		msg              string
	}{
		{"patch is null", `{"a":"foo"}`, `null`, http.StatusBadRequest, "Invalid JSON Patch"},
		{"patch is a string", `{"a":"foo"}`, `"bar"`, http.StatusBadRequest, "Invalid JSON Patch"},
		{"patch is not JSON", `{"a":"foo"}`, `{"a":`, http.StatusBadRequest, "Invalid JSON Patch"},
		{"document is not JSON", `{`, `{}`, http.StatusInternalServerError, "Invalid JSON Document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MergePatch([]byte(tt.doc), []byte(tt.patch))
			if err == nil {
				t.Fatalf("want error, got %s", got)
			}
			if err.Error() != tt.msg || errorCode(err) != tt.code {
				t.Errorf("got %q (%d), want %q (%d)", err.Error(), errorCode(err), tt.msg, tt.code)
			}
		})
	}
}

func TestCreateMergePatch(t *testing.T) {
	got, err := CreateMergePatch(
		[]byte(`{"a":1,"b":{"c":"x","d":"y"},"l":[1,2],"gone":true}`),
		[]byte(`{"a":1.0,"b":{"c":"x","d":"z"},"l":[1,2,3],"new":"n"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":{"d":"z"},"gone":null,"l":[1,2,3],"new":"n"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
