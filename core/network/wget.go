package network

import (
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/shell"
)

// Wget is busybox's wget run from namespace from ("" on a node).
func Wget(n *Network, from string) shell.Command {
	src := NodeSource("")
	if from != "" {
		src = PodSource(from, "")
	}
	return WgetFrom(n, src)
}

// WgetFrom is busybox's wget run from src.
func WgetFrom(n *Network, src Source) shell.Command {
	return func(ctx *shell.Context, args []string) int { return runWget(n, src, ctx, args) }
}

const wgetUsage = "BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\n" +
	"Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n" +
	"\t[--post-data STR | --post-file FILE] [-Y on/off]\n" +
	"\t[-P DIR] [-U AGENT] [-T SEC] URL...\n\n" +
	"Retrieve files via HTTP or FTP\n\n" +
	"\t--spider\tOnly check URL existence: $? is 0 if exists\n" +
	"\t--header STR\tAdd STR (of form 'header: value') to headers\n" +
	"\t--post-data STR\tSend STR using POST method\n" +
	"\t--post-file FILE\tSend FILE using POST method\n" +
	"\t-c\t\tContinue retrieval of aborted transfer\n" +
	"\t-q\t\tQuiet\n" +
	"\t-P DIR\t\tSave to DIR (default .)\n" +
	"\t-S    \t\tShow server response\n" +
	"\t-T SEC\t\tNetwork read timeout is SEC seconds\n" +
	"\t-O FILE\t\tSave to FILE ('-' for stdout)\n" +
	"\t-o LOGFILE\tLog messages to FILE\n" +
	"\t-U STR\t\tUse STR for User-Agent header\n" +
	"\t-Y on/off\tUse proxy\n"

func runWget(n *Network, src Source, ctx *shell.Context, args []string) int {
	quiet, spider, showResp := false, false, false
	output, postData, agent := "", "", "Wget"
	hasPost := false
	timeout := time.Duration(0)
	var headers []HeaderField
	var urls []string
	usage := func() int {
		fmt.Fprint(ctx.Stderr, wgetUsage)
		return 1
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() (string, bool) {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			return args[i], true
		}
		switch {
		case a == "--spider":
			spider = true
		case a == "--header" || a == "--post-data" || a == "-U" || a == "--user-agent":
			v, ok := value()
			if !ok {
				return usage()
			}
			switch a {
			case "--header":
				k, val, _ := strings.Cut(v, ":")
				headers = append(headers, HeaderField{Name: strings.TrimSpace(k), Value: strings.TrimSpace(val)})
			case "--post-data":
				postData, hasPost = v, true
			default:
				agent = v
			}
		case strings.HasPrefix(a, "--"):
			return usage()
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'q':
					quiet = true
				case 'S':
					showResp = true
				case 'c':
				case 'O', 'T', 'P', 'o', 'Y', 'U':
					v := a[j+1:]
					if v == "" {
						var ok bool
						if v, ok = value(); !ok {
							return usage()
						}
					}
					switch a[j] {
					case 'O':
						output = v
					case 'T':
						secs, err := strconv.Atoi(v)
						if err != nil || secs < 0 {
							fmt.Fprintf(ctx.Stderr, "wget: invalid number '%s'\n", v)
							return 1
						}
						timeout = time.Duration(secs) * time.Second
					case 'U':
						agent = v
					}
					j = len(a)
				default:
					return usage()
				}
			}
		default:
			urls = append(urls, a)
		}
	}
	if len(urls) == 0 {
		return usage()
	}
	for _, raw := range urls {
		if rc := wgetOne(n, src, ctx, raw, quiet, spider, showResp, output, postData, hasPost, agent, timeout, headers); rc != 0 {
			return rc
		}
	}
	return 0
}

