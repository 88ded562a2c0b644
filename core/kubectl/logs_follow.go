package kubectl

import (
	"fmt"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
)

// In a session file nobody presses Ctrl-C: `logs -f` ends once no line has
// come for followIdleEnd, and after followSessionMax at most. At a live
// terminal it follows until Ctrl-C, or until every followed container has
// stopped, as the real stream closes then.
const (
	followIdleEnd    = 30 * time.Second
	followSessionMax = 5 * time.Minute
)

// logStream is one container's log in a pod.
type logStream struct {
	pod       *api.Pod
	container string
}

// containerID is the stream's container as the pod last reported it.
func (s logStream) containerID() string {
	if st := s.pod.ContainerStatusFor(s.container); st != nil {
		return st.ContainerID
	}
	return ""
}

// followLogs streams the lines the containers write from now on; seen
// holds how many lines of each stream were already accounted for.
func (inv *Invocation) followLogs(streams []logStream, seen map[logStream]int, print func(s logStream, text string)) error {
	quiet := time.Duration(0)
	for elapsed := time.Duration(0); ; elapsed += time.Second {
		if !inv.Env.Interactive && (quiet >= followIdleEnd || elapsed >= followSessionMax) {
			return nil
		}
		if !inv.advance(time.Second) {
			return nil
		}
		quiet += time.Second
		running := false
		for _, s := range streams {
			cur, err := client.Get[*api.Pod](inv.Env.Client, s.pod.Namespace, s.pod.Name)
			if err != nil || cur.UID != s.pod.UID {
				continue // the pod is gone, and its stream with it
			}
			lines := logLines(inv, s)
			if n := len(lines); n > seen[s] {
				print(s, strings.Join(lines[seen[s]:], ""))
				seen[s] = n
				quiet = 0
			}
			running = running || cur.SameContainerLive(s.container, s.containerID())
		}
		if !running {
			return nil
		}
	}
}

// logLines is a container's whole current log, a line per element.
func logLines(inv *Invocation, s logStream) []string {
	out, err := inv.Env.Logs(LogsRequest{Namespace: s.pod.Namespace, Pod: s.pod.Name, Container: s.container,
		TailLines: -1, Timestamps: inv.Flags.Bool("timestamps")})
	if err != nil || out == "" {
		return nil
	}
	lines := strings.SplitAfter(out, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// prefixLines puts kubectl's --prefix tag before each line.
func prefixLines(pod *api.Pod, container, text string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if line != "" {
			fmt.Fprintf(&b, "[pod/%s/%s] %s", pod.Name, container, line)
		}
	}
	return b.String()
}
