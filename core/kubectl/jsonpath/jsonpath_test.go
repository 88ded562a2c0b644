package jsonpath

import (
	"encoding/json"
	"testing"
)

const doc = `{"kind":"List","items":[
 {"metadata":{"name":"a","labels":{"app":"web"}},"spec":{"replicas":3,"containers":[{"name":"c1","image":"nginx"},{"name":"c2","image":"busybox"}]},"status":{"phase":"Running"}},
 {"metadata":{"name":"b","labels":{"app":"db"}},"spec":{"replicas":1,"containers":[{"name":"c1","image":"redis"}]},"status":{"phase":"Pending"}}]}`

func TestExecute(t *testing.T) {
	var data any
	if err := json.Unmarshal([]byte(doc), &data); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tmpl, want string }{
		{"{.kind}", "List"},
		{"{.items[*].metadata.name}", "a b"},
		{"{.items[0].spec.containers[*].image}", "nginx busybox"},
		{"{.items[-1].metadata.name}", "b"},
		{"{.items[0:1].metadata.name}", "a"},
		{"{.items[0].metadata.labels}", `{"app":"web"}`},
		{"{.items[0].metadata.labels.app}", "web"},
		{"{.items[0].metadata.labels['app']}", "web"},
		{`{.items[?(@.status.phase=="Pending")].metadata.name}`, "b"},
		{`{.items[?(@.spec.replicas>1)].metadata.name}`, "a"},
		{`{range .items[*]}{.metadata.name}:{.spec.replicas}{"\n"}{end}`, "a:3\nb:1\n"},
		{"{..image}", "nginx busybox redis"},
		{"name={.items[1].metadata.name}!", "name=b!"},
		{"{.items[*].nothere}", ""},
		{"plain text", "plain text"},
		{`{.items[0]['metadata','status'].name}`, "a"},
	} {
		tp, err := Parse(tc.tmpl)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.tmpl, err)
			continue
		}
		tp.AllowMissingKeys = true
		got, err := tp.Execute(data)
		if err != nil || got != tc.want {
			t.Errorf("%s = %q, %v; want %q", tc.tmpl, got, err, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tmpl := range []string{"{.items[", "{range .items[*]}{.x}", "{end}", "{.a[x]}"} {
		if _, err := Parse(tmpl); err == nil {
			t.Errorf("Parse(%q) succeeded", tmpl)
		}
	}
	tp, _ := Parse("{.missing}")
	if _, err := tp.Execute(map[string]any{}); err == nil || err.Error() != "missing is not found" {
		t.Errorf("strict missing key: %v", err)
	}
}

func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{"{.items[*].metadata.name}", `{range .items[*]}{.a}{"\n"}{end}`, "{..x}", `{.a[?(@.b=="c")]}`, "{.a[1:3:2]}", "{['a','b']}", "{"} {
		f.Add(s)
	}
	var data any
	_ = json.Unmarshal([]byte(doc), &data)
	f.Fuzz(func(t *testing.T, tmpl string) {
		tp, err := Parse(tmpl)
		if err != nil {
			return
		}
		tp.AllowMissingKeys = true
		_, _ = tp.Execute(data)
		tp.AllowMissingKeys = false
		_, _ = tp.Execute(data)
	})
}
