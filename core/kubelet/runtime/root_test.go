package runtime

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kubeplay/core/vfs"
)

// listing is every path of fs with its mode, size and modification time.
func listing(t *testing.T, fs *vfs.FS) string {
	t.Helper()
	var b strings.Builder
	err := fs.Walk("/", func(p string, fi vfs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %s\n", p, fi.Mode(), fi.Size(), fi.ModTime().Format(time.TimeOnly))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A container's root shows the image's files and /etc/hostname, stamped
// when the container started, around the volumes mounted into it, however
// late it is first looked at.
func TestContainerRootFiles(t *testing.T) {
	w := newWorld()
	im, err := w.rt.Catalog.Resolve("nginx:1.14.2")
	if err != nil {
		t.Fatal(err)
	}
	vol := vfs.New()
	if err := vol.WriteFile("/index.html", []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.advance(time.Minute)
	// start starts a container on a root with vol mounted at mountPath,
	// by the runtime (Config.Mounts) or beforehand.
	start := func(vol *vfs.FS, mountPath string, byRuntime bool, hostname string) *vfs.FS {
		root := vfs.New()
		root.Now = w.clk.Now
		var mounts []Mount
		if byRuntime {
			mounts = []Mount{{Target: mountPath, FS: vol, Path: "/"}}
		} else if err := root.Mount(mountPath, vol, "/"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.rt.Start(Config{Name: "web", Image: im, FS: root, Mounts: mounts, Hostname: hostname}); err != nil {
			t.Fatal(err)
		}
		return root
	}
	byRuntime := start(vol, "/usr/share/nginx/html", true, "web-0")
	before := start(vol, "/usr/share/nginx/html", false, "web-0")
	w.advance(time.Hour)
	want := `/ drwxr-xr-x 4096 10:01:00
/dev drwxr-xr-x 4096 10:01:00
/etc drwxr-xr-x 4096 10:01:00
/etc/hostname -rw-r--r-- 6 10:01:00
/etc/nginx drwxr-xr-x 4096 10:01:00
/etc/nginx/nginx.conf -rw-r--r-- 127 10:01:00
/etc/os-release -rw-r--r-- 109 10:01:00
/root drwxr-xr-x 4096 10:01:00
/tmp drwxr-xr-x 4096 10:01:00
/usr drwxr-xr-x 4096 10:01:00
/usr/share drwxr-xr-x 4096 10:01:00
/usr/share/nginx drwxr-xr-x 4096 10:01:00
/usr/share/nginx/html drwxr-xr-x 4096 00:00:00
/usr/share/nginx/html/index.html -rw-r--r-- 3 00:00:00
`
	for _, root := range []*vfs.FS{byRuntime, before} {
		if got := listing(t, root); got != want {
			t.Fatalf("root an hour after the start:\n%s\nwant\n%s", got, want)
		}
		if b, _ := root.ReadFile("/etc/hostname"); string(b) != "web-0\n" {
			t.Fatalf("/etc/hostname %q", b)
		}
	}

	// A volume over /etc gets /etc/hostname when the container starts.
	for _, byRuntime := range []bool{true, false} {
		etc := vfs.New()
		etc.Now = w.clk.Now
		start(etc, "/etc", byRuntime, "web-1")
		if fi, err := etc.Stat("/hostname"); err != nil || !fi.ModTime().Equal(w.clk.Now()) {
			t.Fatalf("/etc/hostname in the volume: %v %v", fi, err)
		}
	}
}

// A mount the runtime cannot make fails the start before a container
// exists: the error names the mount, and no container ID is used up.
func TestMountErrorCreatesNoContainer(t *testing.T) {
	w := newWorld()
	im, err := w.rt.Catalog.Resolve("nginx:1.14.2")
	if err != nil {
		t.Fatal(err)
	}
	mounts := []Mount{{Target: "/conf", File: true, Data: []byte("x")}, {Target: "/conf/d", FS: vfs.New(), Path: "/"}}
	_, err = w.rt.Start(Config{Name: "web", Image: im, FS: vfs.New(), Mounts: mounts})
	merr, ok := err.(*MountError)
	if !ok || merr.Mount != 1 || vfs.Reason(merr.Err) != "Not a directory" {
		t.Fatalf("start: %v", err)
	}
	c, err := w.rt.Start(Config{Name: "web", Image: im, FS: vfs.New()})
	if err != nil {
		t.Fatal(err)
	}
	if first, _ := newWorld().rt.Start(Config{Name: "web", Image: im, FS: vfs.New()}); c.ID != first.ID {
		t.Fatalf("ID %s, want the first, %s", c.ID, first.ID)
	}
}

// The kubelet asks whether a path can hold a file before it reads an
// exiting container's termination message: a root nobody looked at yet is
// not filled from the image to answer no, and anything the fill would put
// there, or that was written since, is read.
func TestMayHoldFileLeavesAnUnseenRootUnfilled(t *testing.T) {
	w := newWorld()
	im, err := w.rt.Catalog.Resolve("nginx:1.14.2")
	if err != nil {
		t.Fatal(err)
	}
	vol := vfs.New()
	root := vfs.New()
	root.Now = w.clk.Now
	c, err := w.rt.Start(Config{Name: "web", Image: im, FS: root, Mounts: []Mount{{Target: "/data", FS: vol, Path: "/"}}, Hostname: "web-0"})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"/dev/termination-log":             false,
		"/tmp/../dev/termination-log":      false,
		"/etc/hostname":                    true,
		"/etc/nginx/nginx.conf":            true,
		"/data/termination-log":            true,
		"/usr/share/nginx/html/index.html": true,
	} {
		if got := c.MayHoldFile(p); got != want {
			t.Errorf("MayHoldFile(%q) = %v, want %v", p, got, want)
		}
	}
	if !root.Pending() {
		t.Fatal("asking filled the root")
	}
	if err := root.WriteFile("/dev/termination-log", []byte("bye\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !c.MayHoldFile("/dev/termination-log") {
		t.Error("a written root must be read")
	}
}
