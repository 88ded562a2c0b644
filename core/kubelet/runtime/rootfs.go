package runtime

import (
	"path"
	"strings"

	"kubeplay/core/vfs"
)

// Mount is a volume the runtime binds into a container's root, as the
// CRI's mounts ask containerd to: a directory of a volume's filesystem,
// or for a subPath that is a file, the file's content copied in.
type Mount struct {
	Target string // clean absolute path in the container
	FS     *vfs.FS
	Path   string // clean absolute path in FS
	// File, with Data, mounts a file on a file.
	File bool
	Data []byte
}

// MountError is a mount the runtime could not make: the container is not
// created.
type MountError struct {
	Mount int // index in Config.Mounts
	Err   error
}

func (e *MountError) Error() string { return e.Err.Error() }

const hostnamePath = "/etc/hostname"

// prepareRoot mounts cfg's volumes into the container's root and lays the
// image's files around them. Both wait until something first looks at the
// root (vfs.FS.Seed) when that cannot change what anyone sees: the mounts
// are volumes' roots, none inside another, and none over /etc, where
// /etc/hostname would appear late, and the root has none yet. Otherwise the mounts are made now, and
// a mount that fails fails the start.
func prepareRoot(cfg Config) error {
	im, hostname, mounts := cfg.Image, cfg.Hostname, cfg.Mounts
	if len(cfg.FS.Mounts()) == 0 && deferrable(mounts) {
		cfg.FS.Seed(func(root *vfs.FS) {
			_ = mountAll(root, mounts)
			fillRoot(root, im, hostname)
		})
		return nil
	}
	if err := mountAll(cfg.FS, mounts); err != nil {
		return err
	}
	if underMount(hostnamePath, cfg.FS.Mounts()) {
		fillRoot(cfg.FS, im, hostname)
	} else {
		cfg.FS.Seed(func(root *vfs.FS) { fillRoot(root, im, hostname) })
	}
	return nil
}

// deferrable says mounts cannot fail, nor write anywhere but the root.
func deferrable(mounts []Mount) bool {
	for i, m := range mounts {
		if m.File || m.Path != "/" || m.Target == "/" || under(hostnamePath, m.Target) {
			return false
		}
		for _, o := range mounts[:i] {
			if under(m.Target, o.Target) || under(o.Target, m.Target) {
				return false
			}
		}
	}
	return true
}

func mountAll(root *vfs.FS, mounts []Mount) error {
	for i, m := range mounts {
		if m.File {
			_ = root.MkdirAll(path.Dir(m.Target), 0o755)
			_ = root.WriteFile(m.Target, m.Data, 0o644)
			continue
		}
		_ = root.MkdirAll(m.Target, 0o755)
		if err := root.Mount(m.Target, m.FS, m.Path); err != nil {
			return &MountError{Mount: i, Err: err}
		}
	}
	return nil
}

// fillRoot lays the image's files and the runtime's own (/etc/hostname)
// into a container's root, around the volumes already mounted there.
func fillRoot(root *vfs.FS, im *Image, hostname string) {
	mounts := root.Mounts()
	for p := range im.Files {
		if underMount(p, mounts) {
			continue // a volume mounted there hides the image's files
		}
		if !root.Exists(p) {
			_ = root.MkdirAll(path.Dir(p), 0o755)
			_ = root.WriteFileShared(p, im.fileBytes(p), 0o644)
		}
	}
	for _, d := range []string{"/tmp", "/root", "/etc", "/dev"} {
		_ = root.MkdirAll(d, 0o755)
	}
	_ = root.WriteFile(hostnamePath, []byte(hostname+"\n"), 0o644)
}

// under says p is dir or below it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// MayHoldFile says whether the container's root filesystem can have a file
// at p without filling it to look: only while it still waits to be filled
// from the image (nothing has looked at it since it was created) can the
// answer be no, when neither the image, the hostname file nor a volume
// reaches p. The kubelet reads every exiting container's termination
// message, and filling a filesystem nobody looked at just to find no file
// there was a tenth of what a 10,000-pod cluster's shutdown allocated.
func (c *Container) MayHoldFile(p string) bool {
	if !c.cfg.FS.Pending() {
		return true
	}
	p = path.Clean(p)
	if p == hostnamePath {
		return true
	}
	if _, ok := c.cfg.Image.Files[p]; ok {
		return true
	}
	for _, m := range c.cfg.Mounts {
		if under(p, m.Target) {
			return true
		}
	}
	return false
}
