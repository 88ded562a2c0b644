package patch

import (
	"errors"
	"strings"
	"testing"
)

// An apply round: last-applied, the new manifest, and the live object
// carrying fields the server and other writers set.
const (
	lastApplied = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web","tier":"fe"}},
	  "spec":{"replicas":2,"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[
	  {"name":"nginx","image":"nginx:1.0","ports":[{"containerPort":80}],"env":[{"name":"MODE","value":"a"},{"name":"OLD","value":"x"}]}]}}}}`
	newManifest = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
	  "spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[
	  {"name":"nginx","image":"nginx:1.1","env":[{"name":"MODE","value":"a"}]}]}}}}`
	liveObject = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","uid":"u1","resourceVersion":"5",
	  "annotations":{"deployment.kubernetes.io/revision":"1"},"labels":{"app":"web","tier":"fe","team":"ops"}},
	  "spec":{"replicas":2,"progressDeadlineSeconds":600,"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[
	  {"name":"nginx","image":"nginx:1.0","ports":[{"containerPort":80,"protocol":"TCP"}],"env":[{"name":"MODE","value":"a"},{"name":"OLD","value":"x"}],
	   "terminationMessagePath":"/dev/termination-log"}],"restartPolicy":"Always"}}},"status":{"replicas":2}}`
)

func TestCreateThreeWayMergePatchApply(t *testing.T) {
	schema := KindSchema("Deployment")
	p, err := CreateThreeWayMergePatch([]byte(lastApplied), []byte(newManifest), []byte(liveObject), schema, true)
	if err != nil {
		t.Fatal(err)
	}
	// The label and port that left the manifest are deleted, the env var
	// by a $patch: delete item; the image and replicas change; nothing the
	// server or another writer set is touched.
	wantPatch := canonical(t, `{"metadata":{"labels":{"tier":null}},"spec":{"replicas":3,"template":{"spec":{
	  "$setElementOrder/containers":[{"name":"nginx"}],
	  "containers":[{"name":"nginx","image":"nginx:1.1","ports":null,
	    "$setElementOrder/env":[{"name":"MODE"}],"env":[{"name":"OLD","$patch":"delete"}]}]}}}}`)
	if string(p) != wantPatch {
		t.Fatalf("patch\n got %s\nwant %s", p, wantPatch)
	}
	got, err := StrategicMergePatch([]byte(liveObject), p, schema)
	if err != nil {
		t.Fatal(err)
	}
	want := canonical(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","uid":"u1","resourceVersion":"5",
	  "annotations":{"deployment.kubernetes.io/revision":"1"},"labels":{"app":"web","team":"ops"}},
	  "spec":{"replicas":3,"progressDeadlineSeconds":600,"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[
	  {"name":"nginx","image":"nginx:1.1","env":[{"name":"MODE","value":"a"}],"terminationMessagePath":"/dev/termination-log"}],
	  "restartPolicy":"Always"}}},"status":{"replicas":2}}`)
	if string(got) != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
}

func TestCreateThreeWayMergePatchCases(t *testing.T) {
	tests := []struct {
		name, original, modified, current, want string
	}{
		{"first apply (no last-applied) only adds",
			``, `{"metadata":{"labels":{"a":"1"}}}`, `{"metadata":{"labels":{"a":"1","b":"2"}}}`, `{}`},
		{"unchanged manifest gives an empty patch",
			`{"spec":{"replicas":1}}`, `{"spec":{"replicas":1}}`, `{"spec":{"replicas":1,"paused":false}}`, `{}`},
		{"a field changed on the server is set back",
			`{"spec":{"replicas":1}}`, `{"spec":{"replicas":1}}`, `{"spec":{"replicas":5}}`, `{"spec":{"replicas":1}}`},
		{"a finalizer removed from the manifest",
			`{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["a"]}}`, `{"metadata":{"finalizers":["a","b","c"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["a"]}}`},
		{"a container removed from the manifest",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}}}}`,
			`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"$patch":"delete","name":"b"}]}}}}`},
		{"strategy switched to Recreate drops rollingUpdate",
			`{"spec":{"strategy":{"type":"RollingUpdate"}}}`,
			`{"spec":{"strategy":{"type":"Recreate"}}}`,
			`{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`,
			`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := CreateThreeWayMergePatch([]byte(tt.original), []byte(tt.modified), []byte(tt.current), KindSchema("Deployment"), true)
			if err != nil {
				t.Fatal(err)
			}
			if string(p) != canonical(t, tt.want) {
				t.Errorf("got  %s\nwant %s", p, canonical(t, tt.want))
			}
		})
	}
}

