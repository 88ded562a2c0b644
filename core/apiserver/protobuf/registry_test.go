package protobuf

import "testing"

// TestSchemaIsClosed checks the tables: every message a field names exists,
// inlined messages are plain ones, and no message repeats a field number.
func TestSchemaIsClosed(t *testing.T) {
	for name, m := range schema.messages {
		seen := map[int32]bool{}
		for _, f := range m.fields {
			if seen[f.num] {
				t.Errorf("%s: field number %d twice", name, f.num)
			}
			seen[f.num] = true
			if (f.kind == kMessage) != (f.typ != "") {
				t.Errorf("%s.%s: kind %d with type %q", name, f.name, f.kind, f.typ)
			}
			if f.kind != kMessage {
				continue
			}
			sub := schema.messages[f.typ]
			if sub == nil {
				t.Errorf("%s.%s: no message %s", name, f.name, f.typ)
			} else if f.inline && (sub.special != specNone || f.card != single) {
				t.Errorf("%s.%s: cannot inline %s", name, f.name, f.typ)
			}
		}
	}
}

// TestKinds lists the kinds kubectl's typed clients send.
func TestKinds(t *testing.T) {
	for _, k := range [][2]string{
		{"apps/v1", "Deployment"}, {"apps/v1", "StatefulSet"}, {"apps/v1", "DaemonSet"}, {"apps/v1", "ReplicaSet"},
		{"batch/v1", "Job"}, {"batch/v1", "CronJob"},
		{"v1", "Pod"}, {"v1", "Service"}, {"v1", "Namespace"}, {"v1", "ConfigMap"}, {"v1", "Secret"},
		{"v1", "ServiceAccount"}, {"v1", "ResourceQuota"}, {"v1", "Binding"}, {"v1", "DeleteOptions"},
		{"scheduling.k8s.io/v1", "PriorityClass"}, {"policy/v1", "PodDisruptionBudget"}, {"policy/v1", "Eviction"},
		{"rbac.authorization.k8s.io/v1", "Role"}, {"rbac.authorization.k8s.io/v1", "ClusterRole"},
		{"rbac.authorization.k8s.io/v1", "RoleBinding"}, {"rbac.authorization.k8s.io/v1", "ClusterRoleBinding"},
		{"networking.k8s.io/v1", "Ingress"}, {"autoscaling/v1", "HorizontalPodAutoscaler"},
		{"autoscaling/v2", "HorizontalPodAutoscaler"}, {"autoscaling/v1", "Scale"},
		{"authentication.k8s.io/v1", "TokenRequest"}, {"apps/v1", "DeleteOptions"}, {"meta.k8s.io/v1", "DeleteOptions"},
	} {
		if schema.kind(k[0], k[1]) == nil {
			t.Errorf("no schema for %s %s", k[0], k[1])
		}
	}
}
