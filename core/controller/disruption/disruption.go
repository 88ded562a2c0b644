// Package disruption is the PodDisruptionBudget controller: it counts the
// healthy pods each budget selects and how many it expects, and writes
// disruptionsAllowed (what the eviction API checks) and the
// DisruptionAllowed condition into the budget's status.
package disruption

import (
	"fmt"
	"sort"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

const (
	// DeletionTimeout is how long a pod stays in status.disruptedPods
	// waiting for its eviction's delete to show.
	DeletionTimeout = 2 * time.Minute
	// stalePodDisruptionTimeout is how long a pod that was not deleted
	// keeps a DisruptionTarget condition before it is reset to False.
	stalePodDisruptionTimeout = 2 * time.Minute
)

// DisruptionController keeps PodDisruptionBudgets' status.
type DisruptionController struct {
	client     client.Interface
	clock      *clock.Clock
	recorder   *client.Recorder
	podInf     *client.Informer
	pdbInf     *client.Informer
	rsInf      *client.Informer
	dInf       *client.Informer
	ssInf      *client.Informer
	queue      *workqueue.Queue[string]
	staleQueue *workqueue.Queue[string]
}

// NewDisruptionController builds the controller on ctx's informers.
func NewDisruptionController(ctx *controller.Context) *DisruptionController {
	cl := ctx.Client("disruption-controller")
	dc := &DisruptionController{
		client:     cl,
		clock:      ctx.Clock,
		recorder:   client.NewRecorder(cl, "controllermanager", ""),
		podInf:     client.InformerFor[*api.Pod](ctx.Informers),
		pdbInf:     client.InformerFor[*api.PodDisruptionBudget](ctx.Informers),
		rsInf:      client.InformerFor[*api.ReplicaSet](ctx.Informers),
		dInf:       client.InformerFor[*api.Deployment](ctx.Informers),
		ssInf:      client.InformerFor[*api.StatefulSet](ctx.Informers),
		queue:      workqueue.New[string]("disruption", ctx.Clock, nil),
		staleQueue: workqueue.New[string]("stale_pod_disruption", ctx.Clock, nil),
	}
	dc.pdbInf.AddHandler(client.Handler{
		OnAdd:    dc.enqueuePdb,
		OnUpdate: func(_, cur api.Object) { dc.enqueuePdb(cur) },
		OnDelete: dc.enqueuePdb,
	})
	dc.podInf.AddHandler(client.Handler{
		OnAdd:    func(o api.Object) { dc.podChanged(o.(*api.Pod), true) },
		OnUpdate: func(_, cur api.Object) { dc.podChanged(cur.(*api.Pod), true) },
		OnDelete: func(o api.Object) { dc.podChanged(o.(*api.Pod), false) },
	})
	return dc
}

// Name implements controller.Worker.
func (dc *DisruptionController) Name() string { return "disruption-controller/sync" }

// ProcessNextWorkItem implements controller.Worker.
func (dc *DisruptionController) ProcessNextWorkItem() bool {
	if key, ok := dc.queue.Get(); ok {
		defer dc.queue.Done(key)
		if err := dc.sync(key); err != nil {
			dc.queue.AddRateLimited(key)
		} else {
			dc.queue.Forget(key)
		}
		return true
	}
	if key, ok := dc.staleQueue.Get(); ok {
		defer dc.staleQueue.Done(key)
		if err := dc.syncStalePodDisruption(key); err != nil {
			dc.staleQueue.AddRateLimited(key)
		} else {
			dc.staleQueue.Forget(key)
		}
		return true
	}
	return false
}

func (dc *DisruptionController) enqueuePdb(o api.Object) { dc.queue.Add(client.KeyOf(o)) }

// podChanged wakes the budget that covers the pod, and schedules the reset
// of a stale DisruptionTarget condition.
func (dc *DisruptionController) podChanged(pod *api.Pod, present bool) {
	if pdb := dc.getPdbForPod(pod); pdb != nil {
		dc.enqueuePdb(pdb)
	}
	if !present {
		return
	}
	if has, cleanAfter := dc.nonTerminatingPodHasStaleDisruptionCondition(pod); has {
		dc.staleQueue.AddAfter(client.KeyOf(pod), cleanAfter)
	}
}

// getPodPodDisruptionBudgets lists the budgets whose selector matches the
// pod (in policy/v1 an empty selector matches every pod, a null one none).
func getPodPodDisruptionBudgets(inf *client.Informer, pod *api.Pod) []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for _, o := range inf.List(pod.Namespace) {
		pdb := o.(*api.PodDisruptionBudget)
		sel, err := labels.SelectorFromLabelSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, pdb)
	}
	return out
}

