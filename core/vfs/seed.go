package vfs

import "time"

// Seed defers filling f until something first looks at it: fill then runs
// before that look, with f's clock held at the moment Seed was called, so
// f ends up as if fill had run then. A container's root filesystem is
// seeded with its image's files this way: most containers nobody execs
// into or fetches files from never hold a copy of the tree.
//
// fill must only change f itself (not filesystems mounted into it), or
// what it writes there would appear late.
func (f *FS) Seed(fill func(*FS)) {
	f.materialize()
	f.fill, f.filledAt = fill, f.now()
}

// materialize runs a pending Seed.
func (f *FS) materialize() {
	fill := f.fill
	if fill == nil {
		return
	}
	f.fill = nil
	f.filling = true
	defer func() { f.filling, f.filledAt = false, time.Time{} }()
	fill(f)
}

// Pending says a Seed still waits to fill f: nothing has looked at f
// since.
func (f *FS) Pending() bool { return f.fill != nil }
