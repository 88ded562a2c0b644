//go:build !js

package lessons

import "embed"

// FS is every lesson folder without its session transcript: the
// transcripts are what CI replays (kubeplay run --check), read from
// disk; nothing that runs a lesson reads them, so the page does not
// download them.
//
//go:embed */lesson.yaml */files
var FS embed.FS
