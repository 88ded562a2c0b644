// Package lesson reads guided lessons: data, not code. A lesson is a
// folder with lesson.yaml (titles and explanations in English and Chinese,
// the cluster it starts from, its steps with their commands and checks),
// the files its commands load, and the session transcript CI replays.
package lesson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
)

// Text is one piece of prose in both languages.
type Text struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// Lesson is one lesson.
type Lesson struct {
	// Name is the folder's name, the lesson's id in links.
	Name    string   `json:"-"`
	Title   Text     `json:"title"`
	Summary Text     `json:"summary"`
	Rows    []string `json:"rows"`
	Cluster Cluster  `json:"cluster"`
	Steps   []Step   `json:"steps"`
	// Files are the lesson's files by where commands find them: a URL's
	// host and path ("k8s-yaml.od.com/x.yaml") or, under "home/", the
	// learner's home directory.
	Files map[string][]byte `json:"-"`
	// Session is the transcript of the whole lesson, if the folder has one
	// (lessons.FS, which the page carries, leaves the transcripts out).
	Session string `json:"-"`
}

// Cluster is what the lesson starts from.
type Cluster struct {
	Nodes []Node `json:"nodes"`
	// Setup commands run before the first step, unseen.
	Setup []string `json:"setup"`
}

// Node is one node of the starting cluster.
type Node struct {
	Name string `json:"name"`
	IP   string `json:"ip"`
	// PodCIDR is the node's pod range (the seeds' 172.7.21.0/24).
	PodCIDR string            `json:"podCIDR"`
	Labels  map[string]string `json:"labels"`
	Taints  []api.Taint       `json:"taints"`
	// ControlPlane makes it a kubeadm control-plane node (static pods, the
	// control-plane label and NoSchedule taint).
	ControlPlane bool `json:"controlPlane"`
}

// Step is one step: what to read, what to run, and how the lesson knows
// the learner has done it.
type Step struct {
	Title    Text     `json:"title"`
	Text     Text     `json:"text"`
	Hint     Text     `json:"hint"`
	Commands []string `json:"commands"`
	Checks   []Check  `json:"checks"`
}

// Check is one condition on the cluster: a read-only command and what it
// must print (exactly, after trimming, or matching a regular expression).
type Check struct {
	Text   Text   `json:"text"`
	Run    string `json:"run"`
	Expect string `json:"expect"`
	Match  string `json:"match"`
}

// Load reads the lesson in folder dir of fsys.
func Load(fsys fs.FS, dir string) (*Lesson, error) {
	raw, err := fs.ReadFile(fsys, path.Join(dir, "lesson.yaml"))
	if err != nil {
		return nil, err
	}
	j, err := codec.YAMLToJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("%s/lesson.yaml: %v", dir, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	l := &Lesson{Name: path.Base(dir), Files: map[string][]byte{}}
	if err := dec.Decode(l); err != nil {
		return nil, fmt.Errorf("%s/lesson.yaml: %v", dir, err)
	}
	if err := l.validate(); err != nil {
		return nil, fmt.Errorf("%s/lesson.yaml: %v", dir, err)
	}
	filesDir := path.Join(dir, "files")
	_ = fs.WalkDir(fsys, filesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err == nil {
			l.Files[strings.TrimPrefix(p, filesDir+"/")] = b
		}
		return nil
	})
	if b, err := fs.ReadFile(fsys, path.Join(dir, l.Name+".session")); err == nil {
		l.Session = string(b)
	}
	return l, nil
}

func (l *Lesson) validate() error {
	if l.Title.En == "" || l.Title.Zh == "" {
		return fmt.Errorf("title needs en and zh")
	}
	if len(l.Steps) == 0 {
		return fmt.Errorf("a lesson needs steps")
	}
	for i, s := range l.Steps {
		if s.Title.En == "" || s.Title.Zh == "" || s.Text.En == "" || s.Text.Zh == "" {
			return fmt.Errorf("step %d: title and text need en and zh", i+1)
		}
		for j, c := range s.Checks {
			if c.Run == "" || (c.Expect == "" && c.Match == "") {
				return fmt.Errorf("step %d check %d: needs run and expect or match", i+1, j+1)
			}
			if !strings.HasPrefix(c.Run, "kubectl get ") && !strings.HasPrefix(c.Run, "kubectl logs ") {
				return fmt.Errorf("step %d check %d: checks only read (kubectl get or logs)", i+1, j+1)
			}
		}
	}
	return nil
}

// LoadAll reads every lesson folder under fsys's root, sorted by name.
func LoadAll(fsys fs.FS) ([]*Lesson, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []*Lesson
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), "lesson.yaml")); err != nil {
			continue
		}
		l, err := Load(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
