package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// A browser that accepts brotli gets FILE.br, one that accepts only gzip
// gets FILE.gz, others the file itself; the type is the original's.
func TestPrecompressedFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"kubeplay.wasm": "raw", "kubeplay.wasm.br": "brotli", "kubeplay.wasm.gz": "gzip", "app.js": "js"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := precompressed(dir, http.FileServer(http.Dir(dir)))
	for _, tc := range []struct{ path, accept, body, encoding, ctype string }{
		{"/kubeplay.wasm", "gzip, deflate, br", "brotli", "br", "application/wasm"},
		{"/kubeplay.wasm", "gzip", "gzip", "gzip", "application/wasm"},
		{"/kubeplay.wasm", "br;q=0, gzip", "gzip", "gzip", "application/wasm"},
		{"/kubeplay.wasm", "", "raw", "", "application/wasm"},
		{"/app.js", "br", "js", "", "text/javascript; charset=utf-8"},
	} {
		r := httptest.NewRequest("GET", tc.path, nil)
		if tc.accept != "" {
			r.Header.Set("Accept-Encoding", tc.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 200 || w.Body.String() != tc.body || w.Header().Get("Content-Encoding") != tc.encoding || w.Header().Get("Content-Type") != tc.ctype {
			t.Errorf("%s with %q: %d %q encoding %q type %q", tc.path, tc.accept, w.Code, w.Body.String(), w.Header().Get("Content-Encoding"), w.Header().Get("Content-Type"))
		}
	}
}
