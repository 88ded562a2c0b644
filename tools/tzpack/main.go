// Command tzpack writes the IANA zone data the engine embeds
// (core/api/cron/zones.bin, go generate's work there) from Go's own copy,
// $GOROOT/lib/time/zoneinfo.zip, or the zip file -zip names.
//
//	tzpack [-zip FILE] [-o FILE]
//
// Go's zip holds 598 zones, but many names are links to the same zone
// (Asia/Chongqing and Asia/Shanghai, say) and the zip keeps a copy each,
// with two headers per file: as time/tzdata embeds it, it is 95 KB of the
// page's gzip download. Stored once each, the 436 distinct zones are 56 KB.
//
// The format, all counts and lengths unsigned varints:
//
//	names  count, then each name (length, bytes) and its zone's index,
//	       sorted by name
//	zones  count, then each zone's TZif data (length, bytes)
package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	src := flag.String("zip", "", "the zone files, as Go's lib/time/zoneinfo.zip holds them (default: Go's own)")
	dst := flag.String("o", "core/api/cron/zones.bin", "the file to write")
	flag.Parse()
	if *src == "" {
		root, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			fail(err)
		}
		*src = filepath.Join(strings.TrimSpace(string(root)), "lib", "time", "zoneinfo.zip")
	}
	zones, err := readZip(*src)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*dst, pack(zones), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tzpack:", err)
	os.Exit(1)
}

// readZip returns each zone's TZif data by name.
func readZip(path string) (map[string][]byte, error) {
	r, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	zones := map[string][]byte{}
	for _, f := range r.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.Name, err)
		}
		if !bytes.HasPrefix(data, []byte("TZif")) {
			return nil, fmt.Errorf("%s: not TZif data", f.Name)
		}
		zones[f.Name] = data
	}
	if len(zones) == 0 {
		return nil, fmt.Errorf("%s: no zones", path)
	}
	return zones, nil
}

// pack writes the names sorted, and each distinct zone once, in the order
// its first name comes.
func pack(zones map[string][]byte) []byte {
	names := make([]string, 0, len(zones))
	for n := range zones {
		names = append(names, n)
	}
	sort.Strings(names)
	index := map[string]int{}
	var distinct [][]byte
	var out []byte
	out = binary.AppendUvarint(out, uint64(len(names)))
	for _, n := range names {
		i, ok := index[string(zones[n])]
		if !ok {
			i = len(distinct)
			index[string(zones[n])] = i
			distinct = append(distinct, zones[n])
		}
		out = binary.AppendUvarint(out, uint64(len(n)))
		out = append(out, n...)
		out = binary.AppendUvarint(out, uint64(i))
	}
	out = binary.AppendUvarint(out, uint64(len(distinct)))
	for _, z := range distinct {
		out = binary.AppendUvarint(out, uint64(len(z)))
		out = append(out, z...)
	}
	return out
}
