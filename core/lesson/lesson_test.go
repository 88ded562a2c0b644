package lesson

import (
	"strings"
	"testing"
	"testing/fstest"
)

const good = `title: {en: T, zh: 标题}
summary: {en: S, zh: 摘要}
rows: [S2-pod]
steps:
- title: {en: One, zh: 一}
  text: {en: Do it, zh: 做}
  commands: [kubectl get pods]
  checks:
  - text: {en: ok, zh: 好}
    run: kubectl get ns default -o jsonpath={.metadata.name}
    expect: default
`

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"one/lesson.yaml":                  {Data: []byte(good)},
		"one/one.session":                  {Data: []byte("$ kubectl get pods\n")},
		"one/files/home/job.yaml":          {Data: []byte("kind: Job\n")},
		"one/files/example.com/a/pod.yaml": {Data: []byte("kind: Pod\n")},
	}
	l, err := Load(fsys, "one")
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "one" || l.Session == "" || len(l.Steps) != 1 || string(l.Files["home/job.yaml"]) != "kind: Job\n" || l.Files["example.com/a/pod.yaml"] == nil {
		t.Fatalf("loaded %+v", l)
	}
}

func TestLoadRejects(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"unknown field", good + "extra: 1\n", `unknown field "extra"`},
		{"no chinese title", strings.Replace(good, "zh: 标题", "zh: ''", 1), "title needs en and zh"},
		{"check that writes", strings.Replace(good, "run: kubectl get ns", "run: kubectl delete ns", 1), "checks only read"},
		{"check without expectation", strings.Replace(good, "    expect: default\n", "", 1), "needs run and expect or match"},
		{"bad yaml", "title: [", "lesson.yaml"},
	} {
		_, err := Load(fstest.MapFS{"x/lesson.yaml": {Data: []byte(tc.yaml)}}, "x")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestEvaluate(t *testing.T) {
	run := func(string) string { return "Running\n" }
	if r := Evaluate(&Check{Run: "x", Expect: "Running"}, run); !r.OK {
		t.Error("expect")
	}
	if r := Evaluate(&Check{Run: "x", Match: "^Run"}, run); !r.OK {
		t.Error("match")
	}
	if r := Evaluate(&Check{Run: "x", Expect: "Pending"}, run); r.OK {
		t.Error("mismatch passed")
	}
}