func (dc *DisruptionController) getPdbForPod(pod *api.Pod) *api.PodDisruptionBudget {
	pdbs := getPodPodDisruptionBudgets(dc.pdbInf, pod)
	if len(pdbs) == 0 {
		return nil
	}
	if len(pdbs) > 1 {
		dc.recorder.Eventf(pod, "Warning", "MultiplePodDisruptionBudgets",
			"Pod %q/%q matches multiple PodDisruptionBudgets.  Chose %q arbitrarily.", pod.Namespace, pod.Name, pdbs[0].Name)
	}
	return pdbs[0]
}

func (dc *DisruptionController) getPodsForPdb(pdb *api.PodDisruptionBudget) ([]*api.Pod, error) {
	sel, err := labels.SelectorFromLabelSelector(pdb.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var pods []*api.Pod
	for _, o := range dc.podInf.List(pdb.Namespace) {
		if p := o.(*api.Pod); sel.Matches(labels.Set(p.Labels)) {
			pods = append(pods, p)
		}
	}
	return pods, nil
}

func (dc *DisruptionController) sync(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := dc.pdbInf.Get(ns, name)
	if !ok {
		return nil
	}
	pdb := o.(*api.PodDisruptionBudget)
	err := dc.trySync(pdb)
	if err == nil || apierrors.IsConflict(err) {
		return err
	}
	return dc.failSafe(pdb, err)
}

func (dc *DisruptionController) trySync(pdb *api.PodDisruptionBudget) error {
	pods, err := dc.getPodsForPdb(pdb)
	if err != nil {
		dc.recorder.Eventf(pdb, "Warning", "NoPods", "Failed to get pods: %v", err)
		return err
	}
	if len(pods) == 0 {
		dc.recorder.Eventf(pdb, "Normal", "NoPods", "No matching pods found")
	}
	expectedCount, desiredHealthy, unmanagedPods, err := dc.getExpectedPodCount(pdb, pods)
	if err != nil {
		dc.recorder.Eventf(pdb, "Warning", "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: %v", err)
		return err
	}
	if len(unmanagedPods) > 0 {
		dc.recorder.Eventf(pdb, "Warning", "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: %v) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" "+
			"field of the PDB to an integer value.", formatSelector(pdb.Spec.Selector))
	}
	now := dc.clock.Now()
	disruptedPods, recheckTime := dc.buildDisruptedPodMap(pods, pdb, now)
	currentHealthy := countHealthyPods(pods, disruptedPods, now)
	err = dc.updatePdbStatus(pdb, currentHealthy, desiredHealthy, expectedCount, disruptedPods)
	if err == nil && recheckTime != nil {
		// Upstream re-adds rechecks rate-limited, so one due right now comes
		// back a moment later (when the pod's time is past) rather than
		// spinning at this instant.
		if d := recheckTime.Sub(now); d > 0 {
			dc.queue.AddAfter(client.KeyOf(pdb), d)
		} else {
			dc.queue.AddRateLimited(client.KeyOf(pdb))
		}
	}
	return err
}

// getExpectedPodCount works out how many pods the budget expects and how
// many must stay healthy: an integer minAvailable counts the selected pods;
// maxUnavailable and percentages count the scale of their controllers.
func (dc *DisruptionController) getExpectedPodCount(pdb *api.PodDisruptionBudget, pods []*api.Pod) (expectedCount, desiredHealthy int32, unmanagedPods []string, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		expectedCount, unmanagedPods, err = dc.getExpectedScale(pdb, pods)
		if err != nil {
			return
		}
		var maxUnavailable int
		maxUnavailable, err = intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expectedCount), true)
		if err != nil {
			return
		}
		desiredHealthy = expectedCount - int32(maxUnavailable)
		if desiredHealthy < 0 {
			desiredHealthy = 0
		}
	case pdb.Spec.MinAvailable != nil:
		if pdb.Spec.MinAvailable.Type == intstr.Int {
			desiredHealthy = pdb.Spec.MinAvailable.IntVal
			expectedCount = int32(len(pods))
			return
		}
		expectedCount, unmanagedPods, err = dc.getExpectedScale(pdb, pods)
		if err != nil {
			return
		}
		var minAvailable int
		minAvailable, err = intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expectedCount), true)
		if err != nil {
			return
		}
		desiredHealthy = int32(minAvailable)
	}
	return
}

