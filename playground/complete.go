package playground

// Complete returns the Tab candidates for the word at the end of line and
// where that word starts. It reads the cluster, so the engine must be
// free: it returns nothing while a command runs.
func (h *Host) Complete(line string) (start int, items []string) {
	if !h.mu.TryLock() {
		return len(line), nil
	}
	defer h.mu.Unlock()
	return h.T.Complete(line)
}
