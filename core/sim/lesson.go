package sim

import (
	"fmt"
	"path"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/lesson"
)

// NewLessonTerminal returns a terminal on the cluster a lesson starts
// from: its nodes (each with a kubelet), its files (served at their URLs
// and in the home directory), and its setup commands already run.
func NewLessonTerminal(l *lesson.Lesson, opts Options) (*Terminal, error) {
	c := NewDefault(opts)
	cl := c.Client("kubeplay")
	for _, n := range l.Cluster.Nodes {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n.Name, Labels: map[string]string{
			"kubernetes.io/hostname": n.Name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
			"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64",
		}}}
		for k, v := range n.Labels {
			node.Labels[k] = v
		}
		node.Spec.Taints = append(node.Spec.Taints, n.Taints...)
		if n.PodCIDR != "" {
			node.Spec.PodCIDR, node.Spec.PodCIDRs = n.PodCIDR, []string{n.PodCIDR}
		}
		if n.ControlPlane {
			node.Labels["node-role.kubernetes.io/control-plane"] = ""
			if len(n.Taints) == 0 {
				node.Spec.Taints = []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}}
			}
		}
		if n.IP != "" {
			node.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: n.IP}, {Type: "Hostname", Address: n.Name}}
		}
		if _, err := client.Create(cl, node); err != nil {
			return nil, fmt.Errorf("lesson %s: node %s: %v", l.Name, n.Name, err)
		}
	}
	if len(l.Cluster.Nodes) == 0 {
		c.AddDefaultNode()
	}
	c.Settle()
	t := NewTerminal(c)
	for name, b := range l.Files {
		if rest, ok := strings.CutPrefix(name, "home/"); ok {
			p := path.Join("/root", rest)
			_ = t.FS.MkdirAll(path.Dir(p), 0o755)
			_ = t.FS.WriteFile(p, b, 0o644)
			continue
		}
		t.Files[name] = b
	}
	for _, cmd := range l.Cluster.Setup {
		t.Run(cmd)
	}
	return t, nil
}

// CheckStep evaluates a step's checks on the terminal's cluster, in a
// terminal of their own so nothing the learner set up is disturbed.
func (t *Terminal) CheckStep(s *lesson.Step) []lesson.Result {
	side := NewTerminal(t.Cluster)
	side.Config = t.Config
	out := make([]lesson.Result, 0, len(s.Checks))
	for i := range s.Checks {
		out = append(out, lesson.Evaluate(&s.Checks[i], side.Run))
	}
	return out
}

// PlayLesson runs every step of a lesson on its starting cluster and checks
// each step after its commands. It returns the transcript (session
// format, a comment per step) and the checks that failed.
func PlayLesson(l *lesson.Lesson, seed uint64) (string, []string, error) {
	term, err := NewLessonTerminal(l, Options{Seed: seed})
	if err != nil {
		return "", nil, err
	}
	defer term.Cluster.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "# lesson: %s (%s)\n# rows: %s\n", l.Title.En, l.Name, strings.Join(l.Rows, ", "))
	var bad []string
	for i := range l.Steps {
		s := &l.Steps[i]
		for j, cmd := range s.Commands {
			if j == 0 {
				fmt.Fprintf(&b, "# step %d: %s\n", i+1, s.Title.En)
			}
			fmt.Fprintf(&b, "$ %s\n", cmd)
			b.WriteString(term.Run(cmd))
		}
		for _, r := range term.CheckStep(s) {
			if !r.OK {
				bad = append(bad, fmt.Sprintf("step %d: %s", i+1, r))
			}
		}
	}
	return b.String(), bad, nil
}
