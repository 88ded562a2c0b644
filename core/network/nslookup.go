package network

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"kubeplay/core/shell"
)

// NslookupStyle picks whose nslookup a command behaves as: busybox's (in
// busybox images) or BIND's (dnsutils, on hosts and debug images).
type NslookupStyle int

const (
	// NslookupBusybox: A and AAAA queries sent together, search domains
	// only for names without a dot, one reply block per query.
	NslookupBusybox NslookupStyle = iota
	// NslookupBind: the resolver's search list, one answer.
	NslookupBind
)

// Nslookup is nslookup run from namespace from ("" on a node).
func Nslookup(n *Network, from string, style NslookupStyle) shell.Command {
	src := NodeSource("")
	if from != "" {
		src = PodSource(from, "")
	}
	return NslookupFrom(n, src, style)
}

// NslookupFrom is nslookup run from src.
func NslookupFrom(n *Network, src Source, style NslookupStyle) shell.Command {
	return func(ctx *shell.Context, args []string) int {
		if style == NslookupBind {
			return runBindNslookup(n, src, ctx, args)
		}
		return runBusyboxNslookup(n, src, ctx, args)
	}
}

// nslookupArgs splits "-type=A name server" into the query type (""
// when none is given), the name and the server.
func nslookupArgs(args []string) (qtype, name, server string, ok bool) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		opt, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch strings.ToLower(opt) {
		case "type", "querytype", "query", "q", "ty", "qu":
			if !hasVal {
				if i+1 >= len(args) {
					return "", "", "", false
				}
				i++
				val = args[i]
			}
			qtype = strings.ToUpper(val)
		case "debug", "nodebug", "d2", "nod2", "search", "nosearch", "vc", "novc", "recurse", "norecurse", "fail", "nofail", "s", "stats":
		case "timeout", "t", "retry", "r", "port", "p", "ndots", "domain", "do":
			if !hasVal && i+1 < len(args) && len(opt) == 1 {
				i++
			}
		default:
			return "", "", "", false
		}
	}
	if len(pos) == 0 || len(pos) > 2 {
		return "", "", "", false
	}
	name = pos[0]
	if len(pos) == 2 {
		server = pos[1]
	}
	return qtype, name, server, true
}

func validQueryType(t string) bool {
	switch t {
	case TypeA, TypeAAAA, TypeCNAME, TypePTR, TypeSRV, TypeSOA, TypeTXT, TypeNS, TypeMX, TypeANY:
		return true
	}
	return false
}

// serverAddress resolves a server argument (an address or a name).
func (n *Network) serverAddress(src Source, server string) (string, bool) {
	if server == "" {
		if len(src.Resolv.Nameservers) == 0 {
			return "127.0.0.1", true
		}
		return src.Resolv.Nameservers[0], true
	}
	if a, err := netip.ParseAddr(server); err == nil {
		return a.String(), true
	}
	_, addrs, err := n.Lookup(src.Resolv, server)
	if err != nil {
		return "", false
	}
	return addrs[0], true
}

func trimDot(s string) string { return strings.TrimSuffix(s, ".") }

const busyboxNslookupUsage = "BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\n" +
	"Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n\n" +
	"Query DNS about HOST\n\n" +
	"QUERY_TYPE: soa,ns,a,aaaa,cname,mx,txt,ptr,srv,any\n"

func runBusyboxNslookup(n *Network, src Source, ctx *shell.Context, args []string) int {
	qtype, name, server, ok := nslookupArgs(args)
	if !ok {
		fmt.Fprint(ctx.Stderr, busyboxNslookupUsage)
		return 1
	}
	if qtype != "" && !validQueryType(qtype) {
		fmt.Fprintf(ctx.Stderr, "nslookup: invalid query type \"%s\"\n", strings.ToLower(qtype))
		return 1
	}
	addr, ok := n.serverAddress(src, server)
	if !ok {
		fmt.Fprintf(ctx.Stderr, "nslookup: bad address '%s'\n", server)
		return 1
	}
	type query struct{ name, qtype string }
	var queries []query
	withSearch := func(t string) {
		if t == TypePTR || len(src.Resolv.Search) == 0 || strings.Contains(name, ".") {
			queries = append(queries, query{name, t})
			return
		}
		for _, s := range src.Resolv.Search {
			queries = append(queries, query{name + "." + s, t})
		}
	}
	switch {
	case qtype != "":
		withSearch(qtype)
	default:
		if ptr, isIP := ReverseName(name); isIP {
			queries = append(queries, query{ptr, TypePTR})
		} else {
			withSearch(TypeA)
			withSearch(TypeAAAA)
		}
	}
	var out strings.Builder
	for i, q := range queries {
		ans, err := n.Exchange(addr, q.name, q.qtype)
		if err != nil {
			// Nothing came back within the 5 s timeout.
			if src.Sleep != nil {
				src.Sleep(5 * time.Second)
			}
			fmt.Fprint(ctx.Stdout, ";; connection timed out; no servers could be reached\n\n")
			return 1
		}
		if i == 0 {
			fmt.Fprintf(&out, "Server:\t\t%s\nAddress:\t%s:53\n\n", server0(server, addr), addr)
		}
		if ans.Rcode != RcodeSuccess {
			fmt.Fprintf(&out, "** server can't find %s: %s\n\n", q.name, RcodeText(ans.Rcode))
			continue
		}
		if !ans.Authoritative {
			out.WriteString("Non-authoritative answer:\n")
		}
		for _, r := range ans.Records {
			switch r.Type {
			case TypeA, TypeAAAA:
				fmt.Fprintf(&out, "Name:\t%s\nAddress: %s\n", trimDot(r.Name), r.Data)
			case TypeCNAME:
				fmt.Fprintf(&out, "%s\tcanonical name = %s\n", trimDot(r.Name), trimDot(r.Data))
			case TypePTR:
				fmt.Fprintf(&out, "%s\tname = %s\n", trimDot(r.Name), trimDot(r.Data))
			case TypeSOA:
				writeBusyboxSOA(&out, r)
			}
		}
		out.WriteString("\n")
	}
	fmt.Fprint(ctx.Stdout, out.String())
	return 0
}

