package patch

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

const podJSON = `{"apiVersion":"v1","kind":"Pod",
 "metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
 "spec":{
  "containers":[
   {"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
    "ports":[{"containerPort":80,"protocol":"TCP"}]},
   {"name":"sidecar","image":"busybox"}],
  "tolerations":[{"key":"x","operator":"Exists"}]}}`

func TestStrategicMergePatchPod(t *testing.T) {
	tests := []struct {
		name, patch, want string
	}{
		{"containers merge by name: an image change keeps the rest",
			`{"spec":{"containers":[{"name":"app","image":"nginx:2.0"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:2.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"a new container goes before the server's, as upstream orders it",
			`{"spec":{"containers":[{"name":"debug","image":"alpine"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"debug","image":"alpine"},{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"$patch: delete removes a container",
			`{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]}],
			  "tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"env merges by name",
			`{"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"20"},{"name":"C","value":"3"}]}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"20"},{"name":"C","value":"3"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"ports merge by containerPort",
			`{"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"name":"http"}]}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"name":"http","protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"finalizers merge as a set",
			`{"metadata":{"finalizers":["kubernetes","example.com/guard"]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes","example.com/guard"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"$deleteFromPrimitiveList removes a finalizer",
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["kubernetes"]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":[],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"null deletes a key; a null for a missing key is dropped",
			`{"metadata":{"labels":{"tier":null,"nope":null},"finalizers":null}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","labels":{"app":"web"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"tolerations have no merge strategy: replaced",
			`{"spec":{"tolerations":[{"key":"y","operator":"Exists"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"y","operator":"Exists"}]}}`},
		{"$patch: replace in a list replaces it",
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"x"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"only","image":"x"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"$patch: replace in a map replaces it",
			`{"metadata":{"labels":{"$patch":"replace","new":"1"}}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"new":"1"}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"$patch: delete in a map empties it",
			`{"metadata":{"labels":{"$patch":"delete"}}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{}},
			  "spec":{"containers":[{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]},
			  {"name":"sidecar","image":"busybox"}],"tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"$setElementOrder puts containers in the given order",
			`{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"app"}]}}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["kubernetes"],"labels":{"app":"web","tier":"fe"}},
			  "spec":{"containers":[{"name":"sidecar","image":"busybox"},{"name":"app","image":"nginx:1.0","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80,"protocol":"TCP"}]}],
			  "tolerations":[{"key":"x","operator":"Exists"}]}}`},
		{"empty patch", `{}`, podJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StrategicMergePatch([]byte(podJSON), []byte(tt.patch), KindSchema("Pod"))
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if string(got) != canonical(t, tt.want) {
				t.Errorf("got  %s\nwant %s", got, canonical(t, tt.want))
			}
		})
	}
}

func TestStrategicMergePatchKinds(t *testing.T) {
	tests := []struct {
		name, kind, doc, patch, want string
	}{
		{"deployment template containers merge by name", "Deployment",
			`{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"a","image":"x:1"},{"name":"b","image":"y:1"}]}}}}`,
			`{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"b","image":"y:2"}]}}}}`,
			`{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"a","image":"x:1"},{"name":"b","image":"y:2"}]}}}}`},
		{"deployment strategy keeps only $retainKeys", "Deployment",
			`{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}}}}`,
			`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
			`{"spec":{"strategy":{"type":"Recreate"}}}`},
		{"cronjob job template reaches the pod spec", "CronJob",
			`{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}}}}`,
			`{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["hi"]}]}}}}}}`,
			`{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"args":["hi"],"image":"x","name":"a"}]}}}}}}`},
		{"service ports merge by port", "Service",
			`{"spec":{"ports":[{"port":80,"targetPort":8080},{"port":443}]}}`,
			`{"spec":{"ports":[{"port":80,"targetPort":9090}]}}`,
			`{"spec":{"ports":[{"port":80,"targetPort":9090},{"port":443}]}}`},
		{"node conditions merge by type", "Node",
			`{"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"MemoryPressure","status":"False"}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"Unknown"}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"Unknown"},{"type":"MemoryPressure","status":"False"}]}}`},
		{"owner references merge by uid", "ConfigMap",
			`{"metadata":{"ownerReferences":[{"uid":"1","name":"a"}]},"data":{"k":"v"}}`,
			`{"metadata":{"ownerReferences":[{"uid":"1","controller":true}]},"data":{"k":null,"k2":"v2"}}`,
			`{"metadata":{"ownerReferences":[{"controller":true,"name":"a","uid":"1"}]},"data":{"k2":"v2"}}`},
		{"pod disruption budget selector is replaced", "PodDisruptionBudget",
			`{"spec":{"selector":{"matchLabels":{"a":"1"}}}}`,
			`{"spec":{"selector":{"matchLabels":{"b":"2"}}}}`,
			`{"spec":{"selector":{"matchLabels":{"b":"2"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StrategicMergePatch([]byte(tt.doc), []byte(tt.patch), KindSchema(tt.kind))
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if string(got) != canonical(t, tt.want) {
				t.Errorf("got  %s\nwant %s", got, canonical(t, tt.want))
			}
		})
	}
}

func TestStrategicMergePatchErrors(t *testing.T) {
	tests := []struct {
		name, patch string
		code        int
		msg         string
	}{
		{"not JSON", `{"spec":`, http.StatusBadRequest, "unexpected end of JSON input"},
		{"not an object", `[1]`, http.StatusBadRequest, "json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{"merge key missing", `{"spec":{"containers":[{"image":"x"}]}}`, http.StatusInternalServerError,
			"map: map[image:x] does not contain declared merge key: name"},
		{"unknown directive in a list", `{"spec":{"containers":[{"name":"app","$patch":"frob"}]}}`, http.StatusInternalServerError,
			"unknown patch type: frob in map: map[$patch:frob name:app]"},
		{"unknown directive in a map", `{"metadata":{"$patch":"frob"}}`, http.StatusInternalServerError,
			"unknown patch type: frob in map: map[$patch:frob]"},
		{"$patch: merge in a list", `{"spec":{"containers":[{"$patch":"merge"}]}}`, http.StatusInternalServerError,
			"merging lists cannot yet be specified in the patch"},
		{"mixed element types", `{"spec":{"containers":["app"]}}`, http.StatusInternalServerError,
			"list element types are not identical: [[map[env:[map[name:A value:1] map[name:B value:2]] image:nginx:1.0 name:app ports:[map[containerPort:80 protocol:TCP]]] map[image:busybox name:sidecar]] [app]]"},
		{"list of lists", `{"metadata":{"finalizers":[["a"]]}}`, http.StatusInternalServerError,
			"list element types are not identical: [[kubernetes] [[a]]]"},
		{"bad $retainKeys", `{"metadata":{"$retainKeys":"name"}}`, http.StatusBadRequest, "invalid patch format of retainKeys"},
		{"field outside $retainKeys", `{"metadata":{"$retainKeys":["name"],"labels":{}}}`, http.StatusBadRequest, "invalid patch format of retainKeys"},
		{"bad $deleteFromPrimitiveList key", `{"metadata":{"$deleteFromPrimitiveListfinalizers":["a"]}}`, http.StatusBadRequest,
			"invalid patch format of primitive list"},
		{"bad $setElementOrder key", `{"spec":{"$setElementOrder":[]}}`, http.StatusBadRequest, "invalid patch format of setElementOrder list"},
		{"$setElementOrder that is not a list", `{"spec":{"$setElementOrder/containers":{}}}`, http.StatusInternalServerError,
			"expected a []interface {}, but received a map[string]interface {}"},
		{"patch order contradicting $setElementOrder", `{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"name":"sidecar","image":"z"}]}}`,
			http.StatusInternalServerError,
			"The order in patch list:\n[map[image:z name:sidecar]]\n doesn't match $setElementOrder list:\n[map[name:app]]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StrategicMergePatch([]byte(podJSON), []byte(tt.patch), KindSchema("Pod"))
			if err == nil {
				t.Fatalf("want error, got %s", got)
			}
			if err.Error() != tt.msg || errorCode(err) != tt.code {
				t.Errorf("got  %q (%d)\nwant %q (%d)", err.Error(), errorCode(err), tt.msg, tt.code)
			}
		})
	}
}

func TestStrategicMergePatchListOfLists(t *testing.T) {
	_, err := StrategicMergePatch([]byte(`{"metadata":{"finalizers":[]}}`), []byte(`{"metadata":{"finalizers":[["a"]]}}`), KindSchema("Pod"))
	if err == nil || err.Error() != "lists of lists are not supported" || errorCode(err) != http.StatusUnprocessableEntity {
		t.Errorf("got %v", err)
	}
}

func TestStrategicMergePatchNeedsASchema(t *testing.T) {
	_, err := StrategicMergePatch([]byte(`{}`), []byte(`{}`), KindSchema("Widget"))
	if err == nil || err.Error() != "strategic merge patch format is not supported" || errorCode(err) != http.StatusBadRequest {
		t.Errorf("got %v", err)
	}
}

func TestStrategicMergePatchLongListsStayFast(t *testing.T) {
	// Upstream's list handling is quadratic; a long list from a user must
	// not stall the simulation.
	const n = 20000
	var doc, p strings.Builder
	doc.WriteString(`{"metadata":{"finalizers":[`)
	p.WriteString(`{"metadata":{"finalizers":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			doc.WriteString(",")
			p.WriteString(",")
		}
		fmt.Fprintf(&doc, `"f%d"`, i)
		fmt.Fprintf(&p, `"g%d","f%d"`, i, i)
	}
	doc.WriteString(`]},"spec":{"containers":[`)
	p.WriteString(`]},"spec":{"containers":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			doc.WriteString(",")
			p.WriteString(",")
		}
		fmt.Fprintf(&doc, `{"name":"c%d","image":"x"}`, i)
		fmt.Fprintf(&p, `{"name":"c%d","image":"y"}`, n-1-i)
	}
	doc.WriteString(`]}}`)
	p.WriteString(`]}}`)
	out, err := StrategicMergePatch([]byte(doc.String()), []byte(p.String()), KindSchema("Pod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"g0","f0","g1"`) || strings.Contains(string(out), `"image":"x"`) {
		t.Errorf("unexpected result: %.200s", out)
	}
}
