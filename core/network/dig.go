package network

import (
	"fmt"
	"strings"
	"time"

	"kubeplay/core/shell"
)

// DigVersion is the dig the command impersonates (Debian bookworm's).
const DigVersion = "9.18.33-1~deb12u2-Debian"

// Dig is BIND's dig run from namespace from ("" on a node).
func Dig(n *Network, from string) shell.Command {
	src := NodeSource("")
	if from != "" {
		src = PodSource(from, "")
	}
	return DigFrom(n, src)
}

// DigFrom is dig run from src.
func DigFrom(n *Network, src Source) shell.Command {
	return func(ctx *shell.Context, args []string) int { return runDig(n, src, ctx, args) }
}

type digOpts struct {
	name, qtype, server string
	short, search       bool
	cmd, comments       bool
	question, answer    bool
	authority, stats    bool
}

func parseDigArgs(args []string) (*digOpts, string) {
	o := &digOpts{cmd: true, comments: true, question: true, answer: true, authority: true, stats: true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "@"):
			o.server = a[1:]
		case a == "-t" || a == "-x" || a == "-p" || a == "-c" || a == "-q":
			if i+1 >= len(args) {
				return nil, "dig: option requires an argument -- '" + a[1:] + "'"
			}
			i++
			switch a {
			case "-t":
				o.qtype = strings.ToUpper(args[i])
			case "-x":
				ptr, ok := ReverseName(args[i])
				if !ok {
					return nil, "dig: '" + args[i] + "' is not a legal IPv4 address"
				}
				o.name, o.qtype = ptr, TypePTR
			case "-q":
				o.name = args[i]
			}
		case strings.HasPrefix(a, "+"):
			opt := strings.ToLower(a[1:])
			on := true
			if strings.HasPrefix(opt, "no") && opt != "nsid" {
				on, opt = false, opt[2:]
			}
			switch opt {
			case "short":
				o.short = on
			case "search":
				o.search = on
			case "all":
				o.cmd, o.comments, o.question, o.answer, o.authority, o.stats = on, on, on, on, on, on
			case "cmd":
				o.cmd = on
			case "comments":
				o.comments = on
			case "question":
				o.question = on
			case "answer":
				o.answer = on
			case "authority":
				o.authority = on
			case "stats":
				o.stats = on
			case "additional", "recurse", "tcp", "vc", "trace", "dnssec", "identify", "cookie", "edns", "multiline", "ttlid", "class":
			default:
				return nil, "Invalid option: " + a
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			switch a {
			case "-4", "-6", "-u", "-m", "-r":
			default:
				return nil, "Invalid option: " + a
			}
		default:
			if validQueryType(strings.ToUpper(a)) && o.name != "" && o.qtype == "" {
				o.qtype = strings.ToUpper(a)
			} else if o.name == "" {
				o.name = a
			} else if validQueryType(strings.ToUpper(a)) {
				o.qtype = strings.ToUpper(a)
			} else {
				o.name = a
			}
		}
	}
	if o.qtype == "" {
		o.qtype = TypeA
	}
	if o.name == "" {
		o.name, o.qtype = ".", TypeNS
	}
	if !validQueryType(o.qtype) {
		return nil, "dig: invalid type: " + o.qtype
	}
	return o, ""
}

func runDig(n *Network, src Source, ctx *shell.Context, args []string) int {
	o, msg := parseDigArgs(args)
	if o == nil {
		fmt.Fprintln(ctx.Stderr, msg)
		return 1
	}
	addr, ok := n.serverAddress(src, o.server)
	if !ok {
		fmt.Fprintf(ctx.Stderr, "dig: couldn't get address for '%s': not found\n", o.server)
		return 10
	}
	names := []string{o.name}
	if o.search && !strings.HasSuffix(o.name, ".") {
		names = src.Resolv.Candidates(o.name)
	}
	var ans Answer
	var err error
	qname := names[len(names)-1]
	for _, cand := range names {
		ans, err = n.Exchange(addr, cand, o.qtype)
		if err != nil || ans.Rcode == RcodeSuccess {
			qname = cand
			break
		}
	}
	banner := "\n; <<>> DiG " + DigVersion + " <<>> " + strings.Join(args, " ") + "\n"
	if o.server != "" {
		banner += "; (1 server found)\n"
	}
	if err != nil {
		reason := "timed out"
		if err == ErrConnectionRefused {
			reason = "connection refused"
		}
		if src.Sleep != nil && err != ErrConnectionRefused {
			src.Sleep(15 * time.Second)
		}
		for i := 0; i < 3; i++ {
			fmt.Fprintf(ctx.Stdout, ";; communications error to %s#53: %s\n", addr, reason)
		}
		if !o.short {
			fmt.Fprint(ctx.Stdout, banner+";; global options: +cmd\n")
		}
		fmt.Fprint(ctx.Stdout, ";; no servers could be reached\n")
		if !o.short {
			fmt.Fprint(ctx.Stdout, "\n")
		}
		return 9
	}
	if o.short {
		var b strings.Builder
		for _, r := range ans.Records {
			b.WriteString(r.Data + "\n")
		}
		fmt.Fprint(ctx.Stdout, b.String())
		return 0
	}
	fmt.Fprint(ctx.Stdout, formatDig(n, o, banner, addr, qname, ans))
	return 0
}

