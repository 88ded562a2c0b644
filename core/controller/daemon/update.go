package daemon

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/controller/history"
)

// rollingUpdate deletes old pods (or, surging, creates new ones beside
// them) as far as maxUnavailable or maxSurge allow; manage replaces what
// it deletes. Nodes are visited by name.
func (dsc *DaemonSetsController) rollingUpdate(ds *api.DaemonSet, nodes []*api.Node, hash string) error {
	nodeToDaemonPods, err := dsc.getNodesToDaemonPods(ds, false)
	if err != nil {
		return fmt.Errorf("couldn't get node to daemon pod mapping for daemon set %q: %v", ds.Name, err)
	}
	maxSurge, maxUnavailable, err := dsc.updatedDesiredNodeCounts(ds, nodes, nodeToDaemonPods)
	if err != nil {
		return fmt.Errorf("couldn't get unavailable numbers: %v", err)
	}
	now := api.Time{Time: dsc.clock.Now()}
	minReady := ds.Spec.MinReadySeconds
	nodeNames := slices.Sorted(maps.Keys(nodeToDaemonPods))

	if maxSurge == 0 {
		// Delete just enough old pods to stay within maxUnavailable. An
		// old pod that is unavailable anyway may always go.
		numUnavailable := 0
		var allowedReplacementPods, candidatePodsToDelete []string
		for _, nodeName := range nodeNames {
			newPod, oldPod, ok := findUpdatedPodsOnNode(ds, nodeToDaemonPods[nodeName], hash)
			if !ok {
				// Extra pods: manage cleans up; count the node unavailable.
				numUnavailable++
				continue
			}
			switch {
			case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
				numUnavailable++
			case newPod != nil:
				if !api.IsPodAvailable(newPod, minReady, now) {
					numUnavailable++
				}
			default:
				switch {
				case !api.IsPodAvailable(oldPod, minReady, now):
					allowedReplacementPods = append(allowedReplacementPods, oldPod.Name)
				case numUnavailable >= maxUnavailable:
				default:
					candidatePodsToDelete = append(candidatePodsToDelete, oldPod.Name)
				}
			}
		}
		remaining := min(max(maxUnavailable-numUnavailable, 0), len(candidatePodsToDelete))
		oldPodsToDelete := append(allowedReplacementPods, candidatePodsToDelete[:remaining]...)
		return dsc.syncNodes(ds, oldPodsToDelete, nil, hash)
	}

	// Surging: start a new pod beside each old one, at most maxSurge at a
	// time (at once where the old pod is unavailable), and delete the old
	// pod once the new one is available.
	var oldPodsToDelete, candidateNewNodes, allowedNewNodes []string
	numSurge := 0
	for _, nodeName := range nodeNames {
		newPod, oldPod, ok := findUpdatedPodsOnNode(ds, nodeToDaemonPods[nodeName], hash)
		if !ok {
			numSurge++
			continue
		}
		switch {
		case oldPod == nil:
		case newPod == nil:
			switch {
			case !api.IsPodAvailable(oldPod, minReady, now):
				allowedNewNodes = append(allowedNewNodes, nodeName)
			case numSurge >= maxSurge:
			default:
				candidateNewNodes = append(candidateNewNodes, nodeName)
			}
		default:
			if !api.IsPodAvailable(newPod, minReady, now) {
				numSurge++
				continue
			}
			oldPodsToDelete = append(oldPodsToDelete, oldPod.Name)
		}
	}
	remaining := min(max(maxSurge-numSurge, 0), len(candidateNewNodes))
	newNodesToCreate := append(allowedNewNodes, candidateNewNodes[:remaining]...)
	return dsc.syncNodes(ds, oldPodsToDelete, newNodesToCreate, hash)
}

// findUpdatedPodsOnNode returns the node's new and old live pods; ok is
// false when there is more than one of either.
func findUpdatedPodsOnNode(ds *api.DaemonSet, podsOnNode []*api.Pod, hash string) (newPod, oldPod *api.Pod, ok bool) {
	generation := templateGeneration(ds)
	for _, pod := range podsOnNode {
		if pod.DeletionTimestamp != nil {
			continue
		}
		if IsPodUpdated(pod, hash, generation) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = pod
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = pod
		}
	}
	return newPod, oldPod, true
}

