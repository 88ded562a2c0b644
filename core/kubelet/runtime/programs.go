package runtime

import (
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"kubeplay/core/shell"
)

// registerPrograms puts the image's programs that need the runtime (they
// sleep on the virtual clock, listen on ports, list processes) into the
// shell that runs process p.
func registerPrograms(p *Process, sh *shell.Shell) {
	sh.Register("sleep", func(ctx *shell.Context, args []string) int {
		d, err := shell.ParseSleep(args)
		if err != nil {
			fmt.Fprintln(ctx.Stderr, err)
			return 1
		}
		if sig := p.sleep(d); sig != 0 {
			return 128 + sig
		}
		return 0
	})
	sh.Register("nginx", func(ctx *shell.Context, args []string) int {
		if len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
			fmt.Fprintf(ctx.Stderr, "nginx version: nginx/%s\n", nginxVersion(p.c.cfg.Image))
			return 0
		}
		nginxStart(p, ctx.Stderr)
		p.traps = map[int]bool{SIGTERM: true}
		for p.sleep(-1) == 0 {
		}
		nginxStop(p, ctx.Stderr)
		return 0
	})
	sh.Register("docker-entrypoint.sh", func(ctx *shell.Context, args []string) int {
		if len(args) == 0 {
			return 0
		}
		if args[0] == "nginx" || args[0] == "nginx-debug" {
			fmt.Fprint(ctx.Stdout, nginxEntrypointNotice)
		}
		return runArgvIn(ctx.Shell, args, ctx.Stdin, ctx.Stdout, ctx.Stderr)
	})
	sh.Register("pause", func(ctx *shell.Context, args []string) int {
		p.traps = map[int]bool{SIGTERM: true}
		p.sleep(-1)
		return 0
	})
	for name := range daemons {
		sh.Register(name, func(ctx *shell.Context, args []string) int {
			daemonListen(p, ctx.Name)
			p.traps = map[int]bool{SIGTERM: true}
			p.sleep(-1)
			return 0
		})
	}
	sh.Register("app", func(ctx *shell.Context, args []string) int {
		appStart(p)
		p.traps = map[int]bool{SIGTERM: true}
		p.sleep(-1)
		return 0
	})
	sh.Register("ps", func(ctx *shell.Context, args []string) int { return psCmd(p, ctx, args) })
	sh.Register("perl", perlCmd)
}

// startNative starts the programs that need no coroutine when they are the
// whole command line: a plain sleep, pause, nginx. It reports whether it did.
func startNative(p *Process) bool {
	argv := p.Argv
	name := path.Base(argv[0])
	if name == "docker-entrypoint.sh" && len(argv) > 1 && path.Base(argv[1]) == "nginx" {
		p.c.stdout.writeBlock(p.c.rt.nginxNotice())
		// The entrypoint execs nginx, which retitles itself.
		argv, name = argv[1:], "nginx"
		p.title = "nginx: master process " + strings.Join(argv, " ")
	}
	switch name {
	case "sleep":
		d, err := shell.ParseSleep(argv[1:])
		if err != nil {
			return false
		}
		if d != shell.SleepForever {
			p.timer = p.c.rt.clock.AfterFunc(d, func() { p.timer = nil; p.exit(0) })
		}
		return true
	case "pause":
		p.onSignal = func(sig int) { p.exit(0) }
		return true
	case "app":
		appStart(p)
		p.onSignal = func(sig int) { p.exit(0) }
		return true
	case "nginx":
		if len(argv) > 1 && argv[1] != "-g" {
			return false
		}
		nginxStart(p, &p.c.stderr)
		p.onSignal = func(sig int) {
			if sig == SIGTERM || sig == 3 || sig == 2 {
				nginxStop(p, &p.c.stderr)
				p.exit(0)
			}
		}
		return true
	}
	if daemons[name] {
		daemonListen(p, name)
		p.onSignal = func(sig int) { p.exit(0) }
		return true
	}
	return false
}

