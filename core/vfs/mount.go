package vfs

import "sort"

// mount makes a directory of src appear at target, a path of the FS
// holding it.
type mount struct {
	target  string
	src     *FS
	srcPath string
}

// mountAt returns the mount at the clean path p of f, or nil.
func (f *FS) mountAt(p string) *mount {
	if i, ok := f.findMount(p); ok {
		return &f.mounts[i]
	}
	return nil
}

func (f *FS) findMount(p string) (int, bool) {
	i := sort.Search(len(f.mounts), func(i int) bool { return f.mounts[i].target >= p })
	return i, i < len(f.mounts) && f.mounts[i].target == p
}

// MountInfo describes one mount, as Mounts lists them.
type MountInfo struct {
	Target     string // where it appears, inside the FS that holds the mount
	Source     *FS
	SourcePath string
}

// Mount makes the directory srcPath of src appear at target, creating
// target's directories if missing. Both sides then see the same files:
// this is how a pod's containers share an emptyDir. The mount is recorded
// on the FS that owns target (after crossing any mounts on the way).
func (f *FS) Mount(target string, src *FS, srcPath string) error {
	if src == nil {
		return perr("mount", target, ErrInvalid)
	}
	sp := Clean("/", srcPath)
	// The source's root is there without a walk, which would fill a
	// seeded source before anyone looks into it.
	sn := src.root
	if sp != "/" {
		var err error
		if sn, err = src.lookup(sp); err != nil {
			return perr("mount", srcPath, err)
		}
	}
	if !sn.isDir() {
		return perr("mount", srcPath, ErrNotDir)
	}
	if err := f.MkdirAll(target, defaultDir); err != nil {
		return err
	}
	l, err := f.existing("mount", target)
	if err != nil {
		return err
	}
	if l.parent == nil {
		return perr("mount", target, ErrBusy)
	}
	if !l.node.isDir() {
		return perr("mount", target, ErrNotDir)
	}
	// A mount on top of a mount point would hide the one below; refuse it.
	if l.mountPoint {
		return perr("mount", target, ErrBusy)
	}
	m := mount{target: l.path, src: src, srcPath: sp}
	if i, ok := l.fs.findMount(l.path); ok {
		l.fs.mounts[i] = m
	} else {
		l.fs.mounts = append(l.fs.mounts, mount{})
		copy(l.fs.mounts[i+1:], l.fs.mounts[i:])
		l.fs.mounts[i] = m
	}
	return nil
}

// Unmount removes the mount at target, uncovering the directory below.
func (f *FS) Unmount(target string) error {
	clean := Clean("/", target)
	// Find the FS holding the mount: resolve the parent, then look for the
	// last component in that FS's table.
	l, err := f.walk(clean)
	if err != nil {
		return perr("umount", target, err)
	}
	if !l.mountPoint {
		return perr("umount", target, ErrInvalid)
	}
	parentDir, name := splitParent(clean)
	pl, err := f.walk(parentDir)
	if err != nil || pl.node == nil {
		return perr("umount", target, ErrInvalid)
	}
	key := pl.path + "/" + name
	if pl.path == "/" {
		key = "/" + name
	}
	i, ok := pl.fs.findMount(key)
	if !ok {
		return perr("umount", target, ErrInvalid)
	}
	pl.fs.mounts = append(pl.fs.mounts[:i], pl.fs.mounts[i+1:]...)
	return nil
}

func splitParent(clean string) (string, string) {
	for i := len(clean) - 1; i >= 0; i-- {
		if clean[i] == '/' {
			if i == 0 {
				return "/", clean[1:]
			}
			return clean[:i], clean[i+1:]
		}
	}
	return "/", clean
}

// Mounts lists the mounts recorded on f, sorted by target.
func (f *FS) Mounts() []MountInfo {
	f.materialize()
	out := make([]MountInfo, len(f.mounts))
	for i, m := range f.mounts {
		out[i] = MountInfo{Target: m.target, Source: m.src, SourcePath: m.srcPath}
	}
	return out
}
