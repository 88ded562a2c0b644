// Package printers turns objects into the tables kubectl get shows: the
// API server's table conversion (upstream's pkg/printers/internalversion,
// one handler per kind with the same columns and cell rules) and kubectl's
// table writer (cli-runtime's HumanReadablePrinter over a tabwriter).
package printers

import (
	"strings"
	"time"

	"kubeplay/core/api"
)

// Column is a table column; Priority 0 prints always, 1 only with -o wide.
// Names keep upstream's spelling ("Nominated Node"); Print upper-cases them.
type Column struct {
	Name     string
	Priority int
}

// Row is one object's cells, in Column order.
type Row struct {
	Cells  []string
	Object api.Object
}

// Table is what the server would answer for `get`: every column, wide ones
// included, as upstream's table convertor always renders with Wide set.
type Table struct {
	Columns []Column
	Rows    []Row
}

// handler prints one kind: its columns and a row function. row returns
// false when obj is not of the handler's type.
type handler struct {
	columns []Column
	row     func(obj api.Object, now time.Time) ([]string, bool)
}

// handlers is keyed by lower-case kind; a read-only lookup table.
var handlers = map[string]*handler{
	"pod":                     podHandler,
	"podtemplate":             podTemplateHandler,
	"namespace":               namespaceHandler,
	"node":                    nodeHandler,
	"service":                 serviceHandler,
	"endpoints":               endpointsHandler,
	"endpointslice":           endpointSliceHandler,
	"configmap":               configMapHandler,
	"secret":                  secretHandler,
	"serviceaccount":          serviceAccountHandler,
	"event":                   eventHandler,
	"resourcequota":           resourceQuotaHandler,
	"persistentvolume":        persistentVolumeHandler,
	"persistentvolumeclaim":   persistentVolumeClaimHandler,
	"storageclass":            storageClassHandler,
	"replicaset":              replicaSetHandler,
	"deployment":              deploymentHandler,
	"statefulset":             statefulSetHandler,
	"daemonset":               daemonSetHandler,
	"controllerrevision":      controllerRevisionHandler,
	"job":                     jobHandler,
	"cronjob":                 cronJobHandler,
	"horizontalpodautoscaler": hpaHandler,
	"lease":                   leaseHandler,
	"poddisruptionbudget":     pdbHandler,
}

// defaultColumns is the table upstream serves for kinds without a printer.
var defaultColumns = []Column{{Name: "Name"}, {Name: "Age"}}

// TableFor builds the table of objs, which all have the same kind, at
// virtual time now. Kinds without a handler get NAME, AGE (the default
// table upstream serves).
func TableFor(kind string, objs []api.Object, now time.Time) *Table {
	h := handlers[strings.ToLower(kind)]
	if h == nil {
		t := &Table{Columns: append([]Column(nil), defaultColumns...)}
		for _, obj := range objs {
			if obj != nil {
				t.Rows = append(t.Rows, Row{Cells: defaultCells(obj, now), Object: obj})
			}
		}
		return t
	}
	t := &Table{Columns: append([]Column(nil), h.columns...)}
	for _, obj := range objs {
		if obj == nil {
			continue
		}
		cells, ok := h.row(obj, now)
		if !ok {
			cells = mismatchCells(h.columns, obj, now)
		}
		t.Rows = append(t.Rows, Row{Cells: cells, Object: obj})
	}
	return t
}

func defaultCells(obj api.Object, now time.Time) []string {
	m := obj.GetObjectMeta()
	return []string{m.Name, Age(m.CreationTimestamp, now)}
}

// mismatchCells fills a row for an object that is not of the handler's type
// (a caller's mistake): its name and age where those columns are, blanks
// elsewhere, so the table still lines up instead of failing.
func mismatchCells(cols []Column, obj api.Object, now time.Time) []string {
	m := obj.GetObjectMeta()
	cells := make([]string, len(cols))
	for i, c := range cols {
		switch c.Name {
		case "Name":
			cells[i] = m.Name
		case "Age":
			cells[i] = Age(m.CreationTimestamp, now)
		}
	}
	return cells
}
