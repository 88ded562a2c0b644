package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"kubeplay/core/sim"
)

// The line editor of `kubeplay shell` at a terminal, fed the bytes a
// terminal in raw mode sends: Tab completes from the cluster, a second Tab
// lists the candidates, Ctrl-C drops the line (keeping it out of history),
// Up recalls the last line, a heredoc continues with "> " and Ctrl-D ends
// the shell.
func TestShellLineEditor(t *testing.T) {
	term := sim.NewTerminal(sim.NewDefault(sim.Options{Seed: 1}))
	term.Cluster.AddDefaultNode()
	term.Run("kubectl create deployment web --image=nginx")
	term.Run("kubectl create deployment worker --image=nginx")
	const (
		tab   = "\t"
		enter = "\r"
		up    = "\x1b[A"
		ctrlC = "\x03"
		ctrlD = "\x04"
	)
	keys := strings.Join([]string{
		"kubectl get deployme" + tab + "we" + tab + enter,
		"kubectl describe deploy w" + tab + tab + ctrlC,
		up + up + enter,
		"cat <<EOF" + enter + "line one" + enter + "EOF" + enter,
		"history" + enter,
		ctrlD,
	}, "")
	var out bytes.Buffer
	if code := editLines(term, iotest.OneByteReader(strings.NewReader(keys)), &out, 100, 40); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	screen := regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`).ReplaceAllString(out.String(), "")
	screen = strings.ReplaceAll(screen, "\r", "")
	for _, want := range []string{
		"$ kubectl get deployments web \nNAME   READY",
		"web    0/1",
		"web  worker\n",
		"> line one\n> EOF\nline one\n",
		// The recalled line ran again; history keeps one of two equal lines in a row.
		"    3  kubectl get deployments web \n    4  cat <<EOF\nline one\nEOF\n    5  history\n",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q\n--- screen ---\n%s", want, screen)
		}
	}
}

// kubectl edit in `kubeplay shell` opens the user's own editor on a copy
// of the object (here a script standing in for vi) and applies the result.
func TestShellEditUsesHostEditor(t *testing.T) {
	editor := filepath.Join(t.TempDir(), "editor.sh")
	script := "#!/bin/sh\nsed -i 's/^  replicas: 1$/  replicas: 3/' \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBE_EDITOR", "")
	t.Setenv("EDITOR", editor)
	term := sim.NewTerminal(sim.NewDefault(sim.Options{Seed: 1}))
	registerHostEditor(term, -1, nil)
	term.Run("kubectl create deployment web --image=nginx")
	if out := term.Run("kubectl edit deployment web"); out != "deployment.apps/web edited\n" {
		t.Fatalf("kubectl edit printed %q", out)
	}
	if out := term.Run("kubectl get deployment web -o jsonpath={.spec.replicas}"); out != "3" {
		t.Errorf("replicas after the edit: %q, want 3", out)
	}
	t.Setenv("EDITOR", "/nonexistent/editor")
	if out := term.Run("kubectl edit deployment web"); !strings.Contains(out, "there was a problem with the editor") {
		t.Errorf("a missing editor: %q", out)
	}
}
