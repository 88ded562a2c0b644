// Package lessons holds the guided lessons, one folder each, embedded so
// the page and the kubeplay command carry them.
package lessons

import "embed"

// FS is every lesson folder.
//
//go:embed */lesson.yaml */*.session */files
var FS embed.FS
