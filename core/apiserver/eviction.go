package apiserver

import (
	"errors"
	"fmt"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
)

// maxDisruptedPodSize bounds status.disruptedPods: past it, evictions the
// disruption controller has not confirmed yet block new ones.
const maxDisruptedPodSize = 2000

// evictionRetries bounds the retries of a conflicting eviction write.
const evictionRetries = 20

// disruptionBudgetCause is the cause type of a refused eviction.
const disruptionBudgetCause = "DisruptionBudget"

// Evict is the pods/eviction subresource: a delete that respects the pod's
// PodDisruptionBudget. A terminal, pending or terminating pod is deleted
// at once; otherwise the budget must allow a disruption, which the eviction
// spends (disruptionsAllowed-1, the pod noted in disruptedPods) before the
// pod gets the DisruptionTarget condition and is deleted with the
// eviction's delete options. A refusal is 429 TooManyRequests.
func (s *Server) Evict(namespace, name string, ev *api.Eviction) error {
	if ev == nil {
		return apierrors.NewBadRequest("not a Eviction object: <nil>")
	}
	if ev.Name != name {
		return apierrors.NewBadRequest("name in URL does not match name in Eviction object")
	}
	if ev.Namespace != "" && ev.Namespace != namespace {
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	pods, _ := s.Registry.Get("", "pods")
	opts := &api.DeleteOptions{}
	if ev.DeleteOptions != nil {
		opts = deleteOptionsCopy(ev.DeleteOptions)
	}
	dryRun := len(opts.DryRun) > 0

	o, ok := s.storeFor(pods).get(namespace, name)
	if !ok {
		return apierrors.NewNotFound(gr(pods), name)
	}
	pod := o.(*api.Pod)
	if canIgnorePDB(pod) {
		// The pod is no disruption to anyone (finished, never started, or
		// already going): delete it, unless it changed meanwhile.
		do := opts
		if shouldEnforceResourceVersion(pod) && resourceVersionIsUnset(opts) {
			do = withResourceVersion(opts, pod.ResourceVersion)
		}
		return s.addConditionAndDeletePod(pods, namespace, name, do)
	}

	pdbs := s.podDisruptionBudgetsFor(pod)
	if len(pdbs) > 1 {
		return apierrors.FromStatus(api.Status{
			TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
			Status:   "Failure", Code: 500,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
		})
	}
	pdbName := ""
	updateDeletionOptions := false
	if len(pdbs) == 1 {
		pdb := pdbs[0]
		pdbName = pdb.Name
		unhealthyMayGo := false
		if !api.IsPodReady(pod) {
			// An unready pod does not count as healthy, so deleting it takes
			// nothing from the budget when the policy or the budget allows.
			policy := pdb.Spec.UnhealthyPodEvictionPolicy
			if policy != nil && *policy == api.AlwaysAllow {
				unhealthyMayGo = true
			} else if pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0 {
				unhealthyMayGo = true
			}
		}
		if unhealthyMayGo {
			updateDeletionOptions = true
		} else if err := s.checkAndDecrementWithRetry(namespace, pod.Name, pdb.Name, dryRun); err != nil {
			return err
		}
	}

	do := opts
	if updateDeletionOptions {
		// Guard against the pod turning Ready since the budget was read.
		do = withResourceVersion(opts, pod.ResourceVersion)
	}
	err := s.addConditionAndDeletePod(pods, namespace, name, do)
	if err != nil && apierrors.IsConflict(err) && updateDeletionOptions && resourceVersionIsUnset(opts) {
		return createTooManyRequestsError(pdbName)
	}
	return err
}

// canIgnorePDB: pods that are finished, pending or already terminating are
// evicted without asking their budget.
func canIgnorePDB(pod *api.Pod) bool {
	return pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed ||
		pod.Status.Phase == api.PodPending || pod.DeletionTimestamp != nil
}

// shouldEnforceResourceVersion: a pending pod may become Ready while the
// eviction runs; finished and terminating ones cannot.
func shouldEnforceResourceVersion(pod *api.Pod) bool {
	return !(pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed || pod.DeletionTimestamp != nil)
}

func resourceVersionIsUnset(o *api.DeleteOptions) bool {
	return o.Preconditions == nil || o.Preconditions.ResourceVersion == nil
}

func deleteOptionsCopy(o *api.DeleteOptions) *api.DeleteOptions {
	c := *o
	if o.Preconditions != nil {
		p := *o.Preconditions
		c.Preconditions = &p
	}
	c.DryRun = append([]string(nil), o.DryRun...)
	if len(c.DryRun) == 0 {
		c.DryRun = nil
	}
	return &c
}

func withResourceVersion(o *api.DeleteOptions, rv string) *api.DeleteOptions {
	c := deleteOptionsCopy(o)
	if c.Preconditions == nil {
		c.Preconditions = &api.Preconditions{}
	}
	c.Preconditions.ResourceVersion = &rv
	return c
}

// podDisruptionBudgetsFor lists the budgets selecting the pod. In policy/v1
// an empty selector selects every pod of the namespace, a null one none.
func (s *Server) podDisruptionBudgetsFor(pod *api.Pod) []*api.PodDisruptionBudget {
	res, ok := s.Registry.Get("policy", "poddisruptionbudgets")
	if !ok {
		return nil
	}
	var out []*api.PodDisruptionBudget
	for _, o := range s.storeFor(res).list(pod.Namespace, nil) {
		pdb := o.(*api.PodDisruptionBudget)
		sel, err := labels.SelectorFromLabelSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, pdb)
	}
	return out
}

