package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/fields"
	"kubeplay/core/api/labels"
)

// Handler serves the server on Kubernetes' REST paths: discovery, /version
// and the verbs on /api/v1/... and /apis/GROUP/VERSION/.... It does no
// locking: the caller serialises requests with everything else that drives
// the simulation, and lets the cluster settle after writes.
type Handler struct {
	Server *Server
	// Actor names the writer in the trace ("kubectl").
	Actor string
	// Protobuf turns a protobuf request body into JSON (an error that is
	// errors.ErrUnsupported for a kind it has no schema for). Without it
	// such bodies are refused as an unsupported media type. Only the
	// native server sets it: real kubectl sends protobuf, browsers do not,
	// and the schema tables are weight the page's wasm need not carry.
	Protobuf func(body []byte) ([]byte, error)
}

// MaxRequestBodyBytes is the largest request body the API server reads, as
// upstream's default; a host reads at most one byte more, so a larger body
// is refused rather than cut short.
const MaxRequestBodyBytes = 3 << 20

// plainText is a response body that is not JSON (pods/log).
type plainText string

// Version is what /version reports.
var Version = map[string]string{
	"major": "1", "minor": "32", "gitVersion": "v1.32.4", "gitCommit": "59526cd4867447956156ae3a602fcbac5a2c2dd4",
	"gitTreeState": "clean", "buildDate": "2025-04-22T15:58:41Z", "goVersion": "go1.23.6",
	"compiler": "gc", "platform": "linux/amd64",
}

