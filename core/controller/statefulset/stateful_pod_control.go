package statefulset

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/client"
)

// StatefulPodControl creates, updates and deletes a set's pods and creates
// their claims, recording upstream's events on the set.
type StatefulPodControl struct {
	client   client.Interface
	podInf   *client.Informer
	claimInf *client.Informer
	recorder *client.Recorder
}

func (spc *StatefulPodControl) getClaim(namespace, name string) (*api.PersistentVolumeClaim, bool) {
	o, ok := spc.claimInf.Get(namespace, name)
	if !ok {
		return nil, false
	}
	return o.(*api.PersistentVolumeClaim), true
}

// CreateStatefulPod creates pod's claims, then pod, then sets the claims'
// owners for the retention policy.
func (spc *StatefulPodControl) CreateStatefulPod(set *api.StatefulSet, pod *api.Pod) error {
	if err := spc.createPersistentVolumeClaims(set, pod); err != nil {
		spc.recordPodEvent("create", set, pod, err)
		return err
	}
	created, err := client.Create(spc.client, pod)
	if apierrors.IsAlreadyExists(err) {
		return err
	}
	if err == nil {
		// The retention policy needs the pod's uid.
		pod = created
		if err := spc.UpdatePodClaimForRetentionPolicy(set, pod); err != nil {
			spc.recordPodEvent("update", set, pod, err)
			return err
		}
	}
	spc.recordPodEvent("create", set, pod, err)
	return err
}

// UpdateStatefulPod restores pod's identity, storage and claim owners.
func (spc *StatefulPodControl) UpdateStatefulPod(set *api.StatefulSet, pod *api.Pod) error {
	attempted := false
	var err error
	// One retry on a conflict, with the cached pod, as RetryOnConflict would.
	for try := 0; try < 2; try++ {
		consistent := true
		if !identityMatches(set, pod) {
			updateIdentity(set, pod)
			consistent = false
		}
		if !storageMatches(set, pod) {
			updateStorage(set, pod)
			consistent = false
			if err = spc.createPersistentVolumeClaims(set, pod); err != nil {
				spc.recordPodEvent("update", set, pod, err)
				return err
			}
		}
		var match bool
		if match, err = spc.ClaimsMatchRetentionPolicy(set, pod); err != nil {
			spc.recordPodEvent("update", set, pod, err)
			return err
		} else if !match {
			if err = spc.UpdatePodClaimForRetentionPolicy(set, pod); err != nil {
				spc.recordPodEvent("update", set, pod, err)
				return err
			}
			consistent = false
		}
		if consistent {
			err = nil
			break
		}
		attempted = true
		_, err = client.Update(spc.client, pod)
		if err == nil || !apierrors.IsConflict(err) {
			break
		}
		o, ok := spc.podInf.Get(set.Namespace, pod.Name)
		if !ok {
			break
		}
		pod = o.(*api.Pod).DeepCopy()
	}
	if attempted {
		spc.recordPodEvent("update", set, pod, err)
	}
	return err
}

// DeleteStatefulPod deletes pod and records it.
func (spc *StatefulPodControl) DeleteStatefulPod(set *api.StatefulSet, pod *api.Pod) error {
	err := client.Delete[*api.Pod](spc.client, pod.Namespace, pod.Name, api.DeleteOptions{})
	spc.recordPodEvent("delete", set, pod, err)
	return err
}

// ClaimsMatchRetentionPolicy reports whether pod's existing claims carry
// the owner references set's retention policy asks for.
func (spc *StatefulPodControl) ClaimsMatchRetentionPolicy(set *api.StatefulSet, pod *api.Pod) (bool, error) {
	ordinal := getOrdinal(pod)
	for i := range set.Spec.VolumeClaimTemplates {
		name := getPersistentVolumeClaimName(set, &set.Spec.VolumeClaimTemplates[i], ordinal)
		claim, ok := spc.getClaim(set.Namespace, name)
		if !ok {
			// Not there yet: a later sync creates it.
			continue
		}
		if !isClaimOwnerUpToDate(claim, set, pod) {
			return false, nil
		}
	}
	return true, nil
}

