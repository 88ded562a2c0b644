package patch

import (
	"reflect"
	"strings"
	"testing"

	"kubeplay/core/api"
)

func TestKindSchemaMergeKeys(t *testing.T) {
	tests := []struct {
		kind, path string // path: dot-separated JSON fields down to the list
		key        string
		strategies []string
	}{
		{"Pod", "spec.containers", "name", []string{"merge"}},
		{"Pod", "spec.initContainers", "name", []string{"merge"}},
		{"Pod", "spec.ephemeralContainers", "name", []string{"merge"}},
		{"Pod", "spec.containers.ports", "containerPort", []string{"merge"}},
		{"Pod", "spec.containers.env", "name", []string{"merge"}},
		{"Pod", "spec.containers.envFrom", "", nil},
		{"Pod", "spec.containers.volumeMounts", "mountPath", []string{"merge"}},
		{"Pod", "spec.volumes", "name", []string{"merge", "retainKeys"}},
		{"Pod", "spec.imagePullSecrets", "name", []string{"merge"}},
		{"Pod", "spec.tolerations", "", nil},
		{"Pod", "spec.hostAliases", "ip", []string{"merge"}},
		{"Pod", "spec.topologySpreadConstraints", "topologyKey", []string{"merge"}},
		{"Pod", "spec.resourceClaims", "name", []string{"merge", "retainKeys"}},
		{"Pod", "status.conditions", "type", []string{"merge"}},
		{"Pod", "status.podIPs", "ip", []string{"merge"}},
		{"Pod", "metadata.finalizers", "", []string{"merge"}},
		{"Pod", "metadata.ownerReferences", "uid", []string{"merge"}},
		{"Deployment", "spec.template.spec.containers", "name", []string{"merge"}},
		{"Deployment", "spec.template.metadata.finalizers", "", []string{"merge"}},
		{"Deployment", "spec.strategy", "", []string{"retainKeys"}},
		{"Deployment", "status.conditions", "type", []string{"merge"}},
		{"ReplicaSet", "spec.template.spec.volumes", "name", []string{"merge", "retainKeys"}},
		{"StatefulSet", "spec.template.spec.containers.env", "name", []string{"merge"}},
		{"DaemonSet", "spec.template.spec.containers", "name", []string{"merge"}},
		{"Job", "spec.template.spec.containers", "name", []string{"merge"}},
		{"Job", "status.conditions", "type", []string{"merge"}},
		{"CronJob", "spec.jobTemplate.spec.template.spec.containers", "name", []string{"merge"}},
		{"PodTemplate", "template.spec.containers", "name", []string{"merge"}},
		{"Service", "spec.ports", "port", []string{"merge"}},
		{"Node", "status.addresses", "type", []string{"merge"}},
		{"Node", "status.conditions", "type", []string{"merge"}},
		{"Node", "spec.podCIDRs", "", []string{"merge"}},
		{"Node", "spec.taints", "", nil},
		{"Namespace", "status.conditions", "type", []string{"merge"}},
		{"PersistentVolumeClaim", "status.conditions", "type", []string{"merge"}},
		{"ServiceAccount", "secrets", "name", []string{"merge"}},
		{"HorizontalPodAutoscaler", "status.conditions", "type", []string{"merge"}},
		{"PodDisruptionBudget", "spec.selector", "", []string{"replace"}},
		{"Endpoints", "subsets", "", nil},
		{"ConfigMap", "metadata.finalizers", "", []string{"merge"}},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.path, func(t *testing.T) {
			s := KindSchema(tt.kind)
			if s.IsZero() {
				t.Fatalf("no schema for %s", tt.kind)
			}
			fields := strings.Split(tt.path, ".")
			for _, f := range fields[:len(fields)-1] {
				s = s.Field(f)
			}
			key, strategies := s.MergeKey(fields[len(fields)-1])
			if key != tt.key || !reflect.DeepEqual(strategies, tt.strategies) {
				t.Errorf("got %q %v, want %q %v", key, strategies, tt.key, tt.strategies)
			}
		})
	}
}

func TestKindSchemaCoversEveryServedKind(t *testing.T) {
	for _, gvk := range api.Kinds() {
		if KindSchema(gvk.Kind).IsZero() {
			t.Errorf("%s has no schema", gvk.Kind)
		}
	}
	if !KindSchema("Widget").IsZero() {
		t.Error("an unknown kind must have the zero schema")
	}
}