// getExpectedScale adds up the scale of the controllers of the pods.
func (dc *DisruptionController) getExpectedScale(pdb *api.PodDisruptionBudget, pods []*api.Pod) (int32, []string, error) {
	scales := map[string]int32{}
	var unmanaged []string
	for _, pod := range pods {
		ref := pod.GetControllerOf()
		if ref == nil {
			unmanaged = append(unmanaged, pod.Name)
			continue
		}
		if _, ok := scales[ref.UID]; ok {
			continue
		}
		uid, scale, found, err := dc.findController(ref, pod.Namespace)
		if err != nil {
			return 0, nil, err
		}
		if !found {
			return 0, nil, fmt.Errorf("found no controllers for pod %q", pod.Name)
		}
		scales[uid] = scale
	}
	var total int32
	for _, s := range scales {
		total += s
	}
	return total, unmanaged, nil
}

// findController resolves a pod's controller to its scale, trying the
// kinds upstream's finders try: a ReplicaSet's Deployment, a ReplicaSet
// without one, a StatefulSet, then anything else through the registry.
func (dc *DisruptionController) findController(ref *api.OwnerReference, ns string) (uid string, scale int32, found bool, err error) {
	group := apiGroup(ref.APIVersion)
	switch {
	case ref.Kind == "ReplicaSet" && (group == "apps" || group == "extensions"):
		o, ok := dc.rsInf.Get(ns, ref.Name)
		if !ok || o.GetObjectMeta().UID != ref.UID {
			return "", 0, false, nil
		}
		rs := o.(*api.ReplicaSet)
		if owner := rs.GetControllerOf(); owner != nil && owner.Kind == "Deployment" {
			g := apiGroup(owner.APIVersion)
			if g != "apps" && g != "extensions" {
				return "", 0, false, nil
			}
			d, ok := dc.dInf.Get(ns, owner.Name)
			if !ok || d.GetObjectMeta().UID != owner.UID {
				return "", 0, false, nil
			}
			return d.GetObjectMeta().UID, replicas(d.(*api.Deployment).Spec.Replicas), true, nil
		}
		return rs.UID, replicas(rs.Spec.Replicas), true, nil
	case ref.Kind == "StatefulSet" && group == "apps":
		o, ok := dc.ssInf.Get(ns, ref.Name)
		if !ok || o.GetObjectMeta().UID != ref.UID {
			return "", 0, false, nil
		}
		return ref.UID, replicas(o.(*api.StatefulSet).Spec.Replicas), true, nil
	}
	res, ok := dc.client.Registry().ForKind(ref.APIVersion, ref.Kind)
	if !ok {
		return "", 0, false, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, ref.APIVersion)
	}
	if !res.Scale {
		return "", 0, false, fmt.Errorf("%s does not implement the scale subresource", res.GroupResource())
	}
	return "", 0, false, nil
}

func apiGroup(apiVersion string) string {
	for i := 0; i < len(apiVersion); i++ {
		if apiVersion[i] == '/' {
			return apiVersion[:i]
		}
	}
	return ""
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// countHealthyPods counts the Ready pods that are neither being deleted nor
// about to be (approved for eviction within DeletionTimeout).
func countHealthyPods(pods []*api.Pod, disruptedPods map[string]api.Time, now time.Time) int32 {
	var n int32
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		if t, ok := disruptedPods[pod.Name]; ok && t.Add(DeletionTimeout).After(now) {
			continue
		}
		if api.IsPodReady(pod) {
			n++
		}
	}
	return n
}

// buildDisruptedPodMap keeps the evicted pods that are not deleting yet and
// still within DeletionTimeout, and says when to look again.
func (dc *DisruptionController) buildDisruptedPodMap(pods []*api.Pod, pdb *api.PodDisruptionBudget, now time.Time) (map[string]api.Time, *time.Time) {
	result := map[string]api.Time{}
	var recheck *time.Time
	if pdb.Status.DisruptedPods == nil {
		return result, nil
	}
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		t, ok := pdb.Status.DisruptedPods[pod.Name]
		if !ok {
			continue
		}
		expected := t.Add(DeletionTimeout)
		if expected.Before(now) {
			// Upstream's message names the namespace twice; kept as it is.
			dc.recorder.Eventf(pod, "Warning", "NotDeleted", "Pod was expected by PDB %s/%s to be deleted but it wasn't", pdb.Namespace, pdb.Namespace)
			continue
		}
		if recheck == nil || expected.Before(*recheck) {
			e := expected
			recheck = &e
		}
		result[pod.Name] = t
	}
	return result, recheck
}

// failSafe sets disruptionsAllowed to 0 (and says why) when the status
// cannot be worked out, so no eviction is approved on a guess.
func (dc *DisruptionController) failSafe(pdb *api.PodDisruptionBudget, err error) error {
	newPdb := pdb.DeepCopy()
	newPdb.Status.DisruptionsAllowed = 0
	setStatusCondition(&newPdb.Status.Conditions, api.Condition{
		Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse,
		Reason: api.SyncFailedReason, Message: err.Error(), ObservedGeneration: newPdb.Status.ObservedGeneration,
	}, dc.clock.Now())
	return dc.writePdbStatus(newPdb)
}

