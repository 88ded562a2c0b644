// Command precompress writes FILE.gz (gzip -9) and FILE.br (brotli, best
// quality) beside each file it is given, for servers that send a
// precompressed file to browsers that accept it (kubeplay serve does).
// Brotli at its best quality takes a minute or more for the wasm, so
// results are kept in a cache directory by the content's hash.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

func main() {
	cache := flag.String("cache", "", "directory to keep compressed results in, by content hash")
	flag.Parse()
	for _, f := range flag.Args() {
		if err := precompress(f, *cache); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

func precompress(path, cache string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	for _, enc := range []struct {
		ext      string
		compress func([]byte) ([]byte, error)
	}{{".gz", gzipBest}, {".br", brotliBest}} {
		var out []byte
		cached := ""
		if cache != "" {
			cached = filepath.Join(cache, key+enc.ext)
			out, _ = os.ReadFile(cached)
		}
		if out == nil {
			if out, err = enc.compress(data); err != nil {
				return err
			}
			if cached != "" {
				if err := os.MkdirAll(cache, 0o755); err == nil {
					_ = os.WriteFile(cached, out, 0o644)
				}
			}
		}
		if err := os.WriteFile(path+enc.ext, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func gzipBest(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	err = w.Close()
	return b.Bytes(), err
}

func brotliBest(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w := brotli.NewWriterLevel(&b, brotli.BestCompression)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	err := w.Close()
	return b.Bytes(), err
}
