package network

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/shell"
)

// CurlVersion is the curl the tools impersonate (curlimages/curl and
// current distributions ship 8.x).
const CurlVersion = "8.11.1"

// Curl is the curl command run from namespace from ("" on a node).
func Curl(n *Network, from string) shell.Command {
	src := NodeSource("")
	if from != "" {
		src = PodSource(from, "")
	}
	return CurlFrom(n, src)
}

// CurlFrom is the curl command run from src.
func CurlFrom(n *Network, src Source) shell.Command {
	return func(ctx *shell.Context, args []string) int {
		return runCurl(n, src, ctx, args)
	}
}

type curlOpts struct {
	silent, showError, include, head, verbose, fail, insecure, location bool
	output, writeOut, method, data, userAgent, cacert                   string
	hasData                                                             bool
	maxTime, connectTimeout                                             time.Duration
	headers                                                             []HeaderField
	urls                                                                []string
}

// curl's options that take a value.
var curlValueOpts = map[string]string{
	"-o": "output", "--output": "output", "-w": "write-out", "--write-out": "write-out",
	"-m": "max-time", "--max-time": "max-time", "--connect-timeout": "connect-timeout",
	"-H": "header", "--header": "header", "-X": "request", "--request": "request",
	"-d": "data", "--data": "data", "--data-raw": "data-raw", "--data-binary": "data", "--data-ascii": "data",
	"-A": "user-agent", "--user-agent": "user-agent", "--cacert": "cacert", "--retry": "retry",
	"-u": "user", "--user": "user", "-e": "referer", "--referer": "referer",
}

var curlFlagOpts = map[string]string{
	"-s": "silent", "--silent": "silent", "-S": "show-error", "--show-error": "show-error",
	"-i": "include", "--include": "include", "-I": "head", "--head": "head",
	"-v": "verbose", "--verbose": "verbose", "-f": "fail", "--fail": "fail",
	"-k": "insecure", "--insecure": "insecure", "-L": "location", "--location": "location",
	"-4": "ipv4", "--ipv4": "ipv4", "--http1.1": "http1.1", "-N": "no-buffer", "--no-buffer": "no-buffer",
	"-#": "progress-bar", "--progress-bar": "progress-bar", "--compressed": "compressed", "-q": "disable",
}

func curlUsageError(ctx *shell.Context, msg string) int {
	fmt.Fprintf(ctx.Stderr, "curl: %s\ncurl: try 'curl --help' for more information\n", msg)
	return 2
}