// daemonListen opens the ports a daemon's probes and clients use: CoreDNS
// answers /health on 8080 and /ready on 8181 (the DNS answers themselves
// come from the cluster network model).
func daemonListen(p *Process, name string) {
	ok := func(body string) Handler {
		return func(*Request) *Response {
			return &Response{Status: 200, Header: map[string]string{"Content-Type": "text/plain; charset=utf-8"}, Body: body}
		}
	}
	switch name {
	case "coredns":
		p.c.Listen(53, ok(""))
		p.c.Listen(8080, ok("OK"))
		p.c.Listen(8181, ok("OK"))
		p.c.Listen(9153, ok(""))
	case "kube-apiserver":
		p.c.Listen(6443, ok("ok"))
	case "etcd":
		p.c.Listen(2379, ok(""))
		p.c.Listen(2381, ok(`{"health":"true","reason":""}`))
	case "kube-proxy":
		p.c.Listen(10256, ok(""))
	case "redis-server":
		p.c.Listen(6379, ok(""))
	case "httpd-foreground":
		p.c.Listen(80, ok("<html><body><h1>It works!</h1></body></html>\n"))
	case "prometheus":
		p.c.Listen(9090, ok("Prometheus Server is Healthy.\n"))
	}
}

// appStart serves the seeds' app image: a small web app on port 8080.
func appStart(p *Process) {
	c := p.c
	_, tag := repoTag(c.cfg.Image.Ref)
	fmt.Fprintf(&c.stdout, "app %s listening on :8080\n", tag)
	c.Listen(8080, func(req *Request) *Response {
		body := fmt.Sprintf("Hello from app %s on %s\n", tag, c.cfg.Hostname)
		if req.Path == "/healthz" {
			body = "ok\n"
		}
		return &Response{Status: 200, Header: map[string]string{"Content-Type": "text/plain"}, Body: body}
	})
}

const nginxEntrypointNotice = `/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration
/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/
/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh
10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf
10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf
/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh
/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh
/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh
/docker-entrypoint.sh: Configuration complete; ready for start up
`

func nginxVersion(im *Image) string {
	_, tag := repoTag(im.Ref)
	v := strings.TrimPrefix(tag, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "1.27.3"
	}
	if strings.Count(v, ".") == 1 {
		v += ".0"
	}
	return strings.SplitN(v, "-", 2)[0]
}

// nginxStart starts serving files on port 80, as the nginx images do.
func nginxStart(p *Process, log interface{ Write([]byte) (int, error) }) {
	c := p.c
	// One write of plain text: every nginx container of a workload starts
	// with these lines.
	ts := c.rt.clock.Now().UTC().Format("2006/01/02 15:04:05")
	io.WriteString(log, ts+" [notice] 1#1: using the \"epoll\" event method\n"+
		ts+" [notice] 1#1: nginx/"+nginxVersion(c.cfg.Image)+"\n"+
		ts+" [notice] 1#1: start worker processes\n"+
		ts+" [notice] 1#1: start worker process 29\n")
	c.Listen(80, func(req *Request) *Response { return nginxServe(c, req) })
}

func nginxStop(p *Process, log interface{ Write([]byte) (int, error) }) {
	ts := p.c.rt.clock.Now().UTC().Format("2006/01/02 15:04:05")
	fmt.Fprintf(log, "%s [notice] 1#1: signal 15 (SIGTERM) received, exiting\n", ts)
	fmt.Fprintf(log, "%s [notice] 1#1: exit\n", ts)
}

// nginxServe answers a request from /usr/share/nginx/html; /info answers
// time|podIP|image as the seeds' images do.
func nginxServe(c *Container, req *Request) *Response {
	now := c.rt.clock.Now().UTC()
	status, body := 200, ""
	urlPath, _, _ := strings.Cut(req.Path, "?")
	if urlPath == "" {
		urlPath = "/"
	}
	if hp := c.cfg.Image.HealthPath; hp != "" && urlPath == hp {
		body = "ok\n"
	} else if urlPath == "/info" {
		repo, tag := repoTag(c.cfg.Image.Ref)
		body = fmt.Sprintf("%s|%s|%s:%s\n", now.Format(time.RFC3339), c.cfg.PodIP, path.Base(repo), tag)
	} else {
		file := path.Join("/usr/share/nginx/html", path.Clean("/"+urlPath))
		dir := c.cfg.FS.IsDir(file)
		if dir {
			file = path.Join(file, "index.html")
		}
		b, err := c.cfg.FS.ReadFile(file)
		switch {
		case err == nil:
			body = string(b)
		case dir:
			// A directory without an index, and no autoindex.
			status, body = 403, nginxErrorPage("403 Forbidden", c.cfg.Image)
		default:
			status, body = 404, nginxErrorPage("404 Not Found", c.cfg.Image)
		}
	}
	ua := req.Header["User-Agent"]
	if ua == "" {
		ua = "-"
	}
	remote := req.RemoteIP
	if remote == "" {
		remote = "127.0.0.1"
	}
	fmt.Fprintf(&c.stdout, "%s - - [%s] \"%s %s HTTP/1.1\" %d %d \"-\" \"%s\" \"-\"\n", remote, now.Format("02/Jan/2006:15:04:05 -0700"), req.Method, req.Path, status, len(body), ua)
	return &Response{Status: status, Header: map[string]string{"Server": "nginx/" + nginxVersion(c.cfg.Image), "Content-Type": "text/html"}, Body: body}
}

