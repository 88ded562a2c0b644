package lessons

import (
	"os"
	"path/filepath"
	"testing"

	"kubeplay/core/lesson"
	"kubeplay/core/sim"
)

// Every lesson can be followed to the end: after each step's commands,
// each of its checks passes. (Their transcripts are checked by
// `kubeplay run --check` in build.sh.)
func TestLessonsCanBeFollowed(t *testing.T) {
	all, err := lesson.LoadAll(FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no lessons")
	}
	for _, l := range all {
		t.Run(l.Name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(l.Name, l.Name+".session")); err != nil {
				t.Fatalf("%s has no transcript (kubeplay lesson --record lessons/%s)", l.Name, l.Name)
			}
			_, bad, err := sim.PlayLesson(l, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bad {
				t.Error(b)
			}
		})
	}
}
