package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded zones are this Go's: after a Go update, go generate
// ./core/api/cron writes them again.
func TestZonesAreCurrent(t *testing.T) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go is not on PATH")
	}
	zones, err := readZip(filepath.Join(strings.TrimSpace(string(root)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Skip(err)
	}
	have, err := os.ReadFile("../../core/api/cron/zones.bin")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pack(zones), have) {
		t.Fatal("core/api/cron/zones.bin is not what this Go's zoneinfo.zip gives: run go generate ./core/api/cron")
	}
}

// Each distinct zone is stored once, whatever names link to it.
func TestPackStoresEachZoneOnce(t *testing.T) {
	got := pack(map[string][]byte{"B/Two": []byte("TZif2"), "A/One": []byte("TZif1"), "C/Link": []byte("TZif1")})
	want := []byte("\x03\x05A/One\x00\x05B/Two\x01\x06C/Link\x00\x02\x05TZif1\x05TZif2")
	if !bytes.Equal(got, want) {
		t.Fatalf("pack: %q, want %q", got, want)
	}
}