func (h *Handler) Serve(w ResponseWriter, r *Request) {
	if wantsPretty(r) {
		w = prettyWriter{w}
	}
	path := strings.TrimSuffix(r.Path, "/")
	switch {
	case path == "/version":
		writeJSON(w, 200, Version)
		return
	case path == "/api":
		writeJSON(w, 200, map[string]any{"kind": "APIVersions", "versions": []string{"v1"},
			"serverAddressByClientCIDRs": []any{map[string]string{"clientCIDR": "0.0.0.0/0", "serverAddress": r.Host}}})
		return
	case path == "/apis":
		writeJSON(w, 200, h.groupList())
		return
	case path == "/openapi/v2":
		// An empty OpenAPI v2 document (an empty protobuf message): kubectl
		// then validates built-in kinds through the server's strict field
		// validation, and unknown kinds fail at mapping, as upstream's do.
		w.Header().Set("Content-Type", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
		w.WriteHeader(200)
		return
	case path == "/openapi/v3":
		writeJSON(w, 200, h.openAPIRoot())
		return
	case strings.HasPrefix(path, "/openapi/v3/"):
		rest := strings.Split(strings.TrimPrefix(path, "/openapi/v3/"), "/")
		group, version := "", ""
		switch {
		case len(rest) == 2 && rest[0] == "api":
			version = rest[1]
		case len(rest) == 3 && rest[0] == "apis":
			group, version = rest[1], rest[2]
		}
		if doc, ok := h.openAPIDoc(group, version); ok && version != "" {
			writeJSON(w, 200, doc)
			return
		}
		writeStatus(w, apierrors.FromStatus(api.Status{Status: "Failure", Message: "the server could not find the requested resource", Reason: "NotFound", Code: 404}))
		return
	case path == "/healthz" || path == "/readyz" || path == "/livez":
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
		return
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var group, version string
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		version, parts = parts[1], parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		group, version, parts = parts[1], parts[2], parts[3:]
	case len(parts) == 2 && parts[0] == "apis":
		writeJSON(w, 200, h.group(parts[1]))
		return
	default:
		writeStatus(w, apierrors.FromStatus(api.Status{Status: "Failure", Message: "the server could not find the requested resource", Reason: "NotFound", Code: 404}))
		return
	}
	if len(parts) == 0 {
		writeJSON(w, 200, h.resourceList(group, version))
		return
	}
	ns := ""
	if parts[0] == "namespaces" && len(parts) >= 3 {
		ns, parts = parts[1], parts[2:]
	}
	res, ok := h.Server.Registry.Get(group, parts[0])
	if !ok || !h.Server.Registry.ServesVersion(res, version) {
		writeStatus(w, apierrors.FromStatus(api.Status{Status: "Failure", Message: "the server could not find the requested resource", Reason: "NotFound", Code: 404}))
		return
	}
	name, sub := "", ""
	if len(parts) > 1 {
		name = parts[1]
	}
	if len(parts) > 2 {
		sub = parts[2]
	}
	obj, err := h.serveResource(r, res, ns, name, sub)
	if err != nil {
		writeStatus(w, err)
		return
	}
	obj = inVersion(res, version, obj)
	if t, ok := obj.(plainText); ok {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(200)
		io.WriteString(w, string(t))
		return
	}
	code := 200
	if r.Method == "POST" {
		code = 201
	}
	writeJSON(w, code, obj)
}

func (h *Handler) serveResource(r *Request, res *Resource, ns, name, sub string) (any, error) {
	s := h.Server
	prev := s.Actor
	if h.Actor != "" {
		s.Actor = h.Actor
	}
	defer func() { s.Actor = prev }()
	q := r.Query()
	dryRun := q.Get("dryRun") == "All"
	body := r.Body
	if len(body) > MaxRequestBodyBytes {
		return nil, apierrors.NewRequestEntityTooLarge(fmt.Sprintf("limit is %d", MaxRequestBodyBytes))
	}
	if ct := r.Header.Get("Content-Type"); strings.Contains(ct, "protobuf") && len(body) > 0 {
		// kubectl's typed clients send protobuf; the server reads it as the
		// JSON it stands for.
		if h.Protobuf == nil {
			return nil, apierrors.NewUnsupportedMediaType(ct, "application/json", "application/yaml")
		}
		j, err := h.Protobuf(body)
		if errors.Is(err, errors.ErrUnsupported) {
			return nil, apierrors.NewUnsupportedMediaType(ct, "application/json", "application/yaml")
		}
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		body = j
	}
	if sub == "log" && res.Kind == "Pod" && r.Method == "GET" {
		if s.Pods == nil {
			return nil, apierrors.NewServiceUnavailable("logs are not available")
		}
		opts := LogOptions{Namespace: ns, Pod: name, Container: q.Get("container"), Previous: q.Get("previous") == "true",
			Timestamps: q.Get("timestamps") == "true", TailLines: -1}
		if v, err := strconv.ParseInt(q.Get("tailLines"), 10, 64); err == nil {
			opts.TailLines = v
		}
		if v, err := strconv.ParseInt(q.Get("sinceSeconds"), 10, 64); err == nil {
			opts.SinceSeconds = v
		}
		if v, err := strconv.ParseInt(q.Get("limitBytes"), 10, 64); err == nil {
			opts.LimitBytes = v
		}
		text, err := s.Pods.PodLogs(opts)
		if err != nil {
			return nil, err
		}
		return plainText(text), nil
	}
	if sub == "eviction" && res.Kind == "Pod" && r.Method == "POST" {
		var ev api.Eviction
		if err := json.Unmarshal(body, &ev); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if err := s.Evict(ns, name, &ev); err != nil {
			return nil, err
		}
		return api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Success", Code: 201}, nil
	}
	if sub == "scale" {
		switch r.Method {
		case "GET":
			return s.GetScale(res, ns, name)
		case "PUT":
			var sc api.Scale
			if err := json.Unmarshal(body, &sc); err != nil {
				return nil, apierrors.NewBadRequest(err.Error())
			}
			return s.UpdateScale(res, ns, name, &sc, dryRun)
		case "PATCH":
			ct := r.Header.Get("Content-Type")
			if i := strings.IndexByte(ct, ';'); i >= 0 {
				ct = ct[:i]
			}
			return s.PatchScale(res, ns, name, ct, body, dryRun)
		}
	}
	switch r.Method {
	case "GET":
		asTable := wantsTable(r.Header.Get("Accept"))
		if name != "" {
			obj, err := s.Get(res, ns, name)
			if err != nil || !asTable {
				return obj, err
			}
			return h.table(res, []api.Object{obj}, s.ResourceVersion(), q.Get("includeObject")), nil
		}
		return h.list(res, ns, q.Get("labelSelector"), q.Get("fieldSelector"), asTable, q.Get("includeObject"))
	case "POST":
		obj, err := decodeBody(res, body, q.Get("fieldValidation") == "Strict")
		if err != nil {
			return nil, err
		}
		return s.Create(res, ns, obj, CreateOptions{DryRun: dryRun})
	case "PUT":
		obj, err := decodeBody(res, body, q.Get("fieldValidation") == "Strict")
		if err != nil {
			return nil, err
		}
		return s.Update(res, ns, obj, UpdateOptions{DryRun: dryRun, Subresource: sub})
	case "PATCH":
		ct := r.Header.Get("Content-Type")
		if i := strings.IndexByte(ct, ';'); i >= 0 {
			ct = ct[:i]
		}
		return s.Patch(res, ns, name, ct, body, PatchOptions{DryRun: dryRun, Subresource: sub})
	case "DELETE":
		var opts api.DeleteOptions
		if len(strings.TrimSpace(string(body))) > 0 {
			if err := codec.DecodeInto(body, &opts, codec.DecodeOptions{}); err != nil {
				return nil, apierrors.NewBadRequest(err.Error())
			}
		}
		if p := q.Get("propagationPolicy"); p != "" {
			opts.PropagationPolicy = &p
		}
		r, err := s.Delete(res, ns, name, opts)
		if err != nil {
			return nil, err
		}
		if r.Gone && res.Kind != "Pod" {
			return api.Status{TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: "Success",
				Details: &api.StatusDetails{Name: name, Group: res.Group, Kind: res.Name, UID: r.Object.GetObjectMeta().UID}}, nil
		}
		return r.Object, nil
	}
	return nil, apierrors.NewMethodNotSupported(apierrors.GroupResource{Group: res.Group, Resource: res.Name}, strings.ToLower(r.Method))
}

func (h *Handler) list(res *Resource, ns, labelSel, fieldSel string, asTable bool, includeObject string) (any, error) {
	sel, err := labels.Parse(labelSel)
	if err != nil {
		return nil, apierrors.NewBadRequest("unable to parse requirement: " + err.Error())
	}
	fsel, err := fields.Parse(fieldSel)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	objs, rv := h.Server.List(res, ns, ListOptions{Filter: func(o api.Object) bool {
		return sel.Matches(labels.Set(o.GetObjectMeta().Labels)) && fsel.Matches(FieldSet(o))
	}})
	if asTable {
		return h.table(res, objs, rv, includeObject), nil
	}
	items := make([]any, 0, len(objs))
	for _, o := range objs {
		items = append(items, o)
	}
	return map[string]any{"kind": res.Kind + "List", "apiVersion": res.APIVersion(),
		"metadata": map[string]string{"resourceVersion": rv}, "items": items}, nil
}

// inVersion renders what a request returns in the version its path named:
// HPAs are stored as autoscaling/v2 and read through autoscaling/v1 in
// that version's shape, as an API server converts from its storage version.
func inVersion(res *Resource, version string, obj any) any {
	if res.Group != "autoscaling" || res.Version == version || version != "v1" {
		return obj
	}
	switch o := obj.(type) {
	case *api.HorizontalPodAutoscaler:
		if v1, err := api.ConvertHPAV2ToV1(o); err == nil {
			return v1
		}
	case map[string]any: // a list
		if items, ok := o["items"].([]any); ok {
			for i, it := range items {
				items[i] = inVersion(res, version, it)
			}
			o["apiVersion"] = res.Group + "/" + version
		}
	}
	return obj
}

func decodeBody(res *Resource, body []byte, strict bool) (api.Object, error) {
	obj, err := codec.Decode(body, codec.DecodeOptions{Strict: strict, Default: api.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind}})
	var se *codec.StrictDecodingError
	if errors.As(err, &se) {
		return nil, apierrors.NewBadRequest(res.Kind + " in version \"" + res.Version + "\" cannot be handled as a " + res.Kind + ": " + err.Error())
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return obj, nil
}

func (h *Handler) groupList() map[string]any {
	var groups []any
	for _, g := range h.Server.Registry.Groups() {
		if g == "" {
			continue
		}
		groups = append(groups, h.group(g))
	}
	return map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}
}

