package codec

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The differential test compares this package with the real thing:
// sigs.k8s.io/yaml v1.4.0 (the version Kubernetes v1.32 vendors), built from
// testdata/oracle/main.go outside this module (see that file). It runs only
// when KUBEPLAY_YAML_ORACLE names the program, e.g.
//
//	KUBEPLAY_YAML_ORACLE=/tmp/oracle/oracle KUBEPLAY_ORACLE_N=200000 go test -run Oracle ./core/api/codec/
//
// What it found is kept as golden cases under testdata/, which run always.

type oracle struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Reader
}

func startOracle(t *testing.T) *oracle {
	path := os.Getenv("KUBEPLAY_YAML_ORACLE")
	if path == "" {
		t.Skip("KUBEPLAY_YAML_ORACLE not set")
	}
	cmd := exec.Command(path, "batch")
	w, _ := cmd.StdinPipe()
	r, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	o := &oracle{cmd: cmd, in: bufio.NewWriter(w), out: bufio.NewReader(r)}
	t.Cleanup(func() { w.Close(); cmd.Wait() })
	return o
}

func (o *oracle) ask(mode byte, data []byte) string {
	binary.Write(o.in, binary.LittleEndian, uint32(len(data)))
	o.in.WriteByte(mode)
	o.in.Write(data)
	o.in.Flush()
	var n uint32
	binary.Read(o.out, binary.LittleEndian, &n)
	buf := make([]byte, n)
	io.ReadFull(o.out, buf)
	return string(buf)
}

func ours(mode byte, data []byte) string {
	var out []byte
	var err error
	switch mode {
	case 'y':
		out, err = YAMLToJSON(data)
	case 's':
		out, err = YAMLToJSONStrict(data)
	case 'j':
		out, err = JSONToYAML(data)
	}
	if err != nil {
		return "ERR " + err.Error()
	}
	return string(out)
}

// mutate makes a nearby, often broken, variant of a document.
func mutate(rng *rand.Rand, b []byte) []byte {
	pieces := []string{" ", ":", "-", "#", "'", "\"", "[", "]", "{", "}", ",", "\n", "\t", "&", "*", "!",
		"|", ">", "?", "%", "@", "`", "~", ".", "0", "a", "Z", "\\", "\r", "\r\n", "\x01", "\xff", "\xc2",
		"\u0085", "\u00e9", "\ufeff", "\u2028", "---\n", "...\n", "<<: ", "!!str ", "!!int ", "&a ", "*a",
		": ", "- ", "? ", "|-\n", ">+\n", "  ", "\"\\x41\"", strings.Repeat("x", 600), strings.Repeat("y ", 50)}
	out := append([]byte(nil), b...)
	for n := 1 + rng.Intn(3); n > 0; n-- {
		p := pieces[rng.Intn(len(pieces))]
		if len(out) == 0 {
			out = append(out, p...)
			continue
		}
		i := rng.Intn(len(out))
		switch rng.Intn(6) {
		case 0:
			out = append(out[:i], out[i+1:]...)
		case 1, 2:
			out = append(out[:i], append([]byte(p), out[i:]...)...)
		case 3:
			out = append(out[:i], append([]byte(p), out[i+1:]...)...)
		case 4: // indent or dedent a line
			j := bytes.LastIndexByte(out[:i], '\n') + 1
			if rng.Intn(2) == 0 {
				out = append(out[:j], append([]byte(" "), out[j:]...)...)
			} else if j < len(out) && out[j] == ' ' {
				out = append(out[:j], out[j+1:]...)
			}
		case 5: // duplicate a line
			j := bytes.LastIndexByte(out[:i], '\n') + 1
			k := bytes.IndexByte(out[i:], '\n')
			if k >= 0 {
				line := append([]byte(nil), out[j:i+k+1]...)
				out = append(out[:j], append(line, out[j:]...)...)
			}
		}
	}
	return out
}

// randomJSON builds a value with the strings and keys that stress the emitter.
func randomJSON(rng *rand.Rand, depth int) any {
	strs := []string{"", " ", "a", "true", "yes", "080", "1e3", "0x1F", "1:20", "2001-12-14", "null", "~",
		"- x", "-x", "x: y", "x #y", "@a", "a\"b", "it's", "l1\nl2", "l1\nl2\n", "l1\n\n", "\n", " lead", "trail ",
		"tab\there", "é ☃", "\u0085", "\ufeffbom", "\u2028", "a  b", "x\n y", "x \ny", "---", "...", "*", "&", "!x",
		"%", "|", ">", "[a]", "{a}", "#c", "a,b", "?", ":", "::", "a:b", "<", "<<", strings.Repeat("word ", 30),
		strings.Repeat("w", 90) + " tail", strings.Repeat("ab ", 40) + "\nnext", "1.5", "-1", "+1", ".inf", "1_000", "0b11"}
	keys := []string{"a", "b", "a10", "a9", "a2b", "A", "_x", "1", "10", "2", "01", "001", "é", "a b", "true", "on",
		"x: y", "", strings.Repeat("k", 130), "l1\nl2", "0", "00", "a0", "a00", "a01"}
	if depth > 3 {
		return strs[rng.Intn(len(strs))]
	}
	switch rng.Intn(8) {
	case 0:
		m := map[string]any{}
		for n := rng.Intn(5); n > 0; n-- {
			m[keys[rng.Intn(len(keys))]] = randomJSON(rng, depth+1)
		}
		return m
	case 1:
		var l []any
		for n := rng.Intn(4); n > 0; n-- {
			l = append(l, randomJSON(rng, depth+1))
		}
		if l == nil {
			l = []any{}
		}
		return l
	case 2:
		return rng.Intn(2) == 0
	case 3:
		return []any{nil, 0, -5, 1.5, 1e21, 1e-7, 12345678901234567890.0, 0.1}[rng.Intn(8)]
	}
	return strs[rng.Intn(len(strs))]
}

