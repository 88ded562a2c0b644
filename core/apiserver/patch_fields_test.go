package apiserver

import (
	"encoding/json"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
	"kubeplay/core/apiserver/patch"
)

// A patch applied field by field gives the object the whole-object path
// gives, and patches it cannot apply that way are left to that path.
func TestPatchFieldsAgreesWithWholeObject(t *testing.T) {
	replicas := int32(3)
	deployment := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "7", Labels: map[string]string{"app": "web"}},
		Spec: api.DeploymentSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}, {Name: "sidecar", Image: "busybox"}}}}},
		Status: api.DeploymentStatus{Replicas: 3, ReadyReplicas: 2},
	}
	node := &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{Name: "node1", ResourceVersion: "9", Labels: map[string]string{"kubernetes.io/hostname": "node1"}},
		Status: api.NodeStatus{
			Capacity: api.ResourceList{api.ResourceCPU: resource.MustParse("4")},
			Images:   []api.ContainerImage{{Names: []string{"nginx:1.14.2"}, SizeBytes: 44_000_000}},
		},
	}
	cm := &api.ConfigMap{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: "settings", Namespace: "default", ResourceVersion: "3"},
		Data:       map[string]string{"a": "1", "c": "3"},
	}
	cases := []struct {
		name      string
		obj       api.Object
		kind      string
		patchType string
		data      string
		byField   bool
	}{
		{"node IPAM's CIDRs", node, "Node", StrategicMergePatchType, `{"spec":{"podCIDR":"10.244.1.0/24","podCIDRs":["10.244.1.0/24"]}}`, true},
		{"cordon", node, "Node", StrategicMergePatchType, `{"spec":{"unschedulable":true}}`, true},
		{"scale by merge patch", deployment, "Deployment", MergePatchType, `{"spec":{"replicas":5}}`, true},
		{"image by container name", deployment, "Deployment", StrategicMergePatchType, `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.16"}]}}}}`, true},
		{"element order", deployment, "Deployment", StrategicMergePatchType, `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"nginx"}],"containers":[{"name":"nginx","image":"nginx:1.16"}]}}}}`, true},
		{"restart annotation", deployment, "Deployment", StrategicMergePatchType, `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-29T02:00:00Z"}}}}}`, true},
		{"labels set and removed", deployment, "Deployment", StrategicMergePatchType, `{"metadata":{"labels":{"app":null,"tier":"web"}}}`, true},
		{"metadata and status", deployment, "Deployment", MergePatchType, `{"metadata":{"annotations":{"a":"b"}},"status":{"readyReplicas":3}}`, true},
		{"config data", cm, "ConfigMap", MergePatchType, `{"data":{"a":null,"b":"2"}}`, true},
		{"a resourceVersion precondition", cm, "ConfigMap", MergePatchType, `{"metadata":{"resourceVersion":"2"},"data":{"b":"2"}}`, true},
		{"field set to null", deployment, "Deployment", MergePatchType, `{"spec":null}`, false},
		{"a list at the top", cm, "ConfigMap", MergePatchType, `{"data":["x"]}`, false},
		{"type meta", cm, "ConfigMap", MergePatchType, `{"apiVersion":"v1","data":{"b":"2"}}`, false},
		{"directive at the top", deployment, "Deployment", StrategicMergePatchType, `{"$patch":"replace","spec":{}}`, false},
		{"unknown field", cm, "ConfigMap", MergePatchType, `{"Data":{"b":"2"}}`, false},
		{"JSON patch", cm, "ConfigMap", JSONPatchType, `[{"op":"add","path":"/data/b","value":"2"}]`, false},
		{"not JSON", cm, "ConfigMap", MergePatchType, `{"data":`, false},
		{"a value of the wrong type", deployment, "Deployment", MergePatchType, `{"spec":{"replicas":"five"}}`, false},
	}
	for _, c := range cases {
		gv := c.obj.GetTypeMeta().APIVersion
		group, version, found := strings.Cut(gv, "/")
		if !found {
			group, version = "", gv
		}
		res := &Resource{Group: group, Version: version, Kind: c.kind}
		var schema patch.Schema
		if c.patchType == StrategicMergePatchType {
			schema = patch.KindSchema(c.kind)
		}
		before, _ := json.Marshal(c.obj)
		got, ok := patchFields(c.obj, c.patchType, []byte(c.data), schema)
		if after, _ := json.Marshal(c.obj); string(after) != string(before) {
			t.Errorf("%s: the stored object changed:\n%s\n%s", c.name, before, after)
		}
		if ok != c.byField {
			t.Errorf("%s: patched by field %v, want %v", c.name, ok, c.byField)
			continue
		}
		if !ok {
			continue
		}
		want, err := patchWhole(res, c.obj, c.patchType, []byte(c.data), schema)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("%s:\nby field:     %s\nwhole object: %s", c.name, gotJSON, wantJSON)
		}
	}
}