func (h *Handler) group(name string) map[string]any {
	seen := map[string]bool{}
	var versions []any
	preferred := ""
	for _, res := range h.Server.Registry.All() {
		if res.Group != name {
			continue
		}
		for _, v := range h.Server.Registry.Versions(res) {
			if !seen[v] {
				seen[v] = true
				versions = append(versions, map[string]string{"groupVersion": name + "/" + v, "version": v})
				if preferred == "" {
					preferred = v
				}
			}
		}
	}
	return map[string]any{"kind": "APIGroup", "apiVersion": "v1", "name": name, "versions": versions,
		"preferredVersion": map[string]string{"groupVersion": name + "/" + preferred, "version": preferred}}
}

func (h *Handler) resourceList(group, version string) map[string]any {
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	var list []any
	for _, res := range h.Server.Registry.All() {
		if res.Group != group || !h.Server.Registry.ServesVersion(res, version) {
			continue
		}
		entry := map[string]any{"name": res.Name, "singularName": res.Singular, "namespaced": res.Namespaced,
			"kind": res.Kind, "verbs": res.Verbs}
		if len(res.ShortNames) > 0 {
			entry["shortNames"] = res.ShortNames
		}
		if len(res.Categories) > 0 {
			entry["categories"] = res.Categories
		}
		list = append(list, entry)
		if res.Status {
			list = append(list, map[string]any{"name": res.Name + "/status", "singularName": "", "namespaced": res.Namespaced,
				"kind": res.Kind, "verbs": []string{"get", "patch", "update"}})
		}
		if res.Scale {
			list = append(list, map[string]any{"name": res.Name + "/scale", "singularName": "", "namespaced": res.Namespaced,
				"group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": []string{"get", "patch", "update"}})
		}
		if res.Group == "" && res.Name == "pods" {
			list = append(list,
				map[string]any{"name": "pods/binding", "singularName": "", "namespaced": true, "kind": "Binding", "verbs": []string{"create"}},
				map[string]any{"name": "pods/eviction", "singularName": "", "namespaced": true, "group": "policy", "version": "v1", "kind": "Eviction", "verbs": []string{"create"}},
				map[string]any{"name": "pods/log", "singularName": "", "namespaced": true, "kind": "Pod", "verbs": []string{"get"}})
		}
	}
	return map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list}
}

