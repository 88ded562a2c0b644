package jsonpath

import (
	"encoding/json"
	"strings"
	"testing"

	"kubeplay/core/api/codec"
)

const doc = `{"kind":"List","items":[
 {"metadata":{"name":"a","labels":{"app":"web"}},"spec":{"replicas":3,"containers":[{"name":"c1","image":"nginx"},{"name":"c2","image":"busybox"}]},"status":{"phase":"Running"}},
 {"metadata":{"name":"b","labels":{"app":"db"}},"spec":{"replicas":1,"containers":[{"name":"c1","image":"redis"}]},"status":{"phase":"Pending"}}]}`

// decode reads a document as kubectl holds a server's objects: integers
// as int64, other numbers as float64.
func decode(t testing.TB, doc string) any {
	t.Helper()
	u, err := codec.Unstructured(json.RawMessage(doc))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestExecute(t *testing.T) {
	data := decode(t, doc)
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
		{`{.items[?(@.metadata.name>"a")].metadata.name}`, "b"},
		{`{.items[?(@.spec.replicas==1)].metadata.name}`, "b"},
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
	data := decode(f, doc)
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

// What kubectl v1.32 printed for these templates over a kubeconfig of the
// same shape (kubectl.1.32 config view -o jsonpath=..., with and without
// --allow-missing-template-keys=false). Upstream walks an object's keys in
// Go's random map order; here they go in key order.
const kubeconfig = `{"apiVersion":"v1","kind":"Config","current-context":"cx",
 "clusters":[{"cluster":{"server":"https://a"},"name":"c1"}],
 "contexts":[{"context":{"cluster":"c1","namespace":"ns1","user":"u"},"name":"cx"},
  {"context":{"cluster":"c1","user":"u"},"name":"cy"},
  {"context":{"cluster":"c1","namespace":"ns3","user":"u"},"name":"cz"}],
 "users":[{"name":"u","user":{"token":"t"}}]}`

func TestLikeKubectl(t *testing.T) {
	data := decode(t, kubeconfig)
	for _, tc := range []struct {
		tmpl          string
		loose, strict string // output, or "error: " and the message
	}{
		{"{.contexts[*].context.namespace}", "ns1 ns3", "ns1 ns3"},
		{"{..namespace}", "ns1 ns3", "ns1 ns3"},
		{"{..contexts..name}", "cx cy cz", "cx cy cz"},
		{"{.contexts[*].context.nope}", "", "error: nope is not found"},
		{"{.contexts[*]['name','nope']}", "cx cy cz", "error: nope is not found"},
		{`{.contexts[?(@.context.namespace=="ns3")].name}`, "cz", "error: namespace is not found"},
		{`{.contexts[?(@.name>"cx")].name}`, "cy cz", "cy cz"},
		{"{.contexts[?(@.context.namespace)].name}", "cx cz", "cx cz"},
		{"{.contexts[5].name}", "error: array index out of bounds: index 5, length 3", ""},
		{"{.contexts[3].name}", "error: array index out of bounds: index 3, length 3", ""},
		{"{.contexts[-9].name}", "error: array index out of bounds: index -6, length 3", ""},
		{"{.contexts[-1].name}", "cz", ""},
		{"{.contexts[0,2].name}", "cx cz", ""},
		{"{.contexts[0:3:2].name}", "cx cz", ""},
		{"{.contexts[1:].name}", "cy cz", ""},
		{"{.contexts[:2].name}", "cx cy", ""},
		{"{.contexts[-2:].name}", "cy cz", ""},
		{"{.contexts[3:3].name}", "", ""},
		{"{.contexts[2:1].name}", "error: starting index 2 is greater than ending index 1", ""},
		{"{.contexts[0:5].name}", "error: array index out of bounds: index 4, length 3", ""},
		{"{.contexts[0:3:0].name}", "error: step must be > 0", ""},
		{"{.contexts[0].context.namespace[0]}", "error: string is not array or slice", ""},
		{"{.contexts[*].context[*]}", "error: map[string]interface {} is not array or slice", ""},
		{"{.contexts[*].name.*}", "99 120 99 121 99 122", ""},
		{"{.contexts[0].context.*}", "c1 ns1 u", ""},
		{"{.contexts[0]..}", `{"context":{"cluster":"c1","namespace":"ns1","user":"u"},"name":"cx"} {"cluster":"c1","namespace":"ns1","user":"u"} c1 ns1 u cx`, ""},
		{"{.current-context}", "cx", ""},
		{"{..*}", "parse error: unrecognized character in action: U+002A '*'", ""},
		{"{..[*]}", "error: map[string]interface {} is not array or slice", ""},
		{"{..name[0]}", "error: string is not array or slice", ""},
		{"{current-context}", "error: unrecognized identifier current-context", ""},
		{"{.current-context!x}", "", ""},
		{`{.cur\rent-context}`, "cx", ""},
		{"{.current-context.}", "", "error:  is not found"},
		{"{.}", "", "error:  is not found"},
		{"{...}", "", ""},
		{"{.contexts[0]...name}", "cx", ""},
		{"{.[0]}", "", ""},
		{"{ .current-context }", "cx", ""},
		{`{.contexts[0]["name"]}`, `parse error: invalid array index "name"`, ""},
		{"{.contexts[0]['name']}", "cx", ""},
		{"{.contexts[0].name,.current-context}", "parse error: unrecognized character in action: U+002C ','", ""},
		{`{true}{"a"}{1}{2.5}`, "truea12.5", ""},
		{"{@.current-context}", "cx", ""},
	} {
		for _, strict := range []bool{false, true} {
			want := tc.loose
			if strict {
				if tc.strict == "" {
					continue
				}
				want = tc.strict
			}
			var got string
			tp, err := Parse(tc.tmpl)
			if err != nil {
				got = "parse error: " + err.Error()
			} else {
				tp.AllowMissingKeys = !strict
				got, err = tp.Execute(data)
				if err != nil {
					got = "error: " + err.Error()
				}
			}
			if got != want {
				t.Errorf("%s (missing keys allowed: %v) = %q, want %q", tc.tmpl, !strict, got, want)
			}
		}
	}
}

// kubectl refuses a recursive descent right after another, and a few
// descents in a row (or ranges over them) stop at a bound instead of
// filling memory.
func TestRecursiveDescentIsBounded(t *testing.T) {
	for _, tmpl := range []string{"{....}", "{........name}"} {
		if _, err := Parse(tmpl); err == nil || err.Error() != "invalid multiple recursive descent" {
			t.Errorf("Parse(%q): %v", tmpl, err)
		}
	}
	// A list 100 deep: each descent multiplies the values by about the
	// depth left below them.
	deep := strings.Repeat(`{"s":"s","a":`, 100) + "1" + strings.Repeat("}", 100)
	tp, err := Parse("{" + strings.Repeat("..a", 6) + "}")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tp.Execute(decode(t, deep)); err != errTooManyValues {
		t.Errorf("six descents: %v", err)
	}
	tp, err = Parse(strings.Repeat("{range ..a}", 4) + "x" + strings.Repeat("{end}", 4))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tp.Execute(decode(t, deep)); err != errTooManyValues {
		t.Errorf("four nested ranges over descents: %v", err)
	}
}
