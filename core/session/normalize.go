package session

import (
	"regexp"
	"strings"
	"sync"
)

// What a replay on another cluster cannot reproduce: generated name
// suffixes, template hashes, ages, timestamps, IPs, UIDs, resourceVersions
// and node-specific identities. Normalize replaces each with a placeholder
// and folds runs of spaces (columns widen with names), so a transcript
// recorded on a real cluster checks against kubeplay's. The expressions
// are compiled on first use, not while the page starts.
var volatile = sync.OnceValue(func() []volatilePart {
	return []volatilePart{
		{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "<uid>"},
		{regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z`), "<time>"},
		{regexp.MustCompile(`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}`), "<time>"},
		{regexp.MustCompile(`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b`), "<ip>"},
		// pod-template-hash and controller-revision-hash: 6-10 characters of
		// the safe alphabet after a dash, then a generated pod suffix or not.
		{regexp.MustCompile(`-[bcdfghjklmnpqrstvwxz2456789]{6,10}\b`), "-<hash>"},
		{regexp.MustCompile(`-[bcdfghjklmnpqrstvwxz2456789]{5}\b`), "-<rand>"},
		// Ages and durations: 5s, 2m1s, 10h, 2d4h, 3m10s (x2 over 5m), 68s.
		{regexp.MustCompile(`\b\d+[smhdy](\d+[smh])?\b`), "<age>"},
		{regexp.MustCompile(`resourceVersion: "\d+"`), `resourceVersion: "<rv>"`},
		{regexp.MustCompile(`"resourceVersion": "\d+"`), `"resourceVersion": "<rv>"`},
	}
})

type volatilePart struct {
	re   *regexp.Regexp
	with string
}

var spaces = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[ \t]+`) })

// Normalize rewrites a line with its volatile parts replaced.
func Normalize(line string) string {
	for _, v := range volatile() {
		line = v.re.ReplaceAllString(line, v.with)
	}
	return strings.TrimRight(spaces().ReplaceAllString(line, " "), " ")
}