func TestOracleJSONToYAML(t *testing.T) {
	o := startOracle(t)
	n := 20000
	if s := os.Getenv("KUBEPLAY_ORACLE_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	rng := rand.New(rand.NewSource(2))
	fails := 0
	for i := 0; i < n && fails < 20; i++ {
		v := map[string]any{"root": randomJSON(rng, 0), "k": randomJSON(rng, 1)}
		js, _ := json.Marshal(v)
		if want, got := o.ask('j', js), ours('j', js); want != got {
			fails++
			t.Errorf("JSONToYAML %s\n want %q\n got  %q", js, want, got)
		}
	}
}

func TestOracleDifferential(t *testing.T) {
	o := startOracle(t)
	n := 20000
	if s := os.Getenv("KUBEPLAY_ORACLE_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seeds := seedDocuments(t)
	rng := rand.New(rand.NewSource(1))
	fails, errs := 0, 0
	defer func() { t.Logf("%d documents, %d rejected by both", n, errs) }()
	for i := 0; i < n && fails < 20; i++ {
		doc := mutate(rng, seeds[rng.Intn(len(seeds))])
		if os.Getenv("KUBEPLAY_ORACLE_TRACE") != "" {
			os.WriteFile("/tmp/oracle-last.yaml", doc, 0o644)
		}
		for _, mode := range []byte{'y', 's'} {
			want, got := o.ask(mode, doc), ours(mode, doc)
			if mode == 'y' && len(want) > 3 && want[:4] == "ERR " {
				errs++
			}
			if want != got {
				fails++
				t.Errorf("mode %c input %q\n want %q\n got  %q", mode, doc, want, got)
			}
		}
		if js := ours('y', doc); len(js) > 0 && js[0] != 'E' {
			if want, got := o.ask('j', []byte(js)), ours('j', []byte(js)); want != got {
				fails++
				t.Errorf("JSONToYAML %q\n want %q\n got  %q", js, want, got)
			}
		}
	}
}

// seedDocuments are the manifests the fuzz and differential tests start from.
func seedDocuments(t testing.TB) [][]byte {
	var docs [][]byte
	files, _ := filepath.Glob("testdata/seeds/*.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	if len(docs) == 0 {
		t.Fatal("no seeds in testdata/seeds")
	}
	return docs
}

// TestWriteOracleGolden records what the oracle says about a spread of
// documents (every seed, and mutations covering each distinct error) into
// testdata/*.golden, which TestYAMLToJSONGolden and TestJSONToYAMLGolden
// replay without the oracle. Run with KUBEPLAY_WRITE_GOLDEN=1.
func TestWriteOracleGolden(t *testing.T) {
	if os.Getenv("KUBEPLAY_WRITE_GOLDEN") == "" {
		t.Skip("KUBEPLAY_WRITE_GOLDEN not set")
	}
	o := startOracle(t)
	seeds := seedDocuments(t)
	var yb strings.Builder
	yb.WriteString("# YAMLToJSON (y) and YAMLToJSONStrict (s) as sigs.k8s.io/yaml v1.4.0 gives them.\n")
	add := func(doc []byte) {
		fmt.Fprintf(&yb, "\nin: %s\ny: %s\ns: %s\n", strconv.Quote(string(doc)),
			strconv.Quote(o.ask('y', doc)), strconv.Quote(o.ask('s', doc)))
	}
	for _, d := range seeds {
		add(d)
	}
	// Errors are grouped by their words, not the names or numbers in them.
	digits := regexp.MustCompile(`[0-9]+|'[^']*'|"[^"]*"|\x60[^\x60]*\x60|\{.*\}|value: .*`)
	perClass := map[string]int{}
	ok := 0
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 200000; i++ {
		doc := mutate(rng, seeds[rng.Intn(len(seeds))])
		if len(doc) > 1200 {
			continue
		}
		out := o.ask('y', doc)
		if !strings.HasPrefix(out, "ERR ") {
			if ok < 40 {
				ok++
				add(doc)
			}
			continue
		}
		class := digits.ReplaceAllString(out, "N")
		if perClass[class] < 2 {
			perClass[class]++
			add(doc)
		}
	}
	if err := os.WriteFile("testdata/yaml2json.golden", []byte(yb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var jb strings.Builder
	jb.WriteString("# JSONToYAML as sigs.k8s.io/yaml v1.4.0 gives it.\n")
	rng = rand.New(rand.NewSource(4))
	for i := 0; i < 400; i++ {
		js, _ := json.Marshal(map[string]any{"root": randomJSON(rng, 0), "k": randomJSON(rng, 1)})
		fmt.Fprintf(&jb, "\nin: %s\nout: %s\n", strconv.Quote(string(js)), strconv.Quote(o.ask('j', js)))
	}
	if err := os.WriteFile("testdata/json2yaml.golden", []byte(jb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
