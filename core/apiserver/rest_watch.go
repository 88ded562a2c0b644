package apiserver

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/fields"
	"kubeplay/core/api/labels"
)

// Watches over HTTP: the handler parses the request and turns each store
// event into one JSON line; the host (kubeplay serve) owns the connection
// and streams the lines as they come, without holding the engine's lock.

// WatchRequest is a parsed ?watch=true request.
type WatchRequest struct {
	res           *Resource
	version       string
	ns            string
	opts          ListOptions
	asTable       bool
	includeObject string
	// Timeout is timeoutSeconds; 0 means the host's default.
	Timeout time.Duration
}

// ParseWatch reports whether r is a watch request and parses it.
func (h *Handler) ParseWatch(r *Request) (*WatchRequest, bool, error) {
	q := r.Query()
	if r.Method != "GET" || (q.Get("watch") != "true" && q.Get("watch") != "1") {
		return nil, false, nil
	}
	parts := strings.Split(strings.TrimPrefix(strings.TrimSuffix(r.Path, "/"), "/"), "/")
	var group, version string
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		version, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, version, parts = parts[1], parts[2], parts[3:]
	default:
		return nil, true, apierrors.NewNotFoundMessage()
	}
	ns := ""
	if parts[0] == "namespaces" && len(parts) >= 3 {
		ns, parts = parts[1], parts[2:]
	}
	res, ok := h.Server.Registry.Get(group, parts[0])
	if !ok || !h.Server.Registry.ServesVersion(res, version) || len(parts) > 2 {
		return nil, true, apierrors.NewNotFoundMessage()
	}
	sel, err := labels.Parse(q.Get("labelSelector"))
	if err != nil {
		return nil, true, apierrors.NewBadRequest("unable to parse requirement: " + err.Error())
	}
	fsel, err := fields.Parse(q.Get("fieldSelector"))
	if err != nil {
		return nil, true, apierrors.NewBadRequest(err.Error())
	}
	name := ""
	if len(parts) == 2 {
		name = parts[1] // the deprecated /watch-by-name form
	}
	wr := &WatchRequest{res: res, version: version, ns: ns, asTable: wantsTable(r.Header.Get("Accept")), includeObject: q.Get("includeObject")}
	wr.opts = ListOptions{ResourceVersion: q.Get("resourceVersion"), Filter: func(o api.Object) bool {
		m := o.GetObjectMeta()
		return (name == "" || m.Name == name) && sel.Matches(labels.Set(m.Labels)) && fsel.Matches(FieldSet(o))
	}}
	if t, err := strconv.Atoi(q.Get("timeoutSeconds")); err == nil && t > 0 {
		wr.Timeout = time.Duration(t) * time.Second
	}
	return wr, true, nil
}

// StartWatch opens the watch; emit gets each event as one JSON line, from
// inside the write that caused it. Call stop to end it.
func (h *Handler) StartWatch(wr *WatchRequest, emit func(line []byte)) (stop func(), err error) {
	return h.Server.Watch(wr.res, wr.ns, wr.opts, func(ev WatchEvent) {
		obj := inVersion(wr.res, wr.version, ev.Object)
		if wr.asTable {
			obj = h.table(wr.res, []api.Object{ev.Object}, ev.Object.GetObjectMeta().ResourceVersion, wr.includeObject)
		}
		b, err := json.Marshal(map[string]any{"type": ev.Type, "object": obj})
		if err != nil {
			return
		}
		emit(append(b, '\n'))
	})
}

// WatchError encodes a failed watch as the ERROR event a client expects.
func WatchError(err error) []byte {
	s := api.Status{Status: "Failure", Message: err.Error(), Code: 500, Reason: "InternalError"}
	if st, ok := err.(interface{ Status() api.Status }); ok {
		s = st.Status()
	}
	s.TypeMeta = api.TypeMeta{Kind: "Status", APIVersion: "v1"}
	b, _ := json.Marshal(map[string]any{"type": "ERROR", "object": s})
	return append(b, '\n')
}
