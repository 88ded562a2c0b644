package validation

import (
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

func TestObjectMetaCreate(t *testing.T) {
	runCreate(t, []createCase{
		{"valid", pod(), ""},
		{"name required", pod(func(p *api.Pod) { p.Name = "" }),
			"metadata.name: Required value: name or generateName is required"},
		{"name not a subdomain", pod(func(p *api.Pod) { p.Name = "My_Pod" }),
			`metadata.name: Invalid value: "My_Pod": ` + subdomainMsg},
		{"name too long", pod(func(p *api.Pod) { p.Name = strings.Repeat("a", 254) }),
			`metadata.name: Invalid value: "` + strings.Repeat("a", 254) + `": must be no more than 253 characters`},
		{"bad generateName", pod(func(p *api.Pod) { p.Name, p.GenerateName = "x", "Web-" }),
			`metadata.generateName: Invalid value: "Web-": ` + subdomainMsg},
		{"label value too long", pod(func(p *api.Pod) { p.Labels = map[string]string{"app": strings.Repeat("x", 64)} }),
			`metadata.labels: Invalid value: "` + strings.Repeat("x", 64) + `": must be no more than 63 characters`},
		{"label value with space", pod(func(p *api.Pod) { p.Labels = map[string]string{"app": "my app"} }),
			`metadata.labels: Invalid value: "my app": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"label key bad prefix", pod(func(p *api.Pod) { p.Labels = map[string]string{"Example.com/app": "x"} }),
			`metadata.labels: Invalid value: "Example.com/app": prefix part ` + subdomainMsg},
		{"label key name part", pod(func(p *api.Pod) { p.Labels = map[string]string{"-app": "x"} }),
			`metadata.labels: Invalid value: "-app": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{"label key too long", pod(func(p *api.Pod) { p.Labels = map[string]string{strings.Repeat("k", 64): "x"} }),
			`metadata.labels: Invalid value: "` + strings.Repeat("k", 64) + `": name part must be no more than 63 characters`},
		{"annotation key", pod(func(p *api.Pod) { p.Annotations = map[string]string{"a/b/c": "x"} }),
			`metadata.annotations: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{"annotations too large", pod(func(p *api.Pod) { p.Annotations = map[string]string{"big": strings.Repeat("x", 262144)} }),
			`metadata.annotations: Too long: may not be more than 262144 bytes`},
		{"finalizer not qualified", pod(func(p *api.Pod) { p.Finalizers = []string{"cleanup"} }),
			`metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified`},
	})
}

func TestNamespaceRules(t *testing.T) {
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team.a"}}
	got := render(ValidateObject(ns, false))
	want := `metadata.name: Invalid value: "team.a": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	// IsDNS1123Label says "must not contain dots" when the value is a valid subdomain.
	if got != `metadata.name: Invalid value: "team.a": must not contain dots` {
		t.Errorf("got %s", got)
	}
	ns.Name = "Team"
	if got := render(ValidateObject(ns, false)); got != `metadata.name: Invalid value: "Team": `+strings.TrimPrefix(want, `metadata.name: Invalid value: "team.a": `) {
		t.Errorf("got %s", got)
	}
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "x"}}
	if got := render(ValidateObject(cm, true)); got != "metadata.namespace: Required value" {
		t.Errorf("namespaced without namespace: %s", got)
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1", Namespace: "default"}}
	if got := render(ValidateObject(node, false)); got != "metadata.namespace: Forbidden: not allowed on this type" {
		t.Errorf("cluster-scoped with namespace: %s", got)
	}
}

func TestObjectMetaUpdate(t *testing.T) {
	old := api.ObjectMeta{Name: "a", Namespace: "default", UID: "u1", Generation: 2}
	cases := []struct {
		mut  func(*api.ObjectMeta)
		want string
	}{
		{func(m *api.ObjectMeta) {}, ""},
		{func(m *api.ObjectMeta) { m.Name = "b" }, `metadata.name: Invalid value: "b": field is immutable`},
		{func(m *api.ObjectMeta) { m.Namespace = "prod" }, `metadata.namespace: Invalid value: "prod": field is immutable`},
		{func(m *api.ObjectMeta) { m.UID = "u2" }, `metadata.uid: Invalid value: "u2": field is immutable`},
		{func(m *api.ObjectMeta) { m.Generation = 1 }, `metadata.generation: Invalid value: 1: must not be decremented`},
	}
	for _, c := range cases {
		m := old
		c.mut(&m)
		if got := render(ValidateObjectMetaUpdate(&m, &old, field.NewPath("metadata"))); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestLabelSelectorRules(t *testing.T) {
	s := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
		{Key: "app", Operator: "In"},
		{Key: "tier", Operator: "Exists", Values: []string{"x"}},
		{Key: "env", Operator: "Equals", Values: []string{"a"}},
	}}
	got := render(ValidateLabelSelector(s, field.NewPath("spec", "selector")))
	want := "[spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', " +
		"spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist', " +
		`spec.selector.matchExpressions[2].operator: Invalid value: "Equals": not a valid selector operator]`
	if got != want {
		t.Errorf("\ngot  %s\nwant %s", got, want)
	}
}