// nginxErrorPage is nginx's built-in page for an error status.
func nginxErrorPage(status string, im *Image) string {
	return fmt.Sprintf("<html>\r\n<head><title>%s</title></head>\r\n<body>\r\n<center><h1>%s</h1></center>\r\n<hr><center>nginx/%s</center>\r\n</body>\r\n</html>\r\n", status, status, nginxVersion(im))
}

// psCmd lists the processes the container sees, as procps' ps does for
// `ps`, `ps aux`/`ps uax` and `ps -ef`.
func psCmd(self *Process, ctx *shell.Context, args []string) int {
	procs := self.c.procs.Running()
	if !self.exited && !contains(procs, self) {
		procs = append(procs, self)
	}
	if self.c.cfg.Image != nil && self.c.cfg.Image.Busybox {
		busyboxPS(ctx, procs)
		return 0
	}
	opt := strings.Join(args, " ")
	switch {
	case strings.Contains(opt, "-ef") || strings.Contains(opt, "-e"):
		fmt.Fprintln(ctx.Stdout, "UID          PID    PPID  C STIME TTY          TIME CMD")
		for _, p := range procs {
			tty := "?"
			if !p.isMain() {
				tty = "pts/0"
			}
			fmt.Fprintf(ctx.Stdout, "%-8s %7d %7d  0 %s %-8s %8s %s\n", p.user(), p.Pid, 0, p.Started.UTC().Format("15:04"), tty, "00:00:00", p.CommandLine())
		}
	case strings.ContainsAny(opt, "aux"):
		fmt.Fprintln(ctx.Stdout, "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND")
		for _, p := range procs {
			tty, stat, vsz, rss := "?", "Ss", 2788, 1024
			switch {
			case p == self:
				tty, stat, vsz, rss = "pts/0", "Rs+", 7060, 1536
			case p.c == nil:
				vsz, rss = 1020, 640
			case !p.isMain():
				tty, stat = "pts/0", "S+"
			}
			if strings.HasPrefix(path.Base(p.Argv[0]), "nginx") || strings.Contains(p.CommandLine(), "nginx") {
				vsz, rss = 11404, 7424
			}
			fmt.Fprintf(ctx.Stdout, "%-10s %6d  0.0  0.0 %6d %5d %-8s %-4s %s   0:00 %s\n", p.user(), p.Pid, vsz, rss, tty, stat, p.Started.UTC().Format("15:04"), p.CommandLine())
		}
	default:
		fmt.Fprintln(ctx.Stdout, "    PID TTY          TIME CMD")
		for _, p := range procs {
			tty := "?"
			if !p.isMain() {
				tty = "pts/0"
			}
			fmt.Fprintf(ctx.Stdout, "%7d %-8s %8s %s\n", p.Pid, tty, "00:00:00", path.Base(p.Argv[0]))
		}
	}
	return 0
}

// busyboxPS is busybox's ps, which takes no BSD or -e options and always
// prints the same four columns.
func busyboxPS(ctx *shell.Context, procs []*Process) {
	fmt.Fprintln(ctx.Stdout, "PID   USER     TIME  COMMAND")
	for _, p := range procs {
		fmt.Fprintf(ctx.Stdout, "%5d %-8s %5s %s\n", p.Pid, p.user(), "0:00", p.CommandLine())
	}
}

// isMain reports a container's main process (or the sandbox's pause),
// which has no terminal.
func (p *Process) isMain() bool { return p.c == nil || p == p.c.main }

// user is the process's user as ps names it: the pause image runs as
// 65535, which no other image's /etc/passwd names.
func (p *Process) user() string {
	if p.c == nil {
		return "65535"
	}
	return "root"
}

func contains(ps []*Process, p *Process) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}