func TestCreateThreeWayMergePatchWithoutSchema(t *testing.T) {
	// A kind kubeplay has no types for gets a JSON merge patch: lists are
	// replaced whole and no directives appear.
	p, err := CreateThreeWayMergePatch([]byte(lastApplied), []byte(newManifest), []byte(liveObject), KindSchema("Widget"), true)
	if err != nil {
		t.Fatal(err)
	}
	want := canonical(t, `{"metadata":{"labels":{"tier":null}},"spec":{"replicas":3,"template":{"spec":{"containers":[
	  {"name":"nginx","image":"nginx:1.1","env":[{"name":"MODE","value":"a"}]}]}}}}`)
	if string(p) != want {
		t.Errorf("got  %s\nwant %s", p, want)
	}
}

func TestCreateThreeWayMergePatchConflict(t *testing.T) {
	original := `{"metadata":{"labels":{"tier":"fe"}}}`
	modified := `{"metadata":{"labels":{"tier":"web"}}}`
	current := `{"metadata":{"labels":{"tier":"be"}}}`
	_, err := CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), KindSchema("Pod"), false)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("want a conflict, got %v", err)
	}
	want := "patch:\nmetadata:\n  labels:\n    tier: web\n\nconflicts with changes made from original to current:\nmetadata:\n  labels:\n    tier: be\n\n"
	if err.Error() != want {
		t.Errorf("got %q\nwant %q", err.Error(), want)
	}
	// Overwriting is what kubectl apply does by default.
	p, err := CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), KindSchema("Pod"), true)
	if err != nil || string(p) != `{"metadata":{"labels":{"tier":"web"}}}` {
		t.Errorf("got %s, %v", p, err)
	}
}

func TestCreateTwoWayMergePatch(t *testing.T) {
	p, err := CreateTwoWayMergePatch([]byte(lastApplied), []byte(newManifest), KindSchema("Deployment"))
	if err != nil {
		t.Fatal(err)
	}
	want := canonical(t, `{"metadata":{"labels":{"tier":null}},"spec":{"replicas":3,"template":{"spec":{
	  "$setElementOrder/containers":[{"name":"nginx"}],
	  "containers":[{"name":"nginx","image":"nginx:1.1","ports":null,
	    "$setElementOrder/env":[{"name":"MODE"}],"env":[{"name":"OLD","$patch":"delete"}]}]}}}}`)
	if string(p) != want {
		t.Fatalf("got  %s\nwant %s", p, want)
	}
	// Applied to the original it gives the modified document.
	got, err := StrategicMergePatch([]byte(lastApplied), p, KindSchema("Deployment"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != canonical(t, newManifest) {
		t.Errorf("round trip\n got %s\nwant %s", got, canonical(t, newManifest))
	}
}

func TestCreatePatchBadDocuments(t *testing.T) {
	if _, err := CreateTwoWayMergePatch([]byte(`{`), []byte(`{}`), KindSchema("Pod")); err == nil || err.Error() != "invalid JSON document" {
		t.Errorf("two-way: %v", err)
	}
	if _, err := CreateThreeWayMergePatch([]byte(`{}`), []byte(`[`), []byte(`{}`), KindSchema("Pod"), true); err == nil || err.Error() != "invalid JSON document" {
		t.Errorf("three-way: %v", err)
	}
	if _, err := CreateThreeWayMergePatch([]byte(`{}`), []byte(`[`), []byte(`{}`), Schema{}, true); err == nil || !strings.Contains(err.Error(), "Invalid JSON Document") {
		t.Errorf("three-way JSON merge: %v", err)
	}
}
