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
	start := func(root *vfs.FS) {
		root.Now = w.clk.Now
		if err := root.Mount("/usr/share/nginx/html", vol, "/"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.rt.Start(Config{Name: "web", Image: im, FS: root, Hostname: "web-0"}); err != nil {
			t.Fatal(err)
		}
	}
	root := vfs.New()
	start(root)
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
	if got := listing(t, root); got != want {
		t.Fatalf("root an hour after the start:\n%s\nwant\n%s", got, want)
	}
	if b, _ := root.ReadFile("/etc/hostname"); string(b) != "web-0\n" {
		t.Fatalf("/etc/hostname %q", b)
	}

	// A volume over /etc gets /etc/hostname when the container starts.
	etc := vfs.New()
	etc.Now = w.clk.Now
	root = vfs.New()
	root.Now = w.clk.Now
	if err := root.Mount("/etc", etc, "/"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.rt.Start(Config{Name: "web", Image: im, FS: root, Hostname: "web-1"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := etc.Stat("/hostname"); err != nil || !fi.ModTime().Equal(w.clk.Now()) {
		t.Fatalf("/etc/hostname in the volume: %v %v", fi, err)
	}
}