func (dc *DisruptionController) updatePdbStatus(pdb *api.PodDisruptionBudget, currentHealthy, desiredHealthy, expectedCount int32, disruptedPods map[string]api.Time) error {
	// Nothing is allowed while no pods are expected: a budget whose pods
	// appear before this controller counts them must not approve evictions.
	disruptionsAllowed := currentHealthy - desiredHealthy
	if expectedCount <= 0 || disruptionsAllowed <= 0 {
		disruptionsAllowed = 0
	}
	if len(disruptedPods) == 0 {
		disruptedPods = nil
	}
	st := pdb.Status
	if st.CurrentHealthy == currentHealthy && st.DesiredHealthy == desiredHealthy && st.ExpectedPods == expectedCount &&
		st.DisruptionsAllowed == disruptionsAllowed && sameDisruptedPods(st.DisruptedPods, disruptedPods) &&
		st.ObservedGeneration == pdb.Generation && ConditionsAreUpToDate(pdb) {
		return nil
	}
	newPdb := pdb.DeepCopy()
	newPdb.Status = api.PodDisruptionBudgetStatus{
		CurrentHealthy:     currentHealthy,
		DesiredHealthy:     desiredHealthy,
		ExpectedPods:       expectedCount,
		DisruptionsAllowed: disruptionsAllowed,
		DisruptedPods:      disruptedPods,
		ObservedGeneration: pdb.Generation,
		Conditions:         newPdb.Status.Conditions,
	}
	UpdateDisruptionAllowedCondition(newPdb, dc.clock.Now())
	return dc.writePdbStatus(newPdb)
}

func sameDisruptedPods(a, b map[string]api.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !v.Equal(w.Time) {
			return false
		}
	}
	return true
}

func (dc *DisruptionController) writePdbStatus(pdb *api.PodDisruptionBudget) error {
	_, err := client.UpdateStatus(dc.client, pdb)
	return err
}

// nonTerminatingPodHasStaleDisruptionCondition says whether a pod carries a
// DisruptionTarget condition that no deletion followed, and how long until
// it counts as stale. The kubelet's own conditions never go stale.
func (dc *DisruptionController) nonTerminatingPodHasStaleDisruptionCondition(pod *api.Pod) (bool, time.Duration) {
	if pod.DeletionTimestamp != nil {
		return false, 0
	}
	_, c := api.GetPodCondition(&pod.Status, api.DisruptionTarget)
	if c == nil || c.Status != api.ConditionTrue || c.Reason == api.PodReasonTerminationByKubelet || api.IsPodTerminal(pod) {
		return false, 0
	}
	wait := stalePodDisruptionTimeout - dc.clock.Since(c.LastTransitionTime.Time)
	if wait < 0 {
		wait = 0
	}
	return true, wait
}

// syncStalePodDisruption sets a stale DisruptionTarget condition to False.
func (dc *DisruptionController) syncStalePodDisruption(key string) error {
	ns, name := client.SplitKey(key)
	o, ok := dc.podInf.Get(ns, name)
	if !ok {
		return nil
	}
	pod := o.(*api.Pod)
	has, cleanAfter := dc.nonTerminatingPodHasStaleDisruptionCondition(pod)
	if !has {
		return nil
	}
	if cleanAfter > 0 {
		dc.staleQueue.AddAfter(key, cleanAfter)
		return nil
	}
	newPod := pod.DeepCopy()
	if !api.UpdatePodCondition(&newPod.Status, &api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionFalse}, api.NewTime(dc.clock.Now())) {
		return nil
	}
	_, err := client.UpdateStatus(dc.client, newPod)
	return err
}

// formatSelector prints a selector as %v prints upstream's generated
// *metav1.LabelSelector (its String method).
func formatSelector(s *api.LabelSelector) string {
	if s == nil {
		return "nil"
	}
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	labels := "map[string]string{"
	for _, k := range keys {
		labels += fmt.Sprintf("%v: %v,", k, s.MatchLabels[k])
	}
	labels += "}"
	exprs := "[]LabelSelectorRequirement{"
	for _, e := range s.MatchExpressions {
		exprs += fmt.Sprintf("LabelSelectorRequirement{Key:%v,Operator:%v,Values:%v,}", e.Key, e.Operator, e.Values) + ","
	}
	exprs += "}"
	return "&LabelSelector{MatchLabels:" + labels + ",MatchExpressions:" + exprs + ",}"
}
