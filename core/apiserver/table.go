package apiserver

import (
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/printers"
)

// wantsTable reports a client asking for meta.k8s.io Tables, as kubectl
// get does: the server prints, with the same table conversion our own
// kubectl uses.
func wantsTable(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		if strings.Contains(part, "as=Table") && strings.Contains(part, "g=meta.k8s.io") {
			return true
		}
	}
	return false
}

// table renders objs as a meta.k8s.io/v1 Table. includeObject chooses
// what each row carries: Metadata (the default), Object or None.
func (h *Handler) table(res *Resource, objs []api.Object, rv, includeObject string) map[string]any {
	t := printers.TableFor(res.Kind, objs, h.Server.clock.Now())
	cols := make([]any, 0, len(t.Columns))
	for _, c := range t.Columns {
		format := ""
		if c.Name == "Name" {
			format = "name"
		}
		cols = append(cols, map[string]any{"name": c.Name, "type": "string", "format": format, "description": columnDescription(c.Name), "priority": c.Priority})
	}
	rows := make([]any, 0, len(t.Rows))
	for _, r := range t.Rows {
		cells := make([]any, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c
		}
		row := map[string]any{"cells": cells}
		switch {
		case includeObject == "None" || r.Object == nil:
		case includeObject == "Object":
			row["object"] = r.Object
		default:
			row["object"] = map[string]any{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": r.Object.GetObjectMeta()}
		}
		rows = append(rows, row)
	}
	return map[string]any{"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": map[string]string{"resourceVersion": rv},
		"columnDefinitions": cols, "rows": rows}
}

func columnDescription(name string) string {
	switch name {
	case "Name":
		return "Name must be unique within a namespace."
	case "Age":
		return "CreationTimestamp is a timestamp representing the server time when this object was created."
	}
	return name
}
