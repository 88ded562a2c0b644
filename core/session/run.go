package session

import (
	"fmt"
	"strings"
)

// Terminal runs one command script (a command line plus any heredoc
// bodies) and returns what it printed, stdout and stderr together.
type Terminal interface {
	Run(script string) string
}

// Result is one step's outcome.
type Result struct {
	Step   *Step
	Output []string
}

// Run runs every step of f in order on term.
func (f *File) Run(term Terminal) []Result {
	out := make([]Result, len(f.Steps))
	for i := range f.Steps {
		s := &f.Steps[i]
		text := term.Run(s.Script)
		out[i] = Result{Step: s, Output: splitOutput(text)}
	}
	return out
}

func splitOutput(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// Transcript prints results in the session file format: comments, "$ "
// and the script, then the output.
func Transcript(results []Result) string {
	var b strings.Builder
	for _, r := range results {
		for _, c := range r.Step.Comments {
			b.WriteString(c)
			b.WriteByte('\n')
		}
		b.WriteString("$ ")
		b.WriteString(r.Step.Script)
		b.WriteByte('\n')
		for _, l := range r.Output {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Mismatch is a step whose output differs from the file's.
type Mismatch struct {
	File string
	Step *Step
	Got  []string
	Diff string
}

func (m Mismatch) Error() string {
	return fmt.Sprintf("%s:%d: $ %s\n%s", m.File, m.Step.Line, m.Step.Command, m.Diff)
}

// Check compares results with the expected output, tolerating what a
// replay cannot reproduce (see Normalize), and returns the mismatches.
func (f *File) Check(results []Result) []Mismatch {
	var bad []Mismatch
	for _, r := range results {
		if r.Step.Unchecked {
			continue
		}
		if !Equivalent(r.Step.Expected, r.Output) {
			bad = append(bad, Mismatch{File: f.Name, Step: r.Step, Got: r.Output, Diff: Diff(r.Step.Expected, r.Output)})
		}
	}
	return bad
}

// Equivalent reports whether two outputs match line for line after
// normalisation.
func Equivalent(want, got []string) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if Normalize(want[i]) != Normalize(got[i]) {
			return false
		}
	}
	return true
}

// Diff is a unified-style line diff of want against got.
func Diff(want, got []string) string {
	// Longest common subsequence on normalised lines; outputs are short.
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if Normalize(want[i]) == Normalize(got[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && Normalize(want[i]) == Normalize(got[j]):
			b.WriteString("  " + got[j] + "\n")
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			b.WriteString("+ " + got[j] + "\n")
			j++
		default:
			b.WriteString("- " + want[i] + "\n")
			i++
		}
	}
	return b.String()
}
