package shell

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
)

// md5sum, sha1sum, sha256sum and sha512sum, with -c to check.

func hashCmd(newHash func() hash.Hash) Command {
	return func(ctx *Context, args []string) int {
		opts, files, ok := getopt(ctx, args, optSpec{short: "cbtwz", long: map[string]longOpt{
			"check": {short: "c"}, "binary": {short: "b"}, "text": {short: "t"}, "quiet": {}, "status": {}, "strict": {}, "tag": {},
		}})
		if !ok {
			return 1
		}
		check, quiet, status := false, false, false
		for _, o := range opts {
			switch o.name {
			case "c":
				check = true
			case "quiet":
				quiet = true
			case "status":
				status = true
			}
		}
		if len(files) == 0 {
			files = []string{"-"}
		}
		sum := func(data string) string {
			h := newHash()
			h.Write([]byte(data))
			return hex.EncodeToString(h.Sum(nil))
		}
		code := 0
		for _, f := range files {
			text, ok := readInput(ctx, f)
			if !ok {
				inputError(ctx, f)
				code = 1
				continue
			}
			if !check {
				fmt.Fprintf(ctx.Stdout, "%s  %s\n", sum(text), f)
				continue
			}
			failed, bad := 0, 0
			lines, _ := splitLines(text)
			for _, l := range lines {
				want, name, ok := strings.Cut(l, "  ")
				if !ok {
					want, name, ok = strings.Cut(l, " *")
				}
				if !ok || len(want) != newHash().Size()*2 {
					bad++
					continue
				}
				got, ok := readInput(ctx, name)
				switch {
				case !ok:
					fmt.Fprintf(ctx.Stderr, "%s: %s: No such file or directory\n", ctx.Name, name)
					if !status {
						fmt.Fprintf(ctx.Stdout, "%s: FAILED open or read\n", name)
					}
					failed++
				case sum(got) != strings.ToLower(want):
					if !status {
						fmt.Fprintf(ctx.Stdout, "%s: FAILED\n", name)
					}
					failed++
				default:
					if !quiet && !status {
						fmt.Fprintf(ctx.Stdout, "%s: OK\n", name)
					}
				}
			}
			if bad > 0 && bad == len(lines) {
				fmt.Fprintf(ctx.Stderr, "%s: %s: no properly formatted checksum lines found\n", ctx.Name, f)
				code = 1
				continue
			}
			if failed > 0 {
				if !status {
					s := ""
					if failed > 1 {
						s = "s"
					}
					fmt.Fprintf(ctx.Stderr, "%s: WARNING: %d computed checksum%s did NOT match\n", ctx.Name, failed, s)
				}
				code = 1
			}
		}
		return code
	}
}

var (
	md5sumCmd    = hashCmd(md5.New)
	sha1sumCmd   = hashCmd(sha1.New)
	sha256sumCmd = hashCmd(sha256.New)
	sha512sumCmd = hashCmd(sha512.New)
)
