package shell

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

// base64, as coreutils: encode wrapped at 76 columns (-w), decode (-d),
// skipping non-alphabet bytes with -i.

func base64Cmd(ctx *Context, args []string) int {
	opts, files, ok := getopt(ctx, args, optSpec{short: "diw:", long: map[string]longOpt{
		"decode": {short: "d"}, "ignore-garbage": {short: "i"}, "wrap": {short: "w", arg: reqArg},
	}})
	if !ok {
		return 1
	}
	decode, ignore, wrap := false, false, 76
	for _, o := range opts {
		switch o.name {
		case "d":
			decode = true
		case "i":
			ignore = true
		case "w":
			n, ok := parseCount(o.val)
			if !ok {
				fmt.Fprintf(ctx.Stderr, "base64: invalid wrap size: '%s'\n", o.val)
				return 1
			}
			wrap = int(min(n, 1<<30))
		}
	}
	if len(files) > 1 {
		fmt.Fprintf(ctx.Stderr, "base64: extra operand '%s'\n", files[1])
		tryHelp(ctx)
		return 1
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	text, ok := readInput(ctx, name)
	if !ok {
		if ctx.FS.IsDir(ctx.Abs(name)) {
			fmt.Fprintf(ctx.Stderr, "base64: read error: Is a directory\n")
		} else {
			inputError(ctx, name)
		}
		return 1
	}
	if !decode {
		enc := base64.StdEncoding.EncodeToString([]byte(text))
		var b strings.Builder
		for wrap > 0 && len(enc) > wrap {
			b.WriteString(enc[:wrap] + "\n")
			enc = enc[wrap:]
		}
		b.WriteString(enc)
		// -w 0 leaves the output unterminated, as coreutils does.
		if enc != "" && wrap > 0 {
			b.WriteString("\n")
		}
		io.WriteString(ctx.Stdout, b.String())
		return 0
	}
	var clean strings.Builder
	for _, c := range []byte(text) {
		switch {
		case c == '\n':
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/', c == '=':
			clean.WriteByte(c)
		case ignore:
		default:
			clean.WriteByte(c)
		}
	}
	s := clean.String()
	// Decode what is valid, print it, then report, as coreutils does.
	out, err := base64.StdEncoding.DecodeString(s)
	if err == nil {
		ctx.Stdout.Write(out)
		return 0
	}
	k := 0
	for k < len(s) && s[k] != '=' && strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", s[k]) >= 0 {
		k++
	}
	prefix := s[:k]
	if len(prefix)%4 == 1 {
		prefix = prefix[:len(prefix)-1]
	}
	good, _ := base64.RawStdEncoding.DecodeString(prefix)
	ctx.Stdout.Write(good)
	fmt.Fprintln(ctx.Stderr, "base64: invalid input")
	return 1
}
