package playground

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
	"kubeplay/core/printers"
)

// traceCap bounds the writes kept for the trace panel.
const traceCap = 5000

// traceEntry is one committed write, as the API server's observer saw it.
type traceEntry struct {
	at       time.Time
	actor    string
	typ      string // ADDED, MODIFIED, DELETED
	res      *apiserver.Resource
	obj, old api.Object
}

// TraceRow is a write in the trace panel: who wrote what, and what changed.
type TraceRow struct {
	At        string `json:"at"`    // +1.5s since the command started
	Actor     string `json:"actor"` // deployment-controller, kubelet, kubectl …
	Action    string `json:"action"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	Change    string `json:"change,omitempty"`
	Count     int    `json:"count"` // repeats folded into this row
	Noise     bool   `json:"noise"` // leases and events, hidden unless asked
}

// Trace is what happened since the last terminal command started.
type Trace struct {
	Command string     `json:"command"`
	Since   string     `json:"since"`
	Rows    []TraceRow `json:"rows"`
	Dropped int        `json:"dropped"`
}

// observe is hooked to the API server of each cluster the host drives.
func (h *Host) observe(res *apiserver.Resource, ev apiserver.WatchEvent) {
	e := traceEntry{at: h.C.Now(), actor: h.C.API.Actor, typ: ev.Type, res: res, obj: ev.Object, old: ev.Old}
	if len(h.trace) >= traceCap {
		// Keep the newest half; the oldest writes of a long wait go.
		n := copy(h.trace, h.trace[traceCap/2:])
		h.traceDropped += len(h.trace) - n
		h.trace = h.trace[:n]
	}
	h.trace = append(h.trace, e)
	h.dirty = true
}

// markTrace starts the trace of a new command; the caller holds mu.
func (h *Host) markTrace(cmd string) {
	h.trace = h.trace[:0]
	h.traceDropped = 0
	h.traceCmd = cmd
	h.traceStart = h.C.Now()
}

// Trace returns the writes since the last command started, repeats of the
// same write by the same component folded together.
func (h *Host) Trace() Trace {
	var t Trace
	h.Do(func() { t = h.buildTrace() })
	return t
}

func (h *Host) buildTrace() Trace {
	t := Trace{Command: h.traceCmd, Since: h.traceStart.Format(time.RFC3339), Rows: []TraceRow{}, Dropped: h.traceDropped}
	for _, e := range h.trace {
		row := TraceRow{
			At:    "+" + printers.HumanDuration(e.at.Sub(h.traceStart)),
			Actor: e.actor, Kind: e.res.Kind, Count: 1,
			Noise: e.res.Kind == "Lease" || e.res.Kind == "Event",
		}
		if e.at.Sub(h.traceStart) < time.Second {
			row.At = "+0s"
		}
		if row.Actor == "" {
			row.Actor = "kube-apiserver"
		}
		m := e.obj.GetObjectMeta()
		row.Namespace, row.Name = m.Namespace, m.Name
		if ev, ok := e.obj.(*api.Event); ok {
			// An event is about another object: name that one.
			row.Name = ev.InvolvedObject.Kind + "/" + ev.InvolvedObject.Name
			row.Change = ev.Reason
			if ev.Message != "" {
				row.Change += ": " + ellipsis(ev.Message, 90)
			}
		}
		switch e.typ {
		case "ADDED":
			row.Action = "created"
		case "DELETED":
			row.Action = "deleted"
		default:
			row.Action = "updated"
			if row.Kind != "Event" {
				row.Change = change(e.old, e.obj)
			}
		}
		if n := len(t.Rows); n > 0 {
			last := &t.Rows[n-1]
			if last.Actor == row.Actor && last.Action == row.Action && last.Kind == row.Kind &&
				last.Namespace == row.Namespace && last.Name == row.Name && last.Change == row.Change {
				last.Count++
				continue
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// change says in a few words what an update changed: the top-level
// sections (spec, status, metadata fields) that differ.
func change(old, cur api.Object) string {
	if old == nil || cur == nil {
		return ""
	}
	om, cm := old.GetObjectMeta(), cur.GetObjectMeta()
	var parts []string
	if om.DeletionTimestamp == nil && cm.DeletionTimestamp != nil {
		parts = append(parts, "deletionTimestamp")
	}
	if !reflect.DeepEqual(om.Labels, cm.Labels) {
		parts = append(parts, "labels")
	}
	if !reflect.DeepEqual(om.Annotations, cm.Annotations) {
		parts = append(parts, "annotations")
	}
	if !reflect.DeepEqual(om.Finalizers, cm.Finalizers) {
		parts = append(parts, "finalizers")
	}
	if !reflect.DeepEqual(om.OwnerReferences, cm.OwnerReferences) {
		parts = append(parts, "ownerReferences")
	}
	ov, cv := reflect.ValueOf(old).Elem(), reflect.ValueOf(cur).Elem()
	if ov.Type() == cv.Type() {
		for i := 0; i < cv.NumField(); i++ {
			f := cv.Type().Field(i)
			if f.Anonymous || f.Name == "ObjectMeta" || f.Name == "TypeMeta" {
				continue
			}
			if !reflect.DeepEqual(ov.Field(i).Interface(), cv.Field(i).Interface()) {
				parts = append(parts, jsonName(f))
				if f.Name == "Status" || f.Name == "Spec" {
					if sub := subFields(ov.Field(i), cv.Field(i)); sub != "" {
						parts[len(parts)-1] += " (" + sub + ")"
					}
				}
			}
		}
	}
	return strings.Join(parts, ", ")
}

// subFields names the fields of a struct that differ (at most four).
func subFields(a, b reflect.Value) string {
	if a.Kind() != reflect.Struct || b.Kind() != reflect.Struct {
		return ""
	}
	var out []string
	for i := 0; i < b.NumField(); i++ {
		if !reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
			out = append(out, jsonName(b.Type().Field(i)))
		}
	}
	sort.Strings(out)
	if len(out) > 4 {
		out = append(out[:4], fmt.Sprintf("+%d", len(out)-4))
	}
	return strings.Join(out, ", ")
}

func jsonName(f reflect.StructField) string {
	if tag, ok := f.Tag.Lookup("json"); ok {
		if name, _, _ := strings.Cut(tag, ","); name != "" && name != "-" {
			return name
		}
	}
	return strings.ToLower(f.Name[:1]) + f.Name[1:]
}

// TraceJSON is the trace as JSON for the page.
func (h *Host) TraceJSON() string {
	b, _ := json.Marshal(h.Trace())
	return string(b)
}
