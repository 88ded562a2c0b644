package gotemplate

import (
	"strings"
	"testing"
)

// pod is what kubectl hands a template: a decoded object.
var pod = map[string]any{
	"metadata": map[string]any{"name": "web", "labels": map[string]any{"tier": "front", "app": "web"}},
	"spec": map[string]any{
		"replicas":   int64(3),
		"containers": []any{map[string]any{"name": "nginx", "image": "nginx:1.27"}},
		"nodeName":   nil,
	},
	"data": map[string]any{"password": "czNjcmV0"},
}

func TestTemplates(t *testing.T) {
	for _, tc := range []struct {
		text, want      string
		missingKeyError bool
	}{
		{text: `{{.metadata.name}} {{.spec.replicas}}`, want: `web 3`},
		{text: `{{.metadata.labels}}`, want: `map[app:web tier:front]`},
		{text: `{{range $k, $v := .metadata.labels}}{{$k}}={{$v}},{{end}}`, want: `app=web,tier=front,`},
		{text: `{{range $i, $c := .spec.containers}}{{$i}}:{{$c.image}}{{end}}`, want: `0:nginx:1.27`},
		{text: `{{range .spec.none}}x{{else}}empty{{end}}`, want: `empty`},
		{text: `{{.spec.missing}}|{{.spec.nodeName}}`, want: `<no value>|<no value>`},
		{text: `{{if eq .spec.replicas 1 3}}one or three{{end}}`, want: `one or three`},
		{text: `{{if gt .spec.replicas 2}}big{{else if gt .spec.replicas 0}}small{{end}}`, want: `big`},
		{text: `{{with .spec.containers}}{{len .}}{{end}}`, want: `1`},
		{text: `{{(index .spec.containers 0).name}} {{index .metadata.labels "app"}}`, want: `nginx web`},
		{text: `{{printf "%s has %d" .metadata.name .spec.replicas}}`, want: `web has 3`},
		{text: `{{.data.password | base64decode}}`, want: `s3cret`},
		{text: `{{exists . "spec" "containers" 0 "image"}} {{exists . "spec" "nodeName"}}`, want: `true false`},
		{text: `{{- /* trimmed */ -}}  {{ "a" -}}  {{- "b" }}`, want: `ab`},
		{text: `{{define "n"}}<{{.}}>{{end}}{{template "n" .metadata.name}}`, want: `<web>`},
		{text: `{{html "<a>"}} {{js "it's"}} {{urlquery "a b"}}`, want: `&lt;a&gt; it\'s a+b`},
		{text: `{{.spec.nodeName.host}}`, want: `template: output:1:7: executing "output" at <.spec.nodeName.host>: nil pointer evaluating interface {}.host`},
		{text: `{{.spec.replicas.x}}`, want: `template: output:1:7: executing "output" at <.spec.replicas.x>: can't evaluate field x in type interface {}`},
		{text: `{{.spec.nope}}`, missingKeyError: true, want: `template: output:1:7: executing "output" at <.spec.nope>: map has no entry for key "nope"`},
		{text: `{{lt .spec.replicas "3"}}`, want: `template: output:1:2: executing "output" at <lt .spec.replicas "3">: error calling lt: incompatible types for comparison: int64 and string`},
		{text: `{{nosuch .}}`, want: `template: output:1: function "nosuch" not defined`},
	} {
		got, err := ours(tc.text, pod, tc.missingKeyError)
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.text, got, tc.want)
		}
	}
}

// TestNoPanics: whatever the template, the executor returns.
func TestNoPanics(t *testing.T) {
	for _, text := range []string{`{{index . 1 2 3}}`, `{{slice .spec.containers 0 5}}`, `{{call .spec}}`, `{{len nil}}`, `{{range 3}}{{.}}{{end}}`, `{{0x1p4 | print}}`} {
		if _, err := ours(text, pod, false); err != nil && !strings.HasPrefix(err.Error(), "template: ") {
			t.Errorf("%s: %v", text, err)
		}
	}
}
