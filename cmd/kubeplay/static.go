package main

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// precompressed serves the built site, sending FILE.br or FILE.gz in
// place of FILE to a browser that accepts that encoding (the wasm is a
// quarter of its size in brotli); everything else goes to next.
func precompressed(dir string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(name, "/") || name == "/" {
			name += "index.html"
		}
		w.Header().Add("Vary", "Accept-Encoding")
		accepted := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accepted, enc.token) {
				continue
			}
			full := filepath.Join(dir, filepath.FromSlash(name))
			f, err := os.Open(full + enc.ext)
			if err != nil {
				continue
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil || st.IsDir() {
				continue
			}
			ctype := mime.TypeByExtension(filepath.Ext(full))
			if filepath.Ext(full) == ".wasm" {
				ctype = "application/wasm"
			}
			if ctype != "" {
				w.Header().Set("Content-Type", ctype)
			}
			w.Header().Set("Content-Encoding", enc.token)
			http.ServeContent(w, r, name, st.ModTime(), f)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// acceptsEncoding reads an Accept-Encoding header: token listed without
// q=0.
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), token) {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
