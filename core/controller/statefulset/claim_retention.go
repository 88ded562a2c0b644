package statefulset

import (
	"kubeplay/core/api"
	"kubeplay/core/controller/history"
)

// A claim's owner references carry persistentVolumeClaimRetentionPolicy:
// the garbage collector deletes a claim whose owner is gone. So
//
//	Retain on scale-down and on deletion: no owner reference;
//	Delete on deletion only: the set owns the claim;
//	Delete on scale-down only: a scaled-down pod owns its claim;
//	Delete on both: the set owns claims of wanted ordinals, a scaled-down
//	pod owns its own.

const (
	retainPolicy = api.RetainPersistentVolumeClaimRetentionPolicyType
	deletePolicy = api.DeletePersistentVolumeClaimRetentionPolicyType
)

func apiVersionOf(gvk api.GroupVersionKind) string {
	if gvk.Group == "" {
		return gvk.Version
	}
	return gvk.Group + "/" + gvk.Version
}

// matchesRef: same kind and name (the uid may differ).
func matchesRef(ref *api.OwnerReference, obj *api.ObjectMeta, gvk api.GroupVersionKind) bool {
	return ref.APIVersion == apiVersionOf(gvk) && ref.Kind == gvk.Kind && ref.Name == obj.Name
}

// hasStaleOwnerRef: a reference to an earlier object of the same name.
func hasStaleOwnerRef(claim *api.PersistentVolumeClaim, obj *api.ObjectMeta, gvk api.GroupVersionKind) bool {
	for i := range claim.OwnerReferences {
		if ref := &claim.OwnerReferences[i]; matchesRef(ref, obj, gvk) {
			return ref.UID != obj.UID
		}
	}
	return false
}

func hasOwnerRef(claim *api.PersistentVolumeClaim, owner *api.ObjectMeta) bool {
	for _, ref := range claim.OwnerReferences {
		if ref.UID == owner.UID {
			return true
		}
	}
	return false
}

// hasUnexpectedController: under a Delete policy, someone other than the
// set or pod controls the claim (or an old set or pod does).
func hasUnexpectedController(claim *api.PersistentVolumeClaim, set *api.StatefulSet, pod *api.Pod) bool {
	p := getPersistentVolumeClaimRetentionPolicy(set)
	if p.WhenScaled == retainPolicy && p.WhenDeleted == retainPolicy {
		return false
	}
	for i := range claim.OwnerReferences {
		ref := &claim.OwnerReferences[i]
		if matchesRef(ref, &set.ObjectMeta, controllerKind) {
			if ref.UID != set.UID {
				return true
			}
			continue
		}
		if matchesRef(ref, &pod.ObjectMeta, podKind) {
			if ref.UID != pod.UID {
				return true
			}
			continue
		}
		if ref.Controller != nil && *ref.Controller {
			return true
		}
	}
	return false
}

// hasNonControllerOwner: the set or pod owns the claim without controlling it.
func hasNonControllerOwner(claim *api.PersistentVolumeClaim, set *api.StatefulSet, pod *api.Pod) bool {
	for _, ref := range claim.OwnerReferences {
		if (ref.UID == set.UID || ref.UID == pod.UID) && (ref.Controller == nil || !*ref.Controller) {
			return true
		}
	}
	return false
}

// isClaimOwnerUpToDate reports whether claim's owners match the policy. A
// claim in a state the controller did not make (stale references, another
// controller) counts as up to date, so it is left alone.
func isClaimOwnerUpToDate(claim *api.PersistentVolumeClaim, set *api.StatefulSet, pod *api.Pod) bool {
	if hasStaleOwnerRef(claim, &set.ObjectMeta, controllerKind) || hasStaleOwnerRef(claim, &pod.ObjectMeta, podKind) {
		return true
	}
	if hasUnexpectedController(claim, set, pod) {
		return !hasOwnerRef(claim, &set.ObjectMeta) && !hasOwnerRef(claim, &pod.ObjectMeta)
	}
	if hasNonControllerOwner(claim, set, pod) {
		return false
	}
	p := getPersistentVolumeClaimRetentionPolicy(set)
	setRef, podRef := hasOwnerRef(claim, &set.ObjectMeta), hasOwnerRef(claim, &pod.ObjectMeta)
	scaledDown := !podInOrdinalRange(pod, set)
	switch {
	case p.WhenScaled == retainPolicy && p.WhenDeleted == deletePolicy:
		return setRef && !podRef
	case p.WhenScaled == deletePolicy && p.WhenDeleted == retainPolicy:
		return !setRef && scaledDown == podRef
	case p.WhenScaled == deletePolicy && p.WhenDeleted == deletePolicy:
		return scaledDown != setRef && scaledDown == podRef
	default:
		// Retain/Retain, and any unknown policy, which counts as Retain.
		return !setRef && !podRef
	}
}

// updateClaimOwnerRefForSetAndPod rewrites claim's references to the set
// and pod as the policy asks.
func updateClaimOwnerRefForSetAndPod(claim *api.PersistentVolumeClaim, set *api.StatefulSet, pod *api.Pod) {
	unexpected := hasUnexpectedController(claim, set, pod)
	refs := make([]api.OwnerReference, 0, len(claim.OwnerReferences)+1)
	for i := range claim.OwnerReferences {
		ref := &claim.OwnerReferences[i]
		if !matchesRef(ref, &set.ObjectMeta, controllerKind) && !matchesRef(ref, &pod.ObjectMeta, podKind) {
			refs = append(refs, *ref)
		}
	}
	if !unexpected {
		p := getPersistentVolumeClaimRetentionPolicy(set)
		scaledDown := !podInOrdinalRange(pod, set)
		switch {
		case p.WhenScaled == retainPolicy && p.WhenDeleted == deletePolicy:
			refs = addControllerRef(refs, set, controllerKind)
		case p.WhenScaled == deletePolicy && p.WhenDeleted == retainPolicy:
			if scaledDown {
				refs = addControllerRef(refs, pod, podKind)
			}
		case p.WhenScaled == deletePolicy && p.WhenDeleted == deletePolicy:
			if scaledDown {
				refs = addControllerRef(refs, pod, podKind)
			} else {
				refs = addControllerRef(refs, set, controllerKind)
			}
		}
	}
	if len(refs) == 0 {
		refs = nil
	}
	claim.OwnerReferences = refs
}

func addControllerRef(refs []api.OwnerReference, owner api.Object, gvk api.GroupVersionKind) []api.OwnerReference {
	uid := owner.GetObjectMeta().UID
	for _, r := range refs {
		if r.UID == uid {
			return refs
		}
	}
	return append(refs, history.ControllerRef(owner, gvk))
}
