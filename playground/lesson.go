package playground

import (
	"fmt"
	"strings"
	"sync"

	"kubeplay/core/lesson"
	"kubeplay/core/sim"
)

// LessonState is where the learner is in a lesson (kept with the page
// state, so a reload or a share link comes back to the same step).
type LessonState struct {
	Name string `json:"name"`
	Step int    `json:"step"` // 0-based
}

var (
	lessonsOnce sync.Once
	allLessons  []*lesson.Lesson
	lessonsErr  error
)

// Lessons are the lessons of lessons/: embedded natively, fetched as a
// bundle beside the page's WebAssembly (lessonSource).
func Lessons() ([]*lesson.Lesson, error) {
	lessonsOnce.Do(func() {
		fsys, err := lessonSource()
		if err != nil {
			lessonsErr = err
			return
		}
		allLessons, lessonsErr = lesson.LoadAll(fsys)
	})
	return allLessons, lessonsErr
}

// FindLesson returns a lesson by its folder name.
func FindLesson(name string) (*lesson.Lesson, error) {
	all, err := Lessons()
	if err != nil {
		return nil, err
	}
	for _, l := range all {
		if l.Name == name {
			return l, nil
		}
	}
	return nil, fmt.Errorf("there is no lesson %q", name)
}

// LessonSummary is a lesson in the list.
type LessonSummary struct {
	Name    string      `json:"name"`
	Title   lesson.Text `json:"title"`
	Summary lesson.Text `json:"summary"`
	Steps   int         `json:"steps"`
}

// LessonList lists the lessons.
func LessonList() []LessonSummary {
	all, _ := Lessons()
	out := make([]LessonSummary, 0, len(all))
	for _, l := range all {
		out = append(out, LessonSummary{Name: l.Name, Title: l.Title, Summary: l.Summary, Steps: len(l.Steps)})
	}
	return out
}

// StartLesson replaces the cluster with the lesson's starting cluster and
// goes to step (0-based): the commands of the steps before it are run, with
// virtual time passing at once, so the cluster is as the lesson expects.
func (h *Host) StartLesson(name string, step int, opts sim.Options) error {
	l, err := FindLesson(name)
	if err != nil {
		return err
	}
	if step < 0 || step >= len(l.Steps) {
		return fmt.Errorf("lesson %s has steps 1 to %d", name, len(l.Steps))
	}
	t, err := sim.NewLessonTerminal(l, opts)
	if err != nil {
		return err
	}
	for i := 0; i < step; i++ {
		for _, cmd := range l.Steps[i].Commands {
			t.Run(cmd)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.C
	h.attachTerminal(t)
	if old != nil && old != t.Cluster {
		old.Close()
	}
	h.lesson = &LessonState{Name: name, Step: step}
	h.changed(true)
	return nil
}

// SetLessonStep moves to another step of the current lesson (the cluster
// stays as it is).
func (h *Host) SetLessonStep(step int) error {
	var err error
	h.Do(func() {
		if h.lesson == nil {
			err = fmt.Errorf("no lesson is open")
			return
		}
		l, e := FindLesson(h.lesson.Name)
		if e != nil {
			err = e
			return
		}
		if step < 0 || step >= len(l.Steps) {
			err = fmt.Errorf("lesson %s has steps 1 to %d", l.Name, len(l.Steps))
			return
		}
		h.lesson.Step = step
	})
	return err
}

// LeaveLesson forgets the lesson; the cluster stays.
func (h *Host) LeaveLesson() {
	h.Do(func() { h.lesson = nil })
}

// Lesson returns where the learner is, nil outside a lesson.
func (h *Host) Lesson() *LessonState {
	var s *LessonState
	h.Do(func() {
		if h.lesson != nil {
			c := *h.lesson
			s = &c
		}
	})
	return s
}

// CheckResult is one check of the current step.
type CheckResult struct {
	Text lesson.Text `json:"text"`
	OK   bool        `json:"ok"`
}

// CheckLesson evaluates the current step's checks. They run kubectl in a
// terminal of their own, so they wait until no command is running.
func (h *Host) CheckLesson() ([]CheckResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lesson == nil {
		return nil, fmt.Errorf("no lesson is open")
	}
	l, err := FindLesson(h.lesson.Name)
	if err != nil {
		return nil, err
	}
	out := []CheckResult{}
	for _, r := range h.T.CheckStep(&l.Steps[h.lesson.Step]) {
		out = append(out, CheckResult{Text: r.Check.Text, OK: r.OK})
	}
	return out, nil
}

// lessonFiles gives a restored terminal the lesson's URL-served files
// (those under home/ come back with the saved files).
func lessonFiles(t *sim.Terminal, name string) {
	l, err := FindLesson(name)
	if err != nil {
		return
	}
	for p, b := range l.Files {
		if !strings.HasPrefix(p, "home/") {
			t.Files[p] = b
		}
	}
}