func parseCurlArgs(ctx *shell.Context, args []string) (*curlOpts, int) {
	o := &curlOpts{}
	set := func(name, val string) int {
		switch name {
		case "output":
			o.output = val
		case "write-out":
			o.writeOut = val
		case "max-time", "connect-timeout":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || f < 0 {
				return curlUsageError(ctx, "option --"+name+": expected a proper numerical parameter")
			}
			d := time.Duration(f * float64(time.Second))
			if name == "max-time" {
				o.maxTime = d
			} else {
				o.connectTimeout = d
			}
		case "header":
			k, v, ok := strings.Cut(val, ":")
			if ok {
				o.headers = append(o.headers, HeaderField{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
			}
		case "request":
			o.method = val
		case "data", "data-raw":
			if name == "data" && strings.HasPrefix(val, "@") {
				b, err := ctx.ReadFile(val[1:])
				if err != nil {
					fmt.Fprintf(ctx.Stderr, "Warning: Couldn't read data from file \"%s\", this makes an empty \nWarning: POST.\n", val[1:])
				}
				val = strings.ReplaceAll(string(b), "\n", "")
			}
			if o.hasData {
				o.data += "&" + val
			} else {
				o.data = val
			}
			o.hasData = true
		case "user-agent":
			o.userAgent = val
		case "cacert":
			o.cacert = val
		}
		return 0
	}
	flag := func(name string) {
		switch name {
		case "silent":
			o.silent = true
		case "show-error":
			o.showError = true
		case "include":
			o.include = true
		case "head":
			o.head = true
		case "verbose":
			o.verbose = true
		case "fail":
			o.fail = true
		case "insecure":
			o.insecure = true
		case "location":
			o.location = true
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.urls = append(o.urls, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			if name, ok := curlFlagOpts[a]; ok {
				flag(name)
			} else if name, ok := curlValueOpts[a]; ok {
				if i+1 >= len(args) {
					return nil, curlUsageError(ctx, "option "+a+": requires parameter")
				}
				i++
				if rc := set(name, args[i]); rc != 0 {
					return nil, rc
				}
			} else if a == "--url" && i+1 < len(args) {
				i++
				o.urls = append(o.urls, args[i])
			} else {
				return nil, curlUsageError(ctx, "option "+a+": is unknown")
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// Short options combine ("-sSL"); a value may follow attached ("-o/dev/null").
			for j := 1; j < len(a); j++ {
				opt := "-" + string(a[j])
				if name, ok := curlFlagOpts[opt]; ok {
					flag(name)
					continue
				}
				name, ok := curlValueOpts[opt]
				if !ok {
					return nil, curlUsageError(ctx, "option "+a+": is unknown")
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, curlUsageError(ctx, "option "+opt+": requires parameter")
					}
					i++
					val = args[i]
				}
				if rc := set(name, val); rc != 0 {
					return nil, rc
				}
				break
			}
		default:
			o.urls = append(o.urls, a)
		}
	}
	return o, 0
}

func runCurl(n *Network, src Source, ctx *shell.Context, args []string) int {
	o, rc := parseCurlArgs(ctx, args)
	if o == nil {
		return rc
	}
	if len(o.urls) == 0 {
		fmt.Fprint(ctx.Stderr, "curl: no URL specified!\ncurl: try 'curl --help' or 'curl --manual' for more information\n")
		return 2
	}
	code := 0
	for _, raw := range o.urls {
		code = curlOne(n, src, ctx, o, raw)
	}
	return code
}

// curlFail prints curl's error line (unless silenced) and returns the code.
func curlFail(ctx *shell.Context, o *curlOpts, code int, msg string) int {
	if o.verbose {
		fmt.Fprintf(ctx.Stderr, "* closing connection #0\n")
	}
	if !o.silent || o.showError {
		fmt.Fprintf(ctx.Stderr, "curl: (%d) %s\n", code, msg)
	}
	return code
}

func curlOne(n *Network, src Source, ctx *shell.Context, o *curlOpts, raw string) int {
	u, err := ParseURL(raw)
	if err != nil {
		return curlFail(ctx, o, 3, err.Error())
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return curlFail(ctx, o, 1, fmt.Sprintf("Protocol \"%s\" not supported", u.Scheme))
	}
	method := "GET"
	if o.hasData {
		method = "POST"
	}
	if o.head {
		method = "HEAD"
	}
	if o.method != "" {
		method = o.method
	}
	ua := "curl/" + CurlVersion
	if o.userAgent != "" {
		ua = o.userAgent
	}
	req := Request{Method: method, Scheme: u.Scheme, Host: u.HostHeader(), Path: u.Path, Body: o.data}
	req.Header = append(req.Header, HeaderField{Name: "Host", Value: u.HostHeader()}, HeaderField{Name: "User-Agent", Value: ua}, HeaderField{Name: "Accept", Value: "*/*"})
	if o.hasData {
		req.Header = append(req.Header, HeaderField{Name: "Content-Length", Value: strconv.Itoa(len(o.data))})
		if _, ok := Get(o.headers, "Content-Type"); !ok {
			req.Header = append(req.Header, HeaderField{Name: "Content-Type", Value: "application/x-www-form-urlencoded"})
		}
	}
	req.Header = mergeHeaders(req.Header, o.headers)
	limit := o.maxTime
	if o.connectTimeout > 0 && (limit == 0 || o.connectTimeout < limit) {
		limit = o.connectTimeout
	}
	ex := n.Do(src, u, req, limit)
	if de, ok := ex.Err.(*DNSError); ok {
		if !de.NotFound {
			// No nameserver answered: glibc gives up after its timeouts.
			if src.Sleep != nil {
				src.Sleep(10 * time.Second)
			}
		}
		return curlWriteOutOnError(ctx, o, u, 6, "Could not resolve host: "+u.Host)
	}
	if o.verbose {
		if ex.Addr != u.Host {
			fmt.Fprintf(ctx.Stderr, "* Host %s:%d was resolved.\n* IPv6: (none)\n* IPv4: %s\n", u.Host, u.Port, strings.Join(ex.Resolved, ", "))
		}
		fmt.Fprintf(ctx.Stderr, "*   Trying %s:%d...\n", ex.Addr, u.Port)
	}
	ms := ex.Elapsed.Milliseconds()
	switch ex.Err {
	case nil:
	case ErrConnectionRefused, ErrHostUnreachable:
		if o.verbose {
			reason := "Connection refused"
			if ex.Err == ErrHostUnreachable {
				reason = "No route to host"
			}
			fmt.Fprintf(ctx.Stderr, "* connect to %s port %d from %s port 0 failed: %s\n", ex.Addr, u.Port, src.IP, reason)
			fmt.Fprintf(ctx.Stderr, "* Failed to connect to %s port %d after %d ms: Couldn't connect to server\n", u.Host, u.Port, ms)
		}
		return curlWriteOutOnError(ctx, o, u, 7, fmt.Sprintf("Failed to connect to %s port %d after %d ms: Couldn't connect to server", u.Host, u.Port, ms))
	case ErrTimeout:
		if limit > 0 && ex.Elapsed >= limit {
			return curlWriteOutOnError(ctx, o, u, 28, fmt.Sprintf("Connection timed out after %d milliseconds", ms+1))
		}
		return curlWriteOutOnError(ctx, o, u, 28, fmt.Sprintf("Failed to connect to %s port %d after %d ms: Couldn't connect to server", u.Host, u.Port, ms))
	default:
		return curlWriteOutOnError(ctx, o, u, 7, ex.Err.Error())
	}
	if o.verbose {
		fmt.Fprintf(ctx.Stderr, "* Connected to %s (%s) port %d\n", u.Host, ex.Addr, u.Port)
	}
	if u.Scheme == "https" && !o.insecure && o.cacert == "" {
		return curlFail(ctx, o, 60, "SSL certificate problem: unable to get local issuer certificate\n"+
			"More details here: https://curl.se/docs/sslcerts.html\n\n"+
			"curl failed to verify the legitimacy of the server and therefore could not\n"+
			"establish a secure connection to it. To learn more about this situation and\n"+
			"how to fix it, please visit the webpage mentioned above.")
	}
	resp := ex.Response
	if resp == nil {
		resp = &Response{Status: 200}
	}
	head := responseHead(resp, method)
	if o.verbose {
		fmt.Fprintf(ctx.Stderr, "* using HTTP/1.x\n")
		fmt.Fprintf(ctx.Stderr, "> %s %s HTTP/1.1\r\n", method, u.Path)
		for _, h := range req.Header {
			fmt.Fprintf(ctx.Stderr, "> %s: %s\r\n", h.Name, h.Value)
		}
		fmt.Fprintf(ctx.Stderr, "> \r\n")
		if o.hasData {
			fmt.Fprintf(ctx.Stderr, "} [%d bytes data]\n", len(o.data))
		}
		fmt.Fprintf(ctx.Stderr, "* Request completely sent off\n")
		for _, line := range strings.SplitAfter(head, "\r\n") {
			if line != "" {
				fmt.Fprintf(ctx.Stderr, "< %s", line)
			}
		}
	}
	if o.fail && resp.Status >= 400 {
		return curlWriteOutOnError(ctx, o, u, 22, fmt.Sprintf("The requested URL returned error: %d", resp.Status))
	}
	var out strings.Builder
	if o.include || o.head {
		out.WriteString(head)
	}
	if method != "HEAD" {
		out.WriteString(resp.Body)
	}
	if o.output != "" && o.output != "-" {
		if err := ctx.WriteFile(o.output, []byte(out.String()), false); err != nil {
			fmt.Fprintf(ctx.Stderr, "Warning: Failed to open the file %s: No such file or directory\n", o.output)
			return curlFail(ctx, o, 23, fmt.Sprintf("client returned ERROR on write of %d bytes", out.Len()))
		}
	} else {
		io.WriteString(ctx.Stdout, out.String())
	}
	if o.verbose {
		fmt.Fprintf(ctx.Stderr, "* Connection #0 to host %s left intact\n", u.Host)
	}
	if o.writeOut != "" {
		io.WriteString(ctx.Stdout, writeOut(o.writeOut, u, ex, resp, method, 0))
	}
	return 0
}

// curlWriteOutOnError prints -w's output (curl still does, with the code
// 000) and then the error.
func curlWriteOutOnError(ctx *shell.Context, o *curlOpts, u *URL, code int, msg string) int {
	rc := curlFail(ctx, o, code, msg)
	if o.writeOut != "" {
		io.WriteString(ctx.Stdout, writeOut(o.writeOut, u, Exchange{}, nil, "", code))
	}
	return rc
}

func mergeHeaders(base, extra []HeaderField) []HeaderField {
	out := append([]HeaderField{}, base...)
	for _, h := range extra {
		replaced := false
		for i := range out {
			if equalFold(out[i].Name, h.Name) {
				out[i] = h
				replaced = true
			}
		}
		if !replaced {
			out = append(out, h)
		}
	}
	// An empty value removes a header, as curl's -H "Accept:" does.
	kept := out[:0]
	for _, h := range out {
		if h.Value != "" {
			kept = append(kept, h)
		}
	}
	return kept
}

// responseHead is the status line and headers as sent, CRLF-terminated,
// with Content-Length added when the server gave none.
func responseHead(resp *Response, method string) string {
	proto := resp.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d %s\r\n", proto, resp.Status, StatusText(resp.Status))
	for _, h := range resp.Header {
		fmt.Fprintf(&b, "%s: %s\r\n", h.Name, h.Value)
	}
	if _, ok := Get(resp.Header, "Content-Length"); !ok {
		if _, chunked := Get(resp.Header, "Transfer-Encoding"); !chunked {
			fmt.Fprintf(&b, "Content-Length: %d\r\n", len(resp.Body))
		}
	}
	b.WriteString("\r\n")
	return b.String()
}

// writeOut expands -w's format: %{variable}, %% and backslash escapes.
func writeOut(format string, u *URL, ex Exchange, resp *Response, method string, exitCode int) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			b.WriteByte('%')
			i++
		case c == '%' && i+1 < len(format) && format[i+1] == '{':
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				b.WriteString(format[i:])
				return b.String()
			}
			name := format[i+2 : i+end]
			b.WriteString(writeOutVar(name, u, ex, resp, method, exitCode))
			i += end
		case c == '\\' && i+1 < len(format):
			switch format[i+1] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(format[i+1])
			}
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func writeOutVar(name string, u *URL, ex Exchange, resp *Response, method string, exitCode int) string {
	status := 0
	body, ctype := "", ""
	if resp != nil {
		status, body = resp.Status, resp.Body
		ctype, _ = Get(resp.Header, "Content-Type")
	}
	switch name {
	case "http_code", "response_code":
		return fmt.Sprintf("%03d", status)
	case "remote_ip":
		return ex.Addr
	case "remote_port":
		if ex.Addr == "" {
			return "0"
		}
		return strconv.Itoa(u.Port)
	case "size_download":
		if method == "HEAD" {
			return "0"
		}
		return strconv.Itoa(len(body))
	case "url_effective", "url":
		return u.String()
	case "content_type":
		return ctype
	case "exitcode":
		return strconv.Itoa(exitCode)
	case "method":
		return method
	case "num_redirects", "num_connects":
		if name == "num_connects" && resp != nil {
			return "1"
		}
		return "0"
	case "time_total", "time_connect", "time_namelookup", "time_starttransfer":
		return fmt.Sprintf("%.6f", ex.Elapsed.Seconds())
	case "scheme":
		return strings.ToUpper(u.Scheme)
	}
	return ""
}
