//go:build !js

package playground

import (
	"io/fs"

	"kubeplay/lessons"
)

// lessonSource gives the embedded lessons.
func lessonSource() (fs.FS, error) { return lessons.FS, nil }
