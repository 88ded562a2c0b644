package playground

import (
	"errors"
	"io/fs"
	"syscall/js"

	"kubeplay/lessons"
)

// lessonSource reads the lessons' bundle, which the engine's worker fetched
// (worker.js) and left as a Uint8Array in __kubeplayLessons, or the reason
// it could not in __kubeplayLessonsError. The worker holds back every call
// that reads lessons until the fetch is over.
func lessonSource() (fs.FS, error) {
	g := js.Global()
	v := g.Get("__kubeplayLessons")
	if !v.InstanceOf(g.Get("Uint8Array")) {
		reason := "the page did not fetch them"
		if e := g.Get("__kubeplayLessonsError"); e.Type() == js.TypeString {
			reason = e.String()
		}
		return nil, errors.New("the lessons did not load: " + reason)
	}
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	g.Delete("__kubeplayLessons")
	return lessons.Unpack(b)
}