// checkAndDecrementWithRetry spends one disruption of the budget, reading
// it again after a conflicting write.
func (s *Server) checkAndDecrementWithRetry(namespace, podName, pdbName string, dryRun bool) error {
	res, _ := s.Registry.Get("policy", "poddisruptionbudgets")
	var err error
	for i := 0; i < evictionRetries; i++ {
		o, ok := s.storeFor(res).get(namespace, pdbName)
		if !ok {
			return apierrors.NewNotFound(gr(res), pdbName)
		}
		err = s.checkAndDecrement(res, podName, o.(*api.PodDisruptionBudget), dryRun)
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return apierrors.NewTimeout(fmt.Sprintf("couldn't update PodDisruptionBudget %q due to conflicts", pdbName))
}

// checkAndDecrement refuses the eviction unless the budget's status, up to
// date with its spec, allows a disruption; then it records the spending.
func (s *Server) checkAndDecrement(res *Resource, podName string, stored *api.PodDisruptionBudget, dryRun bool) error {
	pdbGR := apierrors.GroupResource{Group: "policy", Resource: "poddisruptionbudget"}
	if stored.Status.ObservedGeneration < stored.Generation {
		return createTooManyRequestsError(stored.Name)
	}
	if stored.Status.DisruptionsAllowed < 0 {
		return apierrors.NewForbidden(pdbGR, stored.Name, errors.New("pdb disruptions allowed is negative"))
	}
	if len(stored.Status.DisruptedPods) > maxDisruptedPodSize {
		return apierrors.NewForbidden(pdbGR, stored.Name, errors.New("DisruptedPods map too big - too many evictions not confirmed by PDB controller"))
	}
	if stored.Status.DisruptionsAllowed == 0 {
		return tooManyRequests(0, fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently",
			stored.Name, stored.Status.DesiredHealthy, stored.Status.CurrentHealthy))
	}
	pdb := stored.DeepCopy()
	pdb.Status.DisruptionsAllowed--
	if pdb.Status.DisruptionsAllowed == 0 {
		setDisruptionNotAllowed(pdb, s.now())
	}
	if dryRun {
		return nil
	}
	if pdb.Status.DisruptedPods == nil {
		pdb.Status.DisruptedPods = map[string]api.Time{}
	}
	pdb.Status.DisruptedPods[podName] = s.now()
	_, err := s.Update(res, pdb.Namespace, pdb, UpdateOptions{Subresource: "status"})
	return err
}

// setDisruptionNotAllowed turns the DisruptionAllowed condition False, as
// the disruption controller will once it recounts.
func setDisruptionNotAllowed(pdb *api.PodDisruptionBudget, now api.Time) {
	c := api.Condition{
		Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse,
		Reason: api.InsufficientPodsReason, ObservedGeneration: pdb.Status.ObservedGeneration,
	}
	for i := range pdb.Status.Conditions {
		cur := &pdb.Status.Conditions[i]
		if cur.Type != c.Type {
			continue
		}
		if cur.Status != c.Status {
			cur.Status, cur.LastTransitionTime = c.Status, now
		}
		cur.Reason, cur.Message, cur.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
		return
	}
	c.LastTransitionTime = now
	pdb.Status.Conditions = append(pdb.Status.Conditions, c)
}

// addConditionAndDeletePod marks the pod as the target of a disruption
// (unless dry-running) and deletes it. The preconditions are checked
// against the latest pod before the condition is written; a written
// condition moves the resourceVersion precondition along with it.
func (s *Server) addConditionAndDeletePod(pods *Resource, namespace, name string, opts *api.DeleteOptions) error {
	if len(opts.DryRun) == 0 {
		o, ok := s.storeFor(pods).get(namespace, name)
		if !ok {
			return apierrors.NewNotFound(gr(pods), name)
		}
		latest := o.(*api.Pod)
		if p := opts.Preconditions; p != nil {
			if p.UID != nil && *p.UID != "" && *p.UID != latest.UID {
				return apierrors.NewConflict(gr(pods), name, preconditionError("UID", *p.UID, latest.UID))
			}
			if p.ResourceVersion != nil && *p.ResourceVersion != "" && *p.ResourceVersion != latest.ResourceVersion {
				return apierrors.NewConflict(gr(pods), name, preconditionError("ResourceVersion", *p.ResourceVersion, latest.ResourceVersion))
			}
		}
		pod := latest.DeepCopy()
		if api.UpdatePodCondition(&pod.Status, &api.PodCondition{
			Type: api.DisruptionTarget, Status: api.ConditionTrue,
			Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting",
		}, s.now()) {
			updated, err := s.Update(pods, namespace, pod, UpdateOptions{Subresource: "status"})
			if err != nil {
				return err
			}
			if !resourceVersionIsUnset(opts) {
				opts = withResourceVersion(opts, updated.GetObjectMeta().ResourceVersion)
			}
		}
	}
	_, err := s.Delete(pods, namespace, name, *opts)
	return err
}

// createTooManyRequestsError is the refusal while the budget's status lags
// its spec (or a guarded delete lost a race).
func createTooManyRequestsError(pdbName string) error {
	return tooManyRequests(10, fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdbName))
}

// tooManyRequests is 429 with upstream's message and a DisruptionBudget cause.
func tooManyRequests(retryAfterSeconds int, cause string) error {
	err := apierrors.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", retryAfterSeconds)
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		if se.ErrStatus.Details == nil {
			se.ErrStatus.Details = &api.StatusDetails{}
		}
		se.ErrStatus.Details.Causes = append(se.ErrStatus.Details.Causes, api.StatusCause{Type: disruptionBudgetCause, Message: cause})
	}
	return err
}
