package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"kubeplay/core/sim"
)

// PageState is what the page keeps across reloads and puts in share
// links: the cluster's snapshot (core/sim/snapshot.go) and the files of
// the terminal's home directory.
type PageState struct {
	Version int               `json:"version"`
	Cluster json.RawMessage   `json:"cluster"`
	Cwd     string            `json:"cwd,omitempty"`
	Files   map[string]string `json:"files,omitempty"`
	Lesson  *LessonState      `json:"lesson,omitempty"`
}

// Limits on saved state: a share link is input like any other.
const (
	maxStateBytes = 8 << 20
	maxFiles      = 200
	maxFileBytes  = 1 << 20
	home          = "/root"
)

// save builds the page state; the caller holds the engine.
func (h *Host) save() ([]byte, error) {
	snap, err := h.C.Snapshot()
	if err != nil {
		return nil, err
	}
	st := PageState{Version: 1, Cluster: json.RawMessage("0"), Cwd: h.T.Shell.Cwd, Files: map[string]string{}, Lesson: h.lesson}
	total := 0
	h.walkHome(func(p string, data []byte) bool {
		if len(st.Files) >= maxFiles || total+len(data) > maxFileBytes {
			return false
		}
		st.Files[p] = string(data)
		total += len(data)
		return true
	})
	b, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	// The snapshot goes where Marshal wrote the placeholder 0: Marshal
	// would check and copy its megabytes once more, in one piece.
	const head = `{"version":1,"cluster":0`
	if !bytes.HasPrefix(b, []byte(head)) {
		return nil, fmt.Errorf("saving: unexpected page state encoding %.40q", b)
	}
	out := make([]byte, 0, len(b)+len(snap))
	out = append(out, head[:len(head)-1]...)
	out = append(out, snap...)
	return append(out, b[len(head):]...), nil
}

// walkHome calls f for each regular file under /root, in path order.
func (h *Host) walkHome(f func(p string, data []byte) bool) {
	var paths []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 8 {
			return
		}
		entries, err := h.T.FS.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := dir + "/" + e.Name()
			if e.IsDir() {
				walk(p, depth+1)
			} else if e.Mode().IsRegular() {
				paths = append(paths, p)
			}
		}
	}
	walk(home, 0)
	sort.Strings(paths)
	for _, p := range paths {
		data, err := h.T.FS.ReadFile(p)
		if err != nil {
			continue
		}
		if !f(p, data) {
			return
		}
	}
}

// Save returns the page state as JSON, waiting for the engine.
func (h *Host) Save() ([]byte, error) {
	var (
		b   []byte
		err error
	)
	h.Do(func() { b, err = h.save() })
	return b, err
}

// parseState checks saved or shared state before anything is replaced.
func parseState(data []byte) (*PageState, *sim.Cluster, error) {
	if len(data) > maxStateBytes {
		return nil, nil, fmt.Errorf("the saved state is larger than %d MiB", maxStateBytes>>20)
	}
	var st PageState
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return nil, nil, fmt.Errorf("the saved state is not valid: %v", err)
	}
	if st.Version != 1 {
		return nil, nil, fmt.Errorf("the saved state has version %d; this page reads version 1", st.Version)
	}
	if len(st.Files) > maxFiles {
		return nil, nil, fmt.Errorf("the saved state has more than %d files", maxFiles)
	}
	for p := range st.Files {
		if !strings.HasPrefix(p, home+"/") || path.Clean(p) != p {
			return nil, nil, fmt.Errorf("the saved state has a file outside %s: %q", home, p)
		}
	}
	if st.Cwd != "" && (!strings.HasPrefix(st.Cwd, "/") || path.Clean(st.Cwd) != st.Cwd) {
		return nil, nil, fmt.Errorf("the saved state has a bad working directory %q", st.Cwd)
	}
	if st.Lesson != nil {
		l, err := FindLesson(st.Lesson.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("the saved state names a lesson this page does not have: %v", err)
		}
		if st.Lesson.Step < 0 || st.Lesson.Step >= len(l.Steps) {
			return nil, nil, fmt.Errorf("the saved state names step %d of lesson %s, which has %d", st.Lesson.Step+1, l.Name, len(l.Steps))
		}
	}
	c, err := sim.Restore(st.Cluster)
	if err != nil {
		return nil, nil, err
	}
	return &st, c, nil
}

// Load replaces the cluster and the terminal's files with saved or shared
// state. Bad state changes nothing and is reported.
func (h *Host) Load(data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the saved state could not be restored: %v", r)
		}
	}()
	st, c, err := parseState(data)
	if err != nil {
		return err
	}
	h.Replace(c)
	h.Do(func() {
		for p, content := range st.Files {
			if i := strings.LastIndex(p, "/"); i > 0 {
				_ = h.T.FS.MkdirAll(p[:i], 0o755)
			}
			_ = h.T.FS.WriteFile(p, []byte(content), 0o644)
		}
		if st.Cwd != "" && h.T.FS.IsDir(st.Cwd) {
			h.T.Shell.Cwd = st.Cwd
			h.T.Shell.Env["PWD"] = st.Cwd
		}
		if st.Lesson != nil {
			h.lesson = &LessonState{Name: st.Lesson.Name, Step: st.Lesson.Step}
			lessonFiles(h.T, st.Lesson.Name)
		}
	})
	return nil
}

// Reset starts over on a new default cluster.
func (h *Host) Reset(opts sim.Options) {
	c := sim.NewDefault(opts)
	c.AddDefaultNode()
	h.Replace(c)
}
