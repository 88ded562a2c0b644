package playground

import (
	"fmt"
	"time"

	"kubeplay/core/shell"
)

// EditorCommand is the terminal's $KUBE_EDITOR: `kubectl edit` hands it the
// file to edit, and it opens the file in the page's YAML editor.
const EditorCommand = "kubeplay-edit"

type editResult struct {
	saved bool
	text  string
}

// SetEditor: open, set by the page, opens a file in the YAML editor; the page
// answers with EditDone. Without it `kubectl edit` reports that there is
// no editor.
func (h *Host) SetEditor(open func(path, text string)) {
	h.ctl.Lock()
	defer h.ctl.Unlock()
	h.openEditor = open
}

// EditDone is the page's answer to an edit: saved with the new text, or
// cancelled.
func (h *Host) EditDone(saved bool, text string) {
	select {
	case h.edits <- editResult{saved: saved, text: text}:
	default:
	}
}

// editCmd waits, holding the engine (virtual time stands still, as it does
// for any command that has not returned), until the learner saves or
// cancels in the editor, or presses Ctrl-C. API requests and the picture
// go on meanwhile.
func (h *Host) editCmd(ctx *shell.Context, args []string) int {
	h.ctl.Lock()
	open := h.openEditor
	h.ctl.Unlock()
	if len(args) != 1 {
		fmt.Fprintf(ctx.Stderr, "usage: %s FILE\n", EditorCommand)
		return 2
	}
	if open == nil {
		fmt.Fprintf(ctx.Stderr, "%s: there is no editor here\n", EditorCommand)
		return 1
	}
	data, err := ctx.ReadFile(args[0])
	if err != nil {
		fmt.Fprintf(ctx.Stderr, "%s: %v\n", EditorCommand, err)
		return 1
	}
	// Drop an answer left from an edit that was interrupted.
	select {
	case <-h.edits:
	default:
	}
	open(args[0], string(data))
	h.flushOutput(true)
	for {
		select {
		case r := <-h.edits:
			if !r.saved {
				return 0 // the file is unchanged: kubectl reports the cancel
			}
			if err := ctx.WriteFile(args[0], []byte(r.text), false); err != nil {
				fmt.Fprintf(ctx.Stderr, "%s: %v\n", EditorCommand, err)
				return 1
			}
			return 0
		case <-time.After(50 * time.Millisecond):
		}
		if h.isInterrupted() {
			open("", "") // close the edit in the page
			return 130
		}
		if h.drain() {
			h.changed(true)
		}
	}
}
