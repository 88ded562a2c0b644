package apiserver

import (
	"fmt"
	"hash/fnv"
	"strings"

	"kubeplay/core/api/openapi"
)

// The OpenAPI v3 documents kubectl reads. They describe each group
// version's paths and the query parameters of their operations, which is
// what kubectl asks of them before it sends fieldValidation=Strict, and the
// schemas of its kinds (core/api/openapi), which kubectl explain prints and
// kubectl apply reads patch strategies from.

// openAPIRoot is /openapi/v3: one entry per served group version.
func (h *Handler) openAPIRoot() map[string]any {
	paths := map[string]any{}
	for _, gv := range h.Server.Registry.GroupVersions() {
		key := "api/" + gv
		if strings.Contains(gv, "/") {
			key = "apis/" + gv
		}
		paths[key] = map[string]any{"serverRelativeURL": "/openapi/v3/" + key + "?hash=" + docHash(key)}
	}
	return map[string]any{"paths": paths}
}

func docHash(s string) string {
	h := fnv.New64a()
	h.Write([]byte("kubeplay/" + s))
	fmt.Fprint(h, openapi.Fingerprint())
	return fmt.Sprintf("%016X%016X", h.Sum64(), h.Sum64()^0x9e3779b97f4a7c15)
}

// openAPIDoc is /openapi/v3/api/v1 or /openapi/v3/apis/GROUP/VERSION.
func (h *Handler) openAPIDoc(group, version string) (map[string]any, bool) {
	return OpenAPIDocument(h.Server.Registry, group, version)
}

// OpenAPIDocument builds a group version's OpenAPI v3 document; false when
// no resource is served in it.
func OpenAPIDocument(reg *Registry, group, version string) (map[string]any, bool) {
	prefix := "/api/" + version
	if group != "" {
		prefix = "/apis/" + group + "/" + version
	}
	paths := map[string]any{}
	found := false
	var kinds []openapi.GVK
	for _, res := range reg.All() {
		if res.Group != group || !reg.ServesVersion(res, version) {
			continue
		}
		found = true
		kinds = append(kinds, openapi.GVK{Group: group, Version: version, Kind: res.Kind})
		gvk := map[string]string{"group": group, "version": version, "kind": res.Kind}
		base := prefix + "/" + res.Name
		if res.Namespaced {
			base = prefix + "/namespaces/{namespace}/" + res.Name
		}
		write := []any{
			param("dryRun"), param("fieldManager"), param("fieldValidation"),
		}
		op := func(action string, params ...any) map[string]any {
			return map[string]any{"x-kubernetes-action": action, "x-kubernetes-group-version-kind": gvk,
				"parameters": params, "responses": map[string]any{"200": map[string]any{"description": "OK"}}}
		}
		paths[base] = map[string]any{
			"get":  op("list", param("labelSelector"), param("fieldSelector"), param("watch"), param("resourceVersion")),
			"post": op("post", write...),
		}
		paths[base+"/{name}"] = map[string]any{
			"get":    op("get"),
			"put":    op("put", write...),
			"patch":  op("patch", append(write, param("force"))...),
			"delete": op("delete", param("dryRun"), param("gracePeriodSeconds"), param("propagationPolicy")),
		}
	}
	if !found {
		return nil, false
	}
	schemas := map[string]any{}
	if s, err := openapi.Load(); err == nil {
		schemas = s.Components(kinds)
	}
	return map[string]any{"openapi": "3.0.0", "info": map[string]string{"title": "Kubernetes", "version": Version["gitVersion"]},
		"paths": paths, "components": map[string]any{"schemas": schemas}}, true
}

func param(name string) map[string]any {
	return map[string]any{"name": name, "in": "query", "schema": map[string]any{"type": "string", "uniqueItems": true}}
}
