package codec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files under testdata/kubectl were printed by upstream kubectl v1.32.5
// (kubectl.1.32 of the Google Cloud SDK), without a server:
//
//	NAME.kubectl-yaml, NAME.kubectl-json  for the manifest NAME.yaml:
//	    kubectl annotate --local --overwrite -f NAME.yaml kp=1 -o yaml|json
//	    (the manifests carry the annotation already, so the output is the
//	    manifest itself, held as kubectl holds objects: unstructured)
//	create-deployment.*  kubectl create deployment x --image=nginx --dry-run=client -o yaml|json
//	create-configmap.*   kubectl create configmap c --from-literal=a=true --from-literal=b='x: y'
//	                         --from-literal=c=$'l1\nl2' --from-literal='d=<a&b>' --dry-run=client -o yaml|json
//	create-job.*         kubectl create job j --image=busybox --dry-run=client -o yaml|json -- sh -c 'echo hello; sleep 5'
//	create-service.*     kubectl create service clusterip s --tcp=80:8080 --dry-run=client -o yaml|json

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Manifests with every kind of awkward string, read and printed back as
// kubectl prints them.
func TestEncodeLikeKubectlUnstructured(t *testing.T) {
	files, _ := filepath.Glob("testdata/kubectl/tricky-*.yaml")
	if len(files) == 0 {
		t.Fatal("no manifests")
	}
	for _, f := range files {
		base := strings.TrimSuffix(f, ".yaml")
		js, err := YAMLToJSON(readFile(t, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var m map[string]any
		if m, err = unstructuredFromJSON(js); err != nil {
			t.Fatal(err)
		}
		y, err := EncodeYAML(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := string(readFile(t, base+".kubectl-yaml")); string(y) != want {
			t.Errorf("%s: EncodeYAML\n got:\n%s\nwant:\n%s", f, y, want)
		}
		j, err := EncodeJSON(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := string(readFile(t, base+".kubectl-json")); string(j) != want {
			t.Errorf("%s: EncodeJSON\n got:\n%s\nwant:\n%s", f, j, want)
		}
	}
}

func unstructuredFromJSON(js []byte) (map[string]any, error) {
	var raw any
	if err := jsonUnmarshalNumber(js, &raw); err != nil {
		return nil, err
	}
	return Unstructured(raw)
}

// Objects kubectl builds itself, decoded into kubeplay's types and printed
// again: the YAML must match byte for byte.
func TestEncodeLikeKubectlTyped(t *testing.T) {
	for _, name := range []string{"create-deployment", "create-configmap", "create-job", "create-service"} {
		base := "testdata/kubectl/" + name
		obj, err := Decode(readFile(t, base+".kubectl-json"), DecodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		y, err := EncodeYAML(obj)
		if err != nil {
			t.Fatal(err)
		}
		if want := string(readFile(t, base+".kubectl-yaml")); string(y) != want {
			t.Errorf("%s: EncodeYAML\n got:\n%s\nwant:\n%s", name, y, want)
		}
	}
}

// EncodeJSON is json.MarshalIndent with four spaces and HTML escaping, as
// kubectl's JSON printer; a map prints sorted.
func TestEncodeJSON(t *testing.T) {
	got, err := EncodeJSON(map[string]any{"kind": "ConfigMap", "data": map[string]any{"d": "<a&b>"}, "apiVersion": "v1"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"apiVersion\": \"v1\",\n    \"data\": {\n        \"d\": \"\\u003ca\\u0026b\\u003e\"\n    },\n    \"kind\": \"ConfigMap\"\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Round trip: a manifest's JSON, printed as YAML and read again, is the
// same JSON.
func TestYAMLRoundTrip(t *testing.T) {
	for _, doc := range seedDocuments(t) {
		for _, d := range SplitDocuments(doc) {
			js, err := YAMLToJSON(d)
			if err != nil {
				continue
			}
			y, err := JSONToYAML(js)
			if err != nil {
				t.Fatalf("JSONToYAML(%s): %v", js, err)
			}
			back, err := YAMLToJSON(y)
			if err != nil || string(back) != string(js) {
				t.Errorf("round trip of %s\n yaml:\n%s\n back: %s %v", js, y, back, err)
			}
		}
	}
}

// kubectl prints YAML by reading its JSON back as YAML, and a YAML reader
// looks back at most 1,024 characters for a simple key; a longer key fails
// there, in `kubectl annotate --local -o yaml` too, while one of 129 to
// 1,024 characters prints in the explicit "? key" form.
func TestEncodeYAMLRefusesAKeyPastTheSimpleKeyLimit(t *testing.T) {
	long := map[string]string{strings.Repeat("d", 1100): "v"}
	if y, err := EncodeYAML(long); err == nil || err.Error() != "yaml: did not find expected ',' or '}'" {
		t.Errorf("a 1,100-character key: %q, %v", y, err)
	}
	k := strings.Repeat("d", 200)
	y, err := EncodeYAML(map[string]string{k: "v"})
	if want := "? " + k + "\n: v\n"; err != nil || string(y) != want {
		t.Errorf("a 200-character key: %q, %v", y, err)
	}
}