// updatedDesiredNodeCounts resolves maxSurge and maxUnavailable against
// the nodes that should run the daemon, and gives each such node without
// pods an empty entry in nodeToDaemonPods.
func (dsc *DaemonSetsController) updatedDesiredNodeCounts(ds *api.DaemonSet, nodes []*api.Node, nodeToDaemonPods map[string][]*api.Pod) (int, int, error) {
	desired := 0
	for _, node := range nodes {
		if wantToRun, _ := dsc.nodeShouldRunDaemonPod(node, ds); !wantToRun {
			continue
		}
		desired++
		if _, ok := nodeToDaemonPods[node.Name]; !ok {
			nodeToDaemonPods[node.Name] = nil
		}
	}
	maxUnavailable, err := UnavailableCount(ds, desired)
	if err != nil {
		return -1, -1, fmt.Errorf("invalid value for MaxUnavailable: %v", err)
	}
	maxSurge, err := SurgeCount(ds, desired)
	if err != nil {
		return -1, -1, fmt.Errorf("invalid value for MaxSurge: %v", err)
	}
	// Neither surge nor unavailability allowed would stall: accept one down.
	if desired > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1
	}
	return maxSurge, maxUnavailable, nil
}

// constructHistory finds ds's revisions, returning the one matching its
// template (created, or renumbered to be the newest) and the others.
func (dsc *DaemonSetsController) constructHistory(ds *api.DaemonSet) (cur *api.ControllerRevision, old []*api.ControllerRevision, err error) {
	histories, err := dsc.controlledHistories(ds)
	if err != nil {
		return nil, nil, err
	}
	patch, err := getPatch(ds)
	if err != nil {
		return nil, nil, err
	}
	var currentHistories []*api.ControllerRevision
	for _, h := range histories {
		if _, ok := h.Labels[api.DefaultDaemonSetUniqueLabelKey]; !ok {
			// Older revisions lack the label: the name stands in for the hash.
			toUpdate := h.DeepCopy()
			if toUpdate.Labels == nil {
				toUpdate.Labels = map[string]string{}
			}
			toUpdate.Labels[api.DefaultDaemonSetUniqueLabelKey] = toUpdate.Name
			if h, err = client.Update(dsc.client, toUpdate); err != nil {
				return nil, nil, err
			}
		}
		if bytes.Equal(patch, h.Data.Raw) {
			currentHistories = append(currentHistories, h)
		} else {
			old = append(old, h)
		}
	}
	currRevision := history.MaxRevision(old) + 1
	if len(currentHistories) == 0 {
		cur, err = dsc.snapshot(ds, currRevision, patch)
		return cur, old, err
	}
	cur, err = dsc.dedupCurHistories(ds, currentHistories)
	if err != nil {
		return nil, nil, err
	}
	if cur.Revision < currRevision {
		toUpdate := cur.DeepCopy()
		toUpdate.Revision = currRevision
		if cur, err = client.Update(dsc.client, toUpdate); err != nil {
			return nil, nil, err
		}
	}
	return cur, old, nil
}

// cleanupHistory deletes the oldest revisions no pod uses until at most
// revisionHistoryLimit old ones remain.
func (dsc *DaemonSetsController) cleanupHistory(ds *api.DaemonSet, old []*api.ControllerRevision) error {
	nodeToDaemonPods, err := dsc.getNodesToDaemonPods(ds, true)
	if err != nil {
		return fmt.Errorf("couldn't get node to daemon pod mapping for daemon set %q: %v", ds.Name, err)
	}
	toKeep := 10
	if ds.Spec.RevisionHistoryLimit != nil {
		toKeep = int(*ds.Spec.RevisionHistoryLimit)
	}
	toKill := len(old) - toKeep
	if toKill <= 0 {
		return nil
	}
	liveHashes := map[string]bool{}
	for _, pods := range nodeToDaemonPods {
		for _, pod := range pods {
			if h := pod.Labels[api.DefaultDaemonSetUniqueLabelKey]; h != "" {
				liveHashes[h] = true
			}
		}
	}
	sorted := append([]*api.ControllerRevision(nil), old...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Revision < sorted[j].Revision })
	for _, h := range sorted {
		if toKill <= 0 {
			break
		}
		if liveHashes[h.Labels[api.DefaultDaemonSetUniqueLabelKey]] {
			continue
		}
		if err := dsc.history.DeleteControllerRevision(h); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		toKill--
	}
	return nil
}

