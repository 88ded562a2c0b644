package api_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
)

// Each testdata/roundtrip file is an object as a v1.32 API server returns
// it. Decoding it strictly and encoding it again must give the same JSON:
// every field is known, and omitempty and pointers behave as upstream's.
func TestRealObjectsRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "roundtrip", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, err := codec.YAMLToJSON(src)
			if err != nil {
				t.Fatal(err)
			}
			var tm api.TypeMeta
			if err := json.Unmarshal(in, &tm); err != nil {
				t.Fatal(err)
			}
			obj, ok := api.New(tm.APIVersion, tm.Kind)
			if !ok {
				t.Fatalf("%s %s is not served", tm.APIVersion, tm.Kind)
			}
			dec := json.NewDecoder(bytes.NewReader(in))
			dec.DisallowUnknownFields()
			if err := dec.Decode(obj); err != nil {
				t.Fatalf("strict decode: %v", err)
			}
			out, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(in, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("re-encoded object differs\nwant %s\n got %s", in, out)
			}
			// A copy encodes the same.
			again, _ := json.Marshal(obj.DeepCopyObject())
			if !bytes.Equal(again, out) {
				t.Errorf("deep copy encodes differently:\n%s\n%s", out, again)
			}
		})
	}
}
