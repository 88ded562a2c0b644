package shell

import (
	"fmt"
	"io"
	"strings"
)

// Commands that describe the machine and the user: printenv, hostname,
// id, whoami, uname. The terminal is root on a Linux host named by
// $HOSTNAME (kubeplay by default).

func hostnameOf(ctx *Context) string {
	if h := ctx.Getenv("HOSTNAME"); h != "" {
		return h
	}
	return "kubeplay"
}

func printenvCmd(ctx *Context, args []string) int {
	opts, names, ok := getopt(ctx, args, optSpec{short: "0", long: map[string]longOpt{"null": {short: "0"}}})
	if !ok {
		return 2
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if len(names) == 0 {
		for _, kv := range ctx.EnvList() {
			io.WriteString(ctx.Stdout, kv+end)
		}
		return 0
	}
	code := 0
	for _, n := range names {
		v, ok := ctx.LookupEnv(n)
		if !ok || strings.Contains(n, "=") {
			code = 1
			continue
		}
		io.WriteString(ctx.Stdout, v+end)
	}
	return code
}

func hostnameCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "fsidIA", long: map[string]longOpt{
		"fqdn": {short: "f"}, "short": {short: "s"}, "ip-address": {short: "i"}, "all-ip-addresses": {short: "I"},
	}})
	if !ok {
		return 1
	}
	if len(operands) > 0 {
		fmt.Fprintln(ctx.Stderr, "hostname: you must be root to change the host name")
		return 1
	}
	h := hostnameOf(ctx)
	for _, o := range opts {
		switch o.name {
		case "s":
			h, _, _ = strings.Cut(h, ".")
		case "i", "I":
			ip := ctx.Getenv("POD_IP")
			if ip == "" {
				ip = "127.0.1.1"
			}
			h = ip
			if o.name == "I" {
				h += " "
			}
		}
	}
	fmt.Fprintln(ctx.Stdout, h)
	return 0
}

func whoamiCmd(ctx *Context, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(ctx.Stderr, "whoami: extra operand '%s'\n", args[0])
		tryHelp(ctx)
		return 1
	}
	fmt.Fprintln(ctx.Stdout, "root")
	return 0
}

func idCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "ugGnrz", long: map[string]longOpt{
		"user": {short: "u"}, "group": {short: "g"}, "groups": {short: "G"}, "name": {short: "n"}, "real": {short: "r"},
	}})
	if !ok {
		return 1
	}
	for _, u := range operands {
		if u != "root" && u != "0" {
			fmt.Fprintf(ctx.Stderr, "id: ‘%s’: no such user\n", u)
			return 1
		}
	}
	what, name := "", false
	for _, o := range opts {
		switch o.name {
		case "u", "g", "G":
			what = o.name
		case "n":
			name = true
		}
	}
	switch {
	case what == "" && name:
		fmt.Fprintln(ctx.Stderr, "id: cannot print only names or real IDs in default format")
		return 1
	case what == "":
		fmt.Fprintln(ctx.Stdout, "uid=0(root) gid=0(root) groups=0(root)")
	case name:
		fmt.Fprintln(ctx.Stdout, "root")
	default:
		fmt.Fprintln(ctx.Stdout, "0")
	}
	return 0
}

func unameCmd(ctx *Context, args []string) int {
	opts, operands, ok := getopt(ctx, args, optSpec{short: "asnrvmpio", long: map[string]longOpt{
		"all": {short: "a"}, "kernel-name": {short: "s"}, "nodename": {short: "n"}, "kernel-release": {short: "r"},
		"kernel-version": {short: "v"}, "machine": {short: "m"}, "processor": {short: "p"},
		"hardware-platform": {short: "i"}, "operating-system": {short: "o"},
	}})
	if !ok {
		return 1
	}
	if len(operands) > 0 {
		fmt.Fprintf(ctx.Stderr, "uname: extra operand '%s'\n", operands[0])
		tryHelp(ctx)
		return 1
	}
	fields := map[string]string{
		"s": "Linux", "n": hostnameOf(ctx), "r": "6.1.0-kubeplay", "v": "#1 SMP PREEMPT_DYNAMIC",
		"m": "x86_64", "p": "unknown", "i": "unknown", "o": "GNU/Linux",
	}
	want := map[string]bool{}
	all := false
	for _, o := range opts {
		if o.name == "a" {
			all = true
		}
		want[o.name] = true
	}
	if len(want) == 0 {
		want["s"] = true
	}
	var out []string
	for _, k := range []string{"s", "n", "r", "v", "m", "p", "i", "o"} {
		if all && (k == "p" || k == "i") && !want[k] {
			continue // -a leaves out the unknown ones
		}
		if all || want[k] {
			out = append(out, fields[k])
		}
	}
	fmt.Fprintln(ctx.Stdout, strings.Join(out, " "))
	return 0
}