// UpdatePodClaimForRetentionPolicy rewrites the owner references of pod's
// claims to match set's retention policy.
func (spc *StatefulPodControl) UpdatePodClaimForRetentionPolicy(set *api.StatefulSet, pod *api.Pod) error {
	ordinal := getOrdinal(pod)
	for i := range set.Spec.VolumeClaimTemplates {
		name := getPersistentVolumeClaimName(set, &set.Spec.VolumeClaimTemplates[i], ordinal)
		claim, ok := spc.getClaim(set.Namespace, name)
		if !ok || isClaimOwnerUpToDate(claim, set, pod) {
			continue
		}
		claim = claim.DeepCopy()
		updateClaimOwnerRefForSetAndPod(claim, set, pod)
		if _, err := client.Update(spc.client, claim); err != nil {
			return fmt.Errorf("could not update claim %s for delete policy ownerRefs: %w", name, err)
		}
	}
	return nil
}

// PodClaimIsStale reports a claim still owned by an earlier pod of the same
// name; with a Delete-on-scale policy it is about to go, so the pod waits.
func (spc *StatefulPodControl) PodClaimIsStale(set *api.StatefulSet, pod *api.Pod) bool {
	if getPersistentVolumeClaimRetentionPolicy(set).WhenScaled == api.RetainPersistentVolumeClaimRetentionPolicyType {
		return false
	}
	for _, claim := range getPersistentVolumeClaims(set, pod) {
		pvc, ok := spc.getClaim(claim.Namespace, claim.Name)
		if ok && hasStaleOwnerRef(pvc, &pod.ObjectMeta, podKind) {
			return true
		}
	}
	return false
}

// createMissingPersistentVolumeClaims creates pod's absent claims and sets
// owners as the retention policy asks.
func (spc *StatefulPodControl) createMissingPersistentVolumeClaims(set *api.StatefulSet, pod *api.Pod) error {
	if err := spc.createPersistentVolumeClaims(set, pod); err != nil {
		return err
	}
	if err := spc.UpdatePodClaimForRetentionPolicy(set, pod); err != nil {
		spc.recordPodEvent("update", set, pod, err)
		return err
	}
	return nil
}

// createPersistentVolumeClaims creates every claim pod needs that does not
// exist; a claim being deleted is an error until it is gone.
func (spc *StatefulPodControl) createPersistentVolumeClaims(set *api.StatefulSet, pod *api.Pod) error {
	var errs []error
	for _, claim := range getPersistentVolumeClaims(set, pod) {
		existing, ok := spc.getClaim(claim.Namespace, claim.Name)
		if !ok {
			_, err := client.Create(spc.client, claim)
			if err != nil {
				errs = append(errs, fmt.Errorf("failed to create PVC %s: %s", claim.Name, err))
			}
			if err == nil || !apierrors.IsAlreadyExists(err) {
				spc.recordClaimEvent("create", set, pod, claim, err)
			}
			continue
		}
		if existing.DeletionTimestamp != nil {
			errs = append(errs, fmt.Errorf("pvc %s is being deleted", claim.Name))
		}
	}
	return errors.Join(errs...)
}

// recordPodEvent: "create Pod web-0 in StatefulSet web successful" and its
// failure form.
func (spc *StatefulPodControl) recordPodEvent(verb string, set *api.StatefulSet, pod *api.Pod, err error) {
	if err == nil {
		spc.recorder.Event(set, api.EventTypeNormal, "Successful"+title(verb),
			fmt.Sprintf("%s Pod %s in StatefulSet %s successful", strings.ToLower(verb), pod.Name, set.Name))
		return
	}
	spc.recorder.Event(set, api.EventTypeWarning, "Failed"+title(verb),
		fmt.Sprintf("%s Pod %s in StatefulSet %s failed error: %s", strings.ToLower(verb), pod.Name, set.Name, err))
}

// recordClaimEvent: "create Claim www-web-0 Pod web-0 in StatefulSet web success".
func (spc *StatefulPodControl) recordClaimEvent(verb string, set *api.StatefulSet, pod *api.Pod, claim *api.PersistentVolumeClaim, err error) {
	if err == nil {
		spc.recorder.Event(set, api.EventTypeNormal, "Successful"+title(verb),
			fmt.Sprintf("%s Claim %s Pod %s in StatefulSet %s success", strings.ToLower(verb), claim.Name, pod.Name, set.Name))
		return
	}
	spc.recorder.Event(set, api.EventTypeWarning, "Failed"+title(verb),
		fmt.Sprintf("%s Claim %s for Pod %s in StatefulSet %s failed error: %s", strings.ToLower(verb), claim.Name, pod.Name, set.Name, err))
}

// title upper-cases a verb's first letter (the verbs are ASCII).
func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
