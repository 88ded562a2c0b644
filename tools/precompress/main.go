// Command precompress writes FILE.gz and FILE.br (brotli, best quality)
// beside each file it is given, for servers that send a precompressed file
// to browsers that accept it (kubeplay serve does) and for the page, which
// fetches kubeplay.wasm.gz itself from a host that sends the wasm as it is.
// The gzip file comes from zopfli when it is installed (Debian's package
// zopfli: 5% smaller than gzip -9 for the wasm, half a minute) and from
// Go's gzip at its best level otherwise. Brotli at its best quality takes
// a minute or more for the wasm, so results are kept in a cache directory
// by the content's hash and the encoder.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
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
	gz := encoder{".gz", "gzip", gzipBest}
	if zopfli, err := exec.LookPath("zopfli"); err == nil {
		gz = encoder{".gz", "zopfli", func(data []byte) ([]byte, error) { return zopfliGzip(zopfli, data) }}
	}
	for _, enc := range []encoder{gz, {".br", "brotli", brotliBest}} {
		var out []byte
		cached := ""
		if cache != "" {
			cached = filepath.Join(cache, key+"."+enc.name+enc.ext)
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

type encoder struct {
	ext, name string
	compress  func([]byte) ([]byte, error)
}

// zopfliGzip runs zopfli with one iteration: more take minutes for the
// wasm and gain a few kilobytes.
func zopfliGzip(zopfli string, data []byte) ([]byte, error) {
	f, err := os.CreateTemp("", "precompress-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd := exec.Command(zopfli, "--i1", "-c", f.Name())
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("zopfli: %v: %s", err, stderr.Bytes())
	}
	return out, nil
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
