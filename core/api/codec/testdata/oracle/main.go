// Command oracle answers with upstream's YAML code, for oracle_test.go.
// It lives under testdata so that the kubeplay module neither builds it nor
// depends on sigs.k8s.io/yaml. To build it:
//
//	mkdir /tmp/oracle && cp main.go /tmp/oracle/ && cd /tmp/oracle
//	go mod init oracle && GOSUMDB=off go get sigs.k8s.io/yaml@v1.4.0 && go build -o oracle .
//
// Then: KUBEPLAY_YAML_ORACLE=/tmp/oracle/oracle go test -run Oracle ./core/api/codec/
//
// Usage: oracle y2j|y2js|j2y < input, or oracle batch: frames of
// [u32 length][mode byte][data] in, [u32 length][result] out, where mode is
// 'y' (YAMLToJSON), 's' (YAMLToJSONStrict) or 'j' (JSONToYAML) and the
// result is the output or "ERR " and the error.
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/yaml"
)

func run(mode byte, in []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = []byte(fmt.Sprintf("PANIC %v", r))
		}
	}()
	var err error
	switch mode {
	case 'y':
		out, err = yaml.YAMLToJSON(in)
	case 's':
		out, err = yaml.YAMLToJSONStrict(in)
	case 'j':
		out, err = yaml.JSONToYAML(in)
	}
	if err != nil {
		return []byte("ERR " + err.Error())
	}
	return out
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "batch" {
		r := bufio.NewReader(os.Stdin)
		w := bufio.NewWriter(os.Stdout)
		defer w.Flush()
		for {
			var n uint32
			if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
				return
			}
			mode, _ := r.ReadByte()
			data := make([]byte, n)
			io.ReadFull(r, data)
			out := run(mode, data)
			binary.Write(w, binary.LittleEndian, uint32(len(out)))
			w.Write(out)
			w.Flush()
		}
	}
	in, _ := io.ReadAll(os.Stdin)
	mode := map[string]byte{"y2j": 'y', "y2js": 's', "j2y": 'j'}[os.Args[len(os.Args)-1]]
	os.Stdout.Write(run(mode, in))
}
