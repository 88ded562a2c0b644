package printers

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
)

// Columns of the apps/v1 kinds. Desired replicas default to 1, as the API
// defaults an unset spec.replicas.

var replicaSetHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Desired"},
		{Name: "Current"},
		{Name: "Ready"},
		{Name: "Age"},
		{Name: "Containers", Priority: 1},
		{Name: "Images", Priority: 1},
		{Name: "Selector", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		rs, ok := obj.(*api.ReplicaSet)
		if !ok {
			return nil, false
		}
		names, images := containerCells(rs.Spec.Template.Spec.Containers)
		return []string{
			rs.Name,
			itoa32(int32Or(rs.Spec.Replicas, 1)),
			itoa32(rs.Status.Replicas),
			itoa32(rs.Status.ReadyReplicas),
			Age(rs.CreationTimestamp, now),
			names, images, formatSelector(rs.Spec.Selector),
		}, true
	},
}

var deploymentHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Ready"},
		{Name: "Up-to-date"},
		{Name: "Available"},
		{Name: "Age"},
		{Name: "Containers", Priority: 1},
		{Name: "Images", Priority: 1},
		{Name: "Selector", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		d, ok := obj.(*api.Deployment)
		if !ok {
			return nil, false
		}
		names, images := containerCells(d.Spec.Template.Spec.Containers)
		return []string{
			d.Name,
			fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, int32Or(d.Spec.Replicas, 1)),
			itoa32(d.Status.UpdatedReplicas),
			itoa32(d.Status.AvailableReplicas),
			Age(d.CreationTimestamp, now),
			names, images, selectorString(d.Spec.Selector),
		}, true
	},
}

var statefulSetHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Ready"},
		{Name: "Age"},
		{Name: "Containers", Priority: 1},
		{Name: "Images", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		s, ok := obj.(*api.StatefulSet)
		if !ok {
			return nil, false
		}
		names, images := containerCells(s.Spec.Template.Spec.Containers)
		return []string{
			s.Name,
			fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, int32Or(s.Spec.Replicas, 1)),
			Age(s.CreationTimestamp, now),
			names, images,
		}, true
	},
}

var daemonSetHandler = &handler{
	columns: []Column{
		{Name: "Name"},
		{Name: "Desired"},
		{Name: "Current"},
		{Name: "Ready"},
		{Name: "Up-to-date"},
		{Name: "Available"},
		{Name: "Node Selector"},
		{Name: "Age"},
		{Name: "Containers", Priority: 1},
		{Name: "Images", Priority: 1},
		{Name: "Selector", Priority: 1},
	},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		ds, ok := obj.(*api.DaemonSet)
		if !ok {
			return nil, false
		}
		st := ds.Status
		names, images := containerCells(ds.Spec.Template.Spec.Containers)
		return []string{
			ds.Name,
			itoa32(st.DesiredNumberScheduled),
			itoa32(st.CurrentNumberScheduled),
			itoa32(st.NumberReady),
			itoa32(st.UpdatedNumberScheduled),
			itoa32(st.NumberAvailable),
			formatLabels(ds.Spec.Template.Spec.NodeSelector),
			Age(ds.CreationTimestamp, now),
			names, images, formatSelector(ds.Spec.Selector),
		}, true
	},
}

var controllerRevisionHandler = &handler{
	columns: []Column{{Name: "Name"}, {Name: "Controller"}, {Name: "Revision"}, {Name: "Age"}},
	row: func(obj api.Object, now time.Time) ([]string, bool) {
		cr, ok := obj.(*api.ControllerRevision)
		if !ok {
			return nil, false
		}
		controller := "<none>"
		if ref := cr.GetControllerOf(); ref != nil {
			controller = kindSlashName(ref.APIVersion, ref.Kind, ref.Name)
		}
		return []string{cr.Name, controller, strconv.FormatInt(cr.Revision, 10), Age(cr.CreationTimestamp, now)}, true
	},
}

// kindSlashName is formatResourceName for an owner: "daemonset.apps/web",
// "pod/x" for the core group.
func kindSlashName(apiVersion, kind, name string) string {
	if kind == "" {
		return name
	}
	group, _ := api.ParseAPIVersion(apiVersion)
	gk := kind
	if group != "" {
		gk += "." + group
	}
	return strings.ToLower(gk) + "/" + name
}

func itoa32(v int32) string { return strconv.FormatInt(int64(v), 10) }