func writeJSON(w ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeStatus(w, apierrors.NewInternalError(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}

func writeStatus(w ResponseWriter, err error) {
	var st interface{ Status() api.Status }
	s := api.Status{Status: "Failure", Message: err.Error(), Code: 500, Reason: "InternalError"}
	if errors.As(err, &st) {
		s = st.Status()
	}
	s.TypeMeta = api.TypeMeta{Kind: "Status", APIVersion: "v1"}
	b, _ := json.Marshal(s)
	w.Header().Set("Content-Type", "application/json")
	code := int(s.Code)
	if code == 0 {
		code = 500
	}
	w.WriteHeader(code)
	w.Write(b)
}

// wantsPretty is the API server's rule: indented JSON for ?pretty=true and
// for curl and wget, whose users read it.
func wantsPretty(r *Request) bool {
	if p := r.Query().Get("pretty"); p != "" {
		return p == "true" || p == "1"
	}
	ua := r.UserAgent()
	return strings.HasPrefix(ua, "curl") || strings.HasPrefix(ua, "Wget")
}

// prettyWriter indents the JSON bodies written through it.
type prettyWriter struct{ ResponseWriter }

func (p prettyWriter) Write(b []byte) (int, error) {
	if strings.HasPrefix(p.Header().Get("Content-Type"), "application/json") {
		var buf bytes.Buffer
		if json.Indent(&buf, b, "", "  ") == nil {
			buf.WriteByte('\n')
			if _, err := p.ResponseWriter.Write(buf.Bytes()); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	return p.ResponseWriter.Write(b)
}
