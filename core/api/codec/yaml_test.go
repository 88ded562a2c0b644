package codec

import (
	"bufio"
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// YAML 1.1 as Kubernetes reads it (sigs.k8s.io/yaml over yaml.v2). Each
// expectation was checked against sigs.k8s.io/yaml v1.4.0.
func TestYAMLToJSONScalars(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a: yes", `{"a":true}`},
		{"a: No", `{"a":false}`},
		{"a: on", `{"a":true}`},
		{"a: OFF", `{"a":false}`},
		{"a: y", `{"a":true}`},
		{"a: n", `{"a":false}`},
		{"a: 'yes'", `{"a":"yes"}`},
		{`a: "on"`, `{"a":"on"}`},
		{"a: 080", `{"a":80}`},
		{"a: 077", `{"a":63}`},
		{"a: 0x1F", `{"a":31}`},
		{"a: 0o17", `{"a":15}`},
		{"a: 0b101", `{"a":5}`},
		{"a: 1_000", `{"a":1000}`},
		{"a: 1e3", `{"a":1000}`},
		{"a: 1.0", `{"a":1}`},
		{"a: .5", `{"a":0.5}`},
		{"a: -0", `{"a":0}`},
		{"a: -0.0", `{"a":-0}`},
		{"a: 1e-7", `{"a":1e-7}`},
		{"a: 1e400", `{"a":"1e400"}`},
		{"a: 12345678901234567890", `{"a":12345678901234567890}`},
		{"a: 123456789012345678901234", `{"a":1.2345678901234569e+23}`},
		{"a: 2001-12-14", `{"a":"2001-12-14"}`},
		{"a: 1:20", `{"a":"1:20"}`},
		{"a: ~", `{"a":null}`},
		{"a:", `{"a":null}`},
		{"a: Null", `{"a":null}`},
		{"a: !!str 123", `{"a":"123"}`},
		{`a: !!int "42"`, `{"a":42}`},
		{"a: !!float 7", `{"a":7}`},
		{"a: !!binary aGVsbG8=", `{"a":"hello"}`},
		{"a: <b&c>", `{"a":"\u003cb\u0026c\u003e"}`},
		{"1: x", `{"1":"x"}`},
		{"true: x", `{"true":"x"}`},
		{"on: x", `{"true":"x"}`},
		{"1.5: x", `{"1.5":"x"}`},
		{"a: 1\na: 2", `{"a":2}`},
		{"b: 1\na: 2", `{"a":2,"b":1}`},
		{"a: &x [1, 2]\nb: *x", `{"a":[1,2],"b":[1,2]}`},
		{"base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3", `{"base":{"p":1,"q":2},"m":{"p":1,"q":3}}`},
		{"x: 1\ny: 2", `{"true":2,"x":1}`},
		{"a: |\n  l1\n  l2\n", `{"a":"l1\nl2\n"}`},
		{"a: >-\n  f1\n  f2\n", `{"a":"f1 f2"}`},
		{"a: plain\n  continued", `{"a":"plain continued"}`},
		{"", `null`},
		{"# only a comment\n", `null`},
		{"hello", `"hello"`},
		{"- a\n- b", `["a","b"]`},
		{"a: 1\n---\nb: 2", `{"a":1}`},
		{"  a: 1\nb: 2", `{"a":1}`},
	}
	for _, tt := range tests {
		got, err := YAMLToJSON([]byte(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("YAMLToJSON(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

// The messages kubectl prints after "error converting YAML to JSON: ", and
// where the playground's editor marks them. yaml.v2 prints the line of a
// scanner error 1-based but of a parser error 0-based (the line above).
func TestYAMLSyntaxErrors(t *testing.T) {
	tests := []struct {
		in        string
		want      string
		line, col int
	}{
		// The seed's manifest, as kubectl v1.32 printed it (errors.session).
		{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\n   labels: {a: b}\nspec: [\n",
			"yaml: line 5: mapping values are not allowed in this context", 5, 10},
		{"a:\n  b: 1\n c: 2\n", "yaml: line 2: did not find expected key", 3, 2},
		{"a:\n\tb: 1\n", "yaml: line 2: found character that cannot start any token", 2, 1},
		{"a: 1\nb\nc: 2\n", "yaml: line 3: could not find expected ':'", 3, 1},
		{"a: 1\n- b\n", "yaml: line 1: did not find expected key", 2, 1},
		{"containers:\n- name: x\n  image: y\n - name: z\n", "yaml: line 3: did not find expected key", 4, 2},
		{"a:\n- b\n  c: 1\n", "yaml: line 3: mapping values are not allowed in this context", 3, 4},
		{"a: \"abc\nb: 1\n", "yaml: line 3: found unexpected end of stream", 3, 1},
		{"a: [1, 2\nb: 1\n", "yaml: line 1: did not find expected ',' or ']'", 2, 2},
		{"a: b: c\n", "yaml: mapping values are not allowed in this context", 1, 5},
		{"a: @x\n", "yaml: found character that cannot start any token", 1, 4},
		{"a: 1\nb:\n  c: 1\n\td: 2\n", "yaml: line 4: found a tab character that violates indentation", 4, 1},
		{"a: *nope\n", "yaml: unknown anchor 'nope' referenced", 1, 4},
		{"a: b\x01\n", "yaml: control characters are not allowed", 1, 5},
		{"~: z\n", `unsupported map key of type: %!s(<nil>), key: <nil>, value: "z"`, 1, 1},
		{"a: .inf\n", "json: unsupported value: +Inf", 1, 4},
	}
	for _, tt := range tests {
		_, err := YAMLToJSON([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("YAMLToJSON(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Error() != tt.want || se.Line != tt.line || se.Column != tt.col {
			t.Errorf("YAMLToJSON(%q) = %q at %d:%d; want %q at %d:%d", tt.in, se.Error(), se.Line, se.Column, tt.want, tt.line, tt.col)
		}
	}
}

func TestYAMLToJSONStrictDuplicates(t *testing.T) {
	_, err := YAMLToJSONStrict([]byte("a: 1\nb:\n  c: 2\n  c: 3\n"))
	want := "yaml: unmarshal errors:\n  line 4: key \"c\" already set in map"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if got, _ := YAMLToJSON([]byte("a: 1\nb:\n  c: 2\n  c: 3\n")); string(got) != `{"a":1,"b":{"c":3}}` {
		t.Errorf("non-strict = %s, want the last value to win", got)
	}
}

// goldenCases reads testdata/*.golden: blank-line separated blocks of
// `name: "quoted"` lines.
func goldenCases(t *testing.T, file string) []map[string]string {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []map[string]string
	cur := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if line == "" {
			if len(cur) > 0 {
				cases = append(cases, cur)
				cur = map[string]string{}
			}
			continue
		}
		name, q, _ := strings.Cut(line, ": ")
		v, err := strconv.Unquote(q)
		if err != nil {
			t.Fatalf("%s: bad line %q", file, line)
		}
		cur[name] = v
	}
	if len(cur) > 0 {
		cases = append(cases, cur)
	}
	return cases
}

// Every seed manifest and a spread of broken variants (one or two for each
// distinct error) with what sigs.k8s.io/yaml v1.4.0 answered
// (TestWriteOracleGolden wrote them).
func TestYAMLToJSONGolden(t *testing.T) {
	cases := goldenCases(t, "testdata/yaml2json.golden")
	if len(cases) < 100 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	for _, c := range cases {
		for _, mode := range []string{"y", "s"} {
			if got := ours(mode[0], []byte(c["in"])); got != c[mode] {
				t.Errorf("mode %s input %q\n want %q\n got  %q", mode, c["in"], c[mode], got)
			}
		}
	}
}

func TestJSONToYAMLGolden(t *testing.T) {
	cases := goldenCases(t, "testdata/json2yaml.golden")
	if len(cases) < 100 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	for _, c := range cases {
		if got := ours('j', []byte(c["in"])); got != c["out"] {
			t.Errorf("input %s\n want %q\n got  %q", c["in"], c["out"], got)
		}
	}
}

// The hand-written matchers agree with the regular expressions they replace.
func TestFloatSyntax(t *testing.T) {
	yamlFloat := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60 := regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
	const alphabet = "0159+-._:eE x"
	var s []byte
	var gen func(n int)
	gen = func(n int) {
		str := string(s)
		if got, want := isYAMLStyleFloat(str), yamlFloat.MatchString(str); got != want {
			t.Errorf("isYAMLStyleFloat(%q) = %v", str, got)
		}
		if got, want := isBase60Float(str), str != "" && base60.MatchString(str); got != want {
			t.Errorf("isBase60Float(%q) = %v", str, got)
		}
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			s = append(s, alphabet[i])
			gen(n - 1)
			s = s[:len(s)-1]
		}
	}
	gen(5)
}
