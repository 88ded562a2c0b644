package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// Both files unpack to the input, whichever gzip encoder ran, and a
// second run takes them from the cache.
func TestPrecompressRoundTrips(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.js")
	data := []byte(strings.Repeat("kubectl get pods -o wide\n", 2000))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	for run := 1; run <= 2; run++ {
		if err := precompress(path, cache); err != nil {
			t.Fatal(err)
		}
		gz, err := os.ReadFile(path + ".gz")
		if err != nil {
			t.Fatal(err)
		}
		if got := gunzip(t, gz); !bytes.Equal(got, data) {
			t.Fatalf("run %d: the .gz file unpacks to %d bytes, want the input's %d", run, len(got), len(data))
		}
		br, err := os.ReadFile(path + ".br")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("run %d: the .br file unpacks to %d bytes (%v), want the input's %d", run, len(got), err, len(data))
		}
		if len(gz) > len(data)/20 || len(br) > len(data)/20 {
			t.Fatalf("run %d: %d bytes became %d gzip, %d brotli", run, len(data), len(gz), len(br))
		}
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 2 {
		t.Fatalf("the cache holds %d files, want 2", len(entries))
	}
	for _, en := range entries {
		kept, _ := os.ReadFile(filepath.Join(cache, en.Name()))
		written, _ := os.ReadFile(path + filepath.Ext(en.Name()))
		if !bytes.Equal(kept, written) {
			t.Errorf("the cache's %s differs from the file written", en.Name())
		}
	}
}

func gunzip(t *testing.T, gz []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestZopfliGzipUnpacks(t *testing.T) {
	zopfli, err := exec.LookPath("zopfli")
	if err != nil {
		t.Skip("zopfli is not installed")
	}
	data := []byte(strings.Repeat("apiVersion: v1\nkind: Pod\n", 500))
	gz, err := zopfliGzip(zopfli, data)
	if err != nil {
		t.Fatal(err)
	}
	if got := gunzip(t, gz); !bytes.Equal(got, data) {
		t.Fatalf("zopfli's output unpacks to %d bytes, want %d", len(got), len(data))
	}
}
