package kubectl

import (
	"errors"
	"time"

	"kubeplay/core/api"
)

// restartedAtAnnotation is what `rollout restart` stamps on the pod
// template; the changed template makes the controller replace every pod.
const restartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"

// runRolloutRestart is `kubectl rollout restart`.
func runRolloutRestart(inv *Invocation) error {
	stamp := inv.now().Format(time.RFC3339)
	return inv.patchRollout("restarted", "", func(obj api.Object) error {
		var t *api.PodTemplateSpec
		switch o := obj.(type) {
		case *api.Deployment:
			if o.Spec.Paused {
				return errors.New("can't restart paused deployment (run rollout resume first)")
			}
			t = &o.Spec.Template
		case *api.DaemonSet:
			t = &o.Spec.Template
		case *api.StatefulSet:
			t = &o.Spec.Template
		default:
			return errors.New("restarting is not supported")
		}
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[restartedAtAnnotation] = stamp
		return nil
	})
}