// server0 is how the Server: line names the server: as given, else its address.
func server0(given, addr string) string {
	if given != "" {
		return given
	}
	return addr
}

func writeBusyboxSOA(b *strings.Builder, r Record) {
	f := strings.Fields(r.Data)
	if len(f) != 7 {
		return
	}
	fmt.Fprintf(b, "%s\n\torigin = %s\n\tmail addr = %s\n\tserial = %s\n\trefresh = %s\n\tretry = %s\n\texpire = %s\n\tminimum = %s\n",
		trimDot(r.Name), trimDot(f[0]), trimDot(f[1]), f[2], f[3], f[4], f[5], f[6])
}

func runBindNslookup(n *Network, src Source, ctx *shell.Context, args []string) int {
	qtype, name, server, ok := nslookupArgs(args)
	if !ok {
		fmt.Fprint(ctx.Stderr, "Usage: nslookup [-opt ...] host [server]\n")
		return 1
	}
	if qtype != "" && !validQueryType(qtype) {
		fmt.Fprintf(ctx.Stderr, "unknown query type: %s\n", strings.ToLower(qtype))
		qtype = ""
	}
	addr, ok := n.serverAddress(src, server)
	if !ok {
		fmt.Fprintf(ctx.Stdout, ";; Got SERVFAIL reply from %s, trying next server\n", src.Resolv.Nameservers[0])
		return 1
	}
	var out strings.Builder
	header := func() {
		fmt.Fprintf(&out, "Server:\t\t%s\nAddress:\t%s#53\n\n", server0(server, addr), addr)
	}
	timedOut := func(err error) int {
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
		fmt.Fprint(ctx.Stdout, ";; no servers could be reached\n\n")
		return 1
	}
	if ptr, isIP := ReverseName(name); isIP && (qtype == "" || qtype == TypePTR) {
		ans, err := n.Exchange(addr, ptr, TypePTR)
		if err != nil {
			return timedOut(err)
		}
		header()
		if ans.Rcode != RcodeSuccess {
			fmt.Fprintf(&out, "** server can't find %s: %s\n\n", ptr, RcodeText(ans.Rcode))
			fmt.Fprint(ctx.Stdout, out.String())
			return 1
		}
		if !ans.Authoritative {
			out.WriteString("Non-authoritative answer:\n")
		}
		for _, r := range ans.Records {
			fmt.Fprintf(&out, "%s\tname = %s\n", trimDot(r.Name), r.Data)
		}
		out.WriteString("\n")
		fmt.Fprint(ctx.Stdout, out.String())
		return 0
	}
	types := []string{TypeA, TypeAAAA}
	if qtype != "" {
		types = []string{qtype}
	}
	rc := src.Resolv
	var found string
	var answers []Answer
	for _, cand := range rc.Candidates(name) {
		ans, err := n.Exchange(addr, cand, types[0])
		if err != nil {
			return timedOut(err)
		}
		if ans.Rcode == RcodeSuccess {
			found = cand
			answers = append(answers, ans)
			for _, t := range types[1:] {
				more, err := n.Exchange(addr, cand, t)
				if err == nil && more.Rcode == RcodeSuccess {
					answers = append(answers, more)
				}
			}
			break
		}
	}
	header()
	if found == "" {
		fmt.Fprintf(&out, "** server can't find %s: NXDOMAIN\n\n", name)
		fmt.Fprint(ctx.Stdout, out.String())
		return 1
	}
	if !answers[0].Authoritative {
		out.WriteString("Non-authoritative answer:\n")
	}
	printed := 0
	for _, ans := range answers {
		for _, r := range ans.Records {
			printed++
			switch r.Type {
			case TypeA, TypeAAAA:
				fmt.Fprintf(&out, "Name:\t%s\nAddress: %s\n", trimDot(r.Name), r.Data)
			case TypeCNAME:
				fmt.Fprintf(&out, "%s\tcanonical name = %s\n", trimDot(r.Name), r.Data)
			case TypePTR:
				fmt.Fprintf(&out, "%s\tname = %s\n", trimDot(r.Name), r.Data)
			case TypeSRV:
				f := strings.Fields(r.Data)
				if len(f) == 4 {
					fmt.Fprintf(&out, "%s\tservice = %s %s %s %s\n", trimDot(r.Name), f[0], f[1], f[2], f[3])
				}
			default:
				fmt.Fprintf(&out, "%s\t%s\n", trimDot(r.Name), r.Data)
			}
		}
	}
	if printed == 0 {
		fmt.Fprintf(&out, "*** Can't find %s: No answer\n", name)
	}
	out.WriteString("\n")
	fmt.Fprint(ctx.Stdout, out.String())
	return 0
}