func wgetOne(n *Network, src Source, ctx *shell.Context, raw string, quiet, spider, showResp bool, output, postData string, hasPost bool, agent string, timeout time.Duration, headers []HeaderField) int {
	u, err := ParseURL(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		fmt.Fprintf(ctx.Stderr, "wget: not an http or ftp url: %s\n", raw)
		return 1
	}
	method := "GET"
	if hasPost {
		method = "POST"
	}
	req := Request{Method: method, Path: u.Path, Body: postData}
	req.Header = append(req.Header, HeaderField{Name: "Host", Value: u.HostHeader()}, HeaderField{Name: "User-Agent", Value: agent})
	req.Header = mergeHeaders(req.Header, headers)
	_, addrs, lerr := n.Lookup(src.Resolv, u.Host)
	if lerr != nil {
		fmt.Fprintf(ctx.Stderr, "wget: bad address '%s'\n", u.Host)
		return 1
	}
	if !quiet {
		fmt.Fprintf(ctx.Stderr, "Connecting to %s (%s:%d)\n", u.Host, addrs[0], u.Port)
	}
	ex := n.DoAddrs(src, u, addrs, req, timeout)
	switch ex.Err {
	case nil:
	case ErrTimeout:
		if timeout > 0 {
			fmt.Fprintf(ctx.Stderr, "wget: download timed out\n")
			return 1
		}
		fmt.Fprintf(ctx.Stderr, "wget: can't connect to remote host (%s): Connection timed out\n", ex.Addr)
		return 1
	case ErrConnectionRefused:
		fmt.Fprintf(ctx.Stderr, "wget: can't connect to remote host (%s): Connection refused\n", ex.Addr)
		return 1
	case ErrHostUnreachable:
		fmt.Fprintf(ctx.Stderr, "wget: can't connect to remote host (%s): No route to host\n", ex.Addr)
		return 1
	default:
		fmt.Fprintf(ctx.Stderr, "wget: %v\n", ex.Err)
		return 1
	}
	resp := ex.Response
	if resp == nil {
		resp = &Response{Status: 200}
	}
	proto := resp.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	statusLine := fmt.Sprintf("%s %d %s", proto, resp.Status, StatusText(resp.Status))
	if showResp {
		fmt.Fprintf(ctx.Stderr, "  %s\n", statusLine)
		for _, h := range resp.Header {
			fmt.Fprintf(ctx.Stderr, "  %s: %s\n", h.Name, h.Value)
		}
	}
	if resp.Status >= 400 {
		fmt.Fprintf(ctx.Stderr, "wget: server returned error: %s\n", statusLine)
		return 1
	}
	if spider {
		if !quiet {
			fmt.Fprintf(ctx.Stderr, "remote file exists\n")
		}
		return 0
	}
	name := output
	if name == "" {
		name = path.Base(strings.SplitN(u.Path, "?", 2)[0])
		if name == "/" || name == "." || name == "" {
			name = "index.html"
		}
	}
	size := fmt.Sprintf("%d", len(resp.Body))
	if name == "-" {
		if !quiet {
			fmt.Fprintf(ctx.Stderr, "writing to stdout\n")
		}
		io.WriteString(ctx.Stdout, resp.Body)
		if !quiet {
			fmt.Fprintf(ctx.Stderr, "%-20.20s 100%% |%s| %5s  0:00:00 ETA\nwritten to stdout\n", "-", strings.Repeat("*", 32), size)
		}
		return 0
	}
	if output == "" && ctx.FS.Exists(ctx.Abs(name)) {
		fmt.Fprintf(ctx.Stderr, "wget: can't open '%s': File exists\n", name)
		return 1
	}
	if !quiet {
		fmt.Fprintf(ctx.Stderr, "saving to '%s'\n", name)
	}
	if err := ctx.WriteFile(name, []byte(resp.Body), false); err != nil {
		fmt.Fprintf(ctx.Stderr, "wget: can't open '%s': No such file or directory\n", name)
		return 1
	}
	if !quiet {
		fmt.Fprintf(ctx.Stderr, "%-20.20s 100%% |%s| %5s  0:00:00 ETA\n'%s' saved\n", name, strings.Repeat("*", 32), size, name)
	}
	return 0
}
