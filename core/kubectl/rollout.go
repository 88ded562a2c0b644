package kubectl

import (
	"errors"
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
)

// rolloutObjects is what every `kubectl rollout` subcommand starts with:
// TYPE NAME, TYPE/NAME, a bare TYPE (all of that type, as upstream's
// ResourceTypeOrNameArgs(true, …)), -l or -f.
func (inv *Invocation) rolloutObjects() ([]liveObject, []error, error) {
	if len(inv.Args) == 0 && len(inv.Flags.Strings("filename")) == 0 {
		return nil, nil, errors.New("required resource not specified")
	}
	objs, _, errs, err := inv.loadLive(inv.Args, liveOptions{typeSelectsAll: true})
	return objs, errs, err
}

// groupKind is schema.GroupKind's String(): "Deployment.apps", "Pod".
func groupKind(res *apiserver.Resource) string {
	if res.Group == "" {
		return res.Kind
	}
	return res.Kind + "." + res.Group
}

// ownedReplicaSets are the ReplicaSets a Deployment controls (selected by
// its selector and owned by it), as deploymentutil.GetAllReplicaSets lists
// them.
func ownedReplicaSets(c client.Interface, d *api.Deployment) ([]*api.ReplicaSet, error) {
	sel, err := labels.SelectorFromLabelSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve replica sets from deployment %s: %v", d.Name, err)
	}
	var out []*api.ReplicaSet
	for _, rs := range client.List[*api.ReplicaSet](c, d.Namespace, nil) {
		ref := rs.GetControllerOf()
		if ref == nil || ref.UID != d.UID || !sel.Matches(labels.Set(rs.Labels)) {
			continue
		}
		out = append(out, rs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// ownedRevisions are the ControllerRevisions a DaemonSet or StatefulSet
// controls: its rollout history.
func ownedRevisions(c client.Interface, owner api.Object, selector *api.LabelSelector) ([]*api.ControllerRevision, error) {
	m := owner.GetObjectMeta()
	sel, err := labels.SelectorFromLabelSelector(selector)
	if err != nil {
		return nil, err
	}
	var out []*api.ControllerRevision
	for _, cr := range client.List[*api.ControllerRevision](c, m.Namespace, nil) {
		ref := cr.GetControllerOf()
		if ref == nil || ref.UID != m.UID || !sel.Matches(labels.Set(cr.Labels)) {
			continue
		}
		out = append(out, cr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out, nil
}