// dedupCurHistories keeps the newest of several revisions of the current
// template, relabels pods of the others to it, and deletes the others.
func (dsc *DaemonSetsController) dedupCurHistories(ds *api.DaemonSet, curHistories []*api.ControllerRevision) (*api.ControllerRevision, error) {
	if len(curHistories) == 1 {
		return curHistories[0], nil
	}
	var keep *api.ControllerRevision
	var maxRev int64
	for _, h := range curHistories {
		if h.Revision >= maxRev {
			keep, maxRev = h, h.Revision
		}
	}
	keepHash := keep.Labels[api.DefaultDaemonSetUniqueLabelKey]
	for _, h := range curHistories {
		if h.Name == keep.Name {
			continue
		}
		pods, err := dsc.getDaemonPods(ds)
		if err != nil {
			return nil, err
		}
		for _, pod := range pods {
			if pod.Labels[api.DefaultDaemonSetUniqueLabelKey] != keepHash {
				p := pod.DeepCopy()
				if p.Labels == nil {
					p.Labels = map[string]string{}
				}
				p.Labels[api.DefaultDaemonSetUniqueLabelKey] = keepHash
				if _, err := client.Update(dsc.client, p); err != nil {
					return nil, err
				}
			}
		}
		if err := dsc.history.DeleteControllerRevision(h); err != nil && !apierrors.IsNotFound(err) {
			return nil, err
		}
	}
	return keep, nil
}

// controlledHistories returns ds's revisions after adopting matching
// orphans and releasing the ones that stopped matching.
func (dsc *DaemonSetsController) controlledHistories(ds *api.DaemonSet) ([]*api.ControllerRevision, error) {
	selector, err := labels.SelectorFromLabelSelector(ds.Spec.Selector)
	if err != nil {
		return nil, err
	}
	var all []*api.ControllerRevision
	for _, o := range dsc.history.Informer.List(ds.Namespace) {
		all = append(all, o.(*api.ControllerRevision))
	}
	return dsc.history.ClaimControllerRevisions(ds, controllerKind, selector, dsc.canAdopt(ds), all)
}

// Match reports whether history records ds's current template.
func Match(ds *api.DaemonSet, h *api.ControllerRevision) (bool, error) {
	patch, err := getPatch(ds)
	if err != nil {
		return false, err
	}
	return bytes.Equal(patch, h.Data.Raw), nil
}

// getPatch is the revision data for ds's template.
func getPatch(ds *api.DaemonSet) ([]byte, error) { return history.TemplatePatch(&ds.Spec.Template) }

// snapshot records ds's template as revision number revision, named
// <ds>-<pod template hash>. A name taken by another template bumps the
// collision count and the sync is retried.
func (dsc *DaemonSetsController) snapshot(ds *api.DaemonSet, revision int64, patch []byte) (*api.ControllerRevision, error) {
	hash := ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
	name := ds.Name + "-" + hash
	lbls := make(map[string]string, len(ds.Spec.Template.Labels)+1)
	for k, v := range ds.Spec.Template.Labels {
		lbls[k] = v
	}
	lbls[api.DefaultDaemonSetUniqueLabelKey] = hash
	var annotations map[string]string
	if len(ds.Annotations) > 0 {
		// kubectl rollout history reads change-cause from here.
		annotations = make(map[string]string, len(ds.Annotations))
		for k, v := range ds.Annotations {
			annotations[k] = v
		}
	}
	cr := &api.ControllerRevision{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: api.ObjectMeta{
			Name: name, Namespace: ds.Namespace, Labels: lbls, Annotations: annotations,
			OwnerReferences: []api.OwnerReference{history.ControllerRef(ds, controllerKind)},
		},
		Data:     api.RawExtension{Raw: patch},
		Revision: revision,
	}
	created, err := client.Create(dsc.client, cr)
	if !apierrors.IsAlreadyExists(err) {
		return created, err
	}
	existing, getErr := client.Get[*api.ControllerRevision](dsc.client, ds.Namespace, name)
	if getErr != nil {
		return nil, getErr
	}
	if bytes.Equal(existing.Data.Raw, patch) {
		return existing, nil
	}
	fresh, getErr := client.Get[*api.DaemonSet](dsc.client, ds.Namespace, ds.Name)
	if getErr != nil {
		return nil, getErr
	}
	if derefInt32(fresh.Status.CollisionCount) != derefInt32(ds.Status.CollisionCount) || (fresh.Status.CollisionCount == nil) != (ds.Status.CollisionCount == nil) {
		return nil, fmt.Errorf("found a stale collision count (%d, expected %d) of DaemonSet %q while processing; will retry until it is updated",
			derefInt32(ds.Status.CollisionCount), derefInt32(fresh.Status.CollisionCount), ds.Name)
	}
	toUpdate := fresh.DeepCopy()
	if toUpdate.Status.CollisionCount == nil {
		toUpdate.Status.CollisionCount = new(int32)
	}
	*toUpdate.Status.CollisionCount++
	if _, err := client.UpdateStatus(dsc.client, toUpdate); err != nil {
		return nil, err
	}
	return nil, err
}

func derefInt32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}
