package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/apiserver/protobuf"
	"kubeplay/core/kubectl"
	"kubeplay/core/sim"
)

// runServe is `kubeplay serve`: the built site and the Kubernetes API on
// one address, the virtual clock following the wall clock (--speed times
// faster).
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", defaultAddr(), "address to listen on")
	kubeconfig := fs.String("kubeconfig", "", "write a kubeconfig for this server to FILE")
	speed := fs.Float64("speed", 1, "virtual seconds per wall-clock second")
	dir := fs.String("dir", "dist", "directory of the built site")
	seed := fs.Uint64("seed", 1, "random seed of the simulated cluster")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *speed <= 0 {
		fmt.Fprintln(stderr, "kubeplay serve: --speed must be positive")
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "kubeplay serve: %v\n", err)
		return 1
	}
	url := "http://" + ln.Addr().String()
	if *kubeconfig != "" {
		if err := os.WriteFile(*kubeconfig, []byte(kubeconfigFor(url)), 0o600); err != nil {
			fmt.Fprintf(stderr, "kubeplay serve: %v\n", err)
			return 1
		}
	}
	// The virtual clock starts at the wall clock's time and follows it.
	c := sim.NewDefault(sim.Options{Seed: *seed, Start: time.Now().UTC().Truncate(time.Second)})
	c.AddDefaultNode()
	c.Settle()
	e := &engine{cluster: c, speed: *speed, last: time.Now()}
	go e.follow()
	mux := e.routes(precompressed(*dir, http.FileServer(http.Dir(*dir))))
	fmt.Fprintf(stdout, "kubeplay: serving %s (site from %s/, Kubernetes API at %s)\n", url, *dir, url)
	if err := http.Serve(ln, mux); err != nil {
		fmt.Fprintf(stderr, "kubeplay serve: %v\n", err)
		return 1
	}
	return 0
}

func defaultAddr() string {
	if p := os.Getenv("PORT"); p != "" {
		return "127.0.0.1:" + p
	}
	return "127.0.0.1:8080"
}

// engine serialises everything that drives the cluster: API requests and
// the clock that follows the wall clock.
type engine struct {
	mu      sync.Mutex
	cluster *sim.Cluster
	speed   float64
	last    time.Time
}

// routes serves the Kubernetes API on its paths and site on the rest.
func (e *engine) routes(site http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	api := &apiserver.Handler{Server: e.cluster.API, Actor: "kubectl", Protobuf: protobuf.ToJSON}
	mux.Handle("/", site)
	for _, p := range []string{"/api", "/api/", "/apis", "/apis/", "/version", "/openapi/", "/healthz", "/readyz", "/livez"} {
		mux.Handle(p, e.locked(api))
	}
	return mux
}

func (e *engine) follow() {
	for range time.Tick(100 * time.Millisecond) {
		e.mu.Lock()
		now := time.Now()
		d := time.Duration(float64(now.Sub(e.last)) * e.speed)
		e.last = now
		e.cluster.Advance(d)
		e.mu.Unlock()
	}
}

func (e *engine) locked(h *apiserver.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ar, err := apiRequest(r)
		if err != nil {
			apiserver.WriteError(apiWriter{w}, apierrors.NewBadRequest(err.Error()))
			return
		}
		e.mu.Lock()
		if o, ok := h.ParseExec(ar); ok {
			e.exec(w, r, h, o) // unlocks
			return
		}
		if o, ok := h.ParseLogFollow(ar); ok {
			e.followLogs(w, r, ar, h, o) // unlocks
			return
		}
		wr, isWatch, err := h.ParseWatch(ar)
		if isWatch {
			e.watch(w, r, h, wr, err) // unlocks
			return
		}
		defer e.mu.Unlock()
		h.Serve(apiWriter{w}, ar)
		e.cluster.Settle()
	})
}

// watch streams a watch's events: they are queued from inside the engine
// (under its lock) and written out here without it.
func (e *engine) watch(w http.ResponseWriter, r *http.Request, h *apiserver.Handler, wr *apiserver.WatchRequest, perr error) {
	var (
		qmu    sync.Mutex
		queue  [][]byte
		wakeup = make(chan struct{}, 1)
	)
	emit := func(line []byte) {
		qmu.Lock()
		queue = append(queue, line)
		qmu.Unlock()
		select {
		case wakeup <- struct{}{}:
		default:
		}
	}
	var stop func()
	err := perr
	if err == nil {
		stop, err = h.StartWatch(wr, emit)
	}
	e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if err != nil {
		w.Write(apiserver.WatchError(err))
		return
	}
	defer func() {
		e.mu.Lock()
		stop()
		e.mu.Unlock()
	}()
	timeout := 30 * time.Minute
	if wr.Timeout > 0 {
		timeout = time.Duration(float64(wr.Timeout) / e.speed)
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		qmu.Lock()
		lines := queue
		queue = nil
		qmu.Unlock()
		for _, l := range lines {
			if _, err := w.Write(l); err != nil {
				return
			}
		}
		if flusher != nil {
			flusher.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-deadline.C:
			return
		case <-wakeup:
		}
	}
}

// kubeconfigFor is a kubeconfig for the real kubectl that names the
// cluster, user and context as the terminal's own kubeconfig does (kubeadm's
// admin), so config commands read the same on both.
func kubeconfigFor(url string) string {
	c := kubectl.NewConfig()
	ctx := c.Contexts[0]
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- cluster:
    server: %s
  name: %s
contexts:
- context:
    cluster: %s
    user: %s
  name: %s
current-context: %s
users:
- name: %s
  user: {}
`, url, ctx.Cluster, ctx.Cluster, ctx.AuthInfo, ctx.Name, c.CurrentContext, ctx.AuthInfo)
}