// formatDig lays out dig's full answer.
func formatDig(n *Network, o *digOpts, banner, server, qname string, ans Answer) string {
	var b strings.Builder
	if o.cmd {
		b.WriteString(banner)
		b.WriteString(";; global options: +cmd\n")
	}
	if o.comments {
		flags := "qr"
		if ans.Authoritative {
			flags += " aa"
		}
		flags += " rd"
		if ans.RecursionAvailable {
			flags += " ra"
		}
		b.WriteString(";; Got answer:\n")
		fmt.Fprintf(&b, ";; ->>HEADER<<- opcode: QUERY, status: %s, id: %d\n", RcodeText(ans.Rcode), n.rand.Intn(65536))
		fmt.Fprintf(&b, ";; flags: %s; QUERY: 1, ANSWER: %d, AUTHORITY: %d, ADDITIONAL: 1\n", flags, len(ans.Records), len(ans.Authority))
		if !ans.RecursionAvailable {
			b.WriteString(";; WARNING: recursion requested but not available\n")
		}
		b.WriteString("\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n")
	}
	qfqdn := fqdn(canonical(qname))
	if qname == "." {
		qfqdn = "."
	}
	if o.question {
		if o.comments {
			b.WriteString(";; QUESTION SECTION:\n")
		}
		line := &column{}
		line.write(";" + qfqdn)
		line.tab(32)
		line.write("IN")
		line.tab(40)
		line.write(o.qtype)
		b.WriteString(line.String() + "\n")
	}
	section := func(title string, rrs []Record) {
		if len(rrs) == 0 {
			return
		}
		if o.comments {
			b.WriteString("\n;; " + title + " SECTION:\n")
		}
		for _, r := range rrs {
			b.WriteString(formatRR(r) + "\n")
		}
	}
	if o.answer {
		section("ANSWER", ans.Records)
	}
	if o.authority {
		section("AUTHORITY", ans.Authority)
	}
	if o.stats {
		b.WriteString("\n;; Query time: 0 msec\n")
		fmt.Fprintf(&b, ";; SERVER: %s#53(%s) (UDP)\n", server, server)
		fmt.Fprintf(&b, ";; WHEN: %s\n", n.clock.Now().UTC().Format("Mon Jan 02 15:04:05 MST 2006"))
		fmt.Fprintf(&b, ";; MSG SIZE  rcvd: %d\n", messageSize(qfqdn, ans))
	}
	b.WriteString("\n")
	return b.String()
}

// column writes text and moves to tab stops as BIND's master-file style
// does: tabs up to a column, or one space when already past it.
type column struct {
	b   strings.Builder
	pos int
}

func (c *column) write(s string) {
	c.b.WriteString(s)
	c.pos += len(s)
}

func (c *column) tab(to int) {
	if c.pos >= to {
		c.write(" ")
		return
	}
	for c.pos < to {
		c.b.WriteByte('\t')
		c.pos = (c.pos/8 + 1) * 8
	}
}

func (c *column) String() string { return c.b.String() }

// formatRR prints a record as dig does: name, TTL at 24, class at 32,
// type at 40, data at 48.
func formatRR(r Record) string {
	c := &column{}
	c.write(r.Name)
	c.tab(24)
	c.write(itoa(r.TTL))
	c.tab(32)
	c.write("IN")
	c.tab(40)
	c.write(r.Type)
	c.tab(48)
	c.write(r.Data)
	return c.String()
}

// wireLen is the length of a name in wire format.
func wireLen(name string) int {
	name = strings.TrimSuffix(name, ".")
	if name == "" {
		return 1
	}
	return len(name) + 2
}

// messageSize is the reply's size on the wire, with the name compression
// a DNS server applies (owner names point at the question).
func messageSize(qname string, ans Answer) int {
	size := 12 + wireLen(qname) + 4
	for _, r := range ans.Records {
		size += 2 + 10 // owner is the question name, compressed
		switch r.Type {
		case TypeA:
			size += 4
		case TypeAAAA:
			size += 16
		case TypeSRV:
			f := strings.Fields(r.Data)
			size += 6 + wireLen(f[len(f)-1])
		default:
			size += wireLen(r.Data)
		}
	}
	for range ans.Authority {
		// SOA of cluster.local: owner and both names compressed against the question.
		size += 2 + 10 + (1 + 2 + 1 + 3 + 2) + (1 + 10 + 2) + 20
	}
	return size + 11 // the OPT record
}
