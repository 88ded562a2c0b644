package vfs

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"reflect"
	"testing"
	"time"
)

func clockAt(t0 time.Time) (*time.Time, func() time.Time) {
	now := t0
	return &now, func() time.Time { return now }
}

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCleanResolvesRelativeAndDots(t *testing.T) {
	for _, c := range []struct{ cwd, p, want string }{
		{"/root", "a", "/root/a"},
		{"/root", "../etc/./x", "/etc/x"},
		{"/", "../../..", "/"},
		{"/a/b", "/x//y/", "/x/y"},
		{"", "x", "/x"},
		{"rel", "x", "/rel/x"},
	} {
		if got := Clean(c.cwd, c.p); got != c.want {
			t.Errorf("Clean(%q, %q) = %q, want %q", c.cwd, c.p, got, c.want)
		}
	}
}

func TestFilesAndDirectories(t *testing.T) {
	f := New()
	now, clk := clockAt(time.Date(2026, 11, 22, 11, 29, 48, 0, time.UTC))
	f.Now = clk
	mustNoErr(t, f.MkdirAll("/root/app", 0o755))
	mustNoErr(t, f.WriteFile("/root/app/a.txt", []byte("hello\n"), 0o644))
	*now = now.Add(time.Minute)
	mustNoErr(t, f.Append("/root/app/a.txt", []byte("world\n")))
	b, err := f.ReadFile("/root/app/../app/./a.txt")
	mustNoErr(t, err)
	if string(b) != "hello\nworld\n" {
		t.Fatalf("content %q", b)
	}
	fi, err := f.Stat("/root/app/a.txt")
	mustNoErr(t, err)
	if fi.Size() != 12 || fi.Mode().Perm() != 0o644 || !fi.ModTime().Equal(*now) || fi.IsDir() {
		t.Fatalf("stat %+v", fi)
	}
	mustNoErr(t, f.WriteFile("/root/app/b.txt", nil, 0o600))
	mustNoErr(t, f.Mkdir("/root/app/sub", 0o755))
	entries, err := f.ReadDir("/root/app")
	mustNoErr(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{"a.txt", "b.txt", "sub"}) {
		t.Fatalf("ReadDir = %v", names)
	}
}

func TestErrorsReadLikeCoreutils(t *testing.T) {
	f := New()
	mustNoErr(t, f.WriteFile("/file", []byte("x"), 0o644))
	mustNoErr(t, f.MkdirAll("/dir/sub", 0o755))
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"read missing", func() error { _, err := f.ReadFile("/x"); return err }(), "/x: No such file or directory"},
		{"read dir", func() error { _, err := f.ReadFile("/dir"); return err }(), "/dir: Is a directory"},
		{"through file", func() error { _, err := f.ReadFile("/file/y"); return err }(), "/file/y: Not a directory"},
		{"mkdir exists", f.Mkdir("/dir", 0o755), "/dir: File exists"},
		{"mkdir no parent", f.Mkdir("/a/b", 0o755), "/a/b: No such file or directory"},
		{"remove nonempty", f.Remove("/dir"), "/dir: Directory not empty"},
		{"remove root", f.Remove("/"), "/: Device or resource busy"},
		{"rename into self", f.Rename("/dir", "/dir/sub/x"), "/dir: Invalid argument"},
		{"write dir", f.WriteFile("/dir", nil, 0o644), "/dir: Is a directory"},
		{"mkdirall over file", f.MkdirAll("/file/x", 0o755), "/file/x: Not a directory"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, c.err, c.want)
		}
	}
	_, err := f.Stat("/nope")
	if !errors.Is(err, fs.ErrNotExist) || Reason(err) != "No such file or directory" {
		t.Errorf("Stat missing: %v", err)
	}
}

func TestRemoveAndRename(t *testing.T) {
	f := New()
	mustNoErr(t, f.MkdirAll("/a/b/c", 0o755))
	mustNoErr(t, f.WriteFile("/a/b/c/f", []byte("data"), 0o644))
	mustNoErr(t, f.Rename("/a/b", "/a/moved"))
	if _, err := f.ReadFile("/a/moved/c/f"); err != nil {
		t.Fatal(err)
	}
	mustNoErr(t, f.WriteFile("/g", []byte("g"), 0o644))
	if err := f.Rename("/g", "/a"); err == nil || Reason(err) != "Is a directory" {
		t.Fatalf("file over dir: %v", err)
	}
	mustNoErr(t, f.Rename("/g", "/a/moved/c/f")) // a file replaces a file
	b, _ := f.ReadFile("/a/moved/c/f")
	if string(b) != "g" {
		t.Fatalf("replaced content %q", b)
	}
	mustNoErr(t, f.RemoveAll("/a"))
	mustNoErr(t, f.RemoveAll("/a")) // missing is fine
	if f.Exists("/a") {
		t.Fatal("still there")
	}
	if f.used != 0 {
		t.Fatalf("bytes not released: %d", f.used)
	}
}

func TestOpenFileReadsAndWritesLive(t *testing.T) {
	f := New()
	w, err := f.OpenFile("/log", O_WRONLY|O_CREATE|O_APPEND, 0o644)
	mustNoErr(t, err)
	r, err := f.Open("/log")
	mustNoErr(t, err)
	io.WriteString(w, "one\n")
	got, _ := io.ReadAll(r)
	io.WriteString(w, "two\n")
	more, _ := io.ReadAll(r)
	if string(got) != "one\n" || string(more) != "two\n" {
		t.Fatalf("live reads %q %q", got, more)
	}
	c, err := f.Create("/log")
	mustNoErr(t, err)
	c.Close()
	if b, _ := f.ReadFile("/log"); len(b) != 0 {
		t.Fatalf("not truncated: %q", b)
	}
	if _, err := f.OpenFile("/log", O_CREATE|O_EXCL|O_WRONLY, 0o644); Reason(err) != "File exists" {
		t.Fatalf("O_EXCL: %v", err)
	}
}

func TestNoSpaceLeft(t *testing.T) {
	f := New()
	f.MaxBytes = 10
	mustNoErr(t, f.WriteFile("/a", []byte("12345"), 0o644))
	if err := f.Append("/a", []byte("123456")); Reason(err) != "No space left on device" {
		t.Fatalf("got %v", err)
	}
	mustNoErr(t, f.WriteFile("/a", []byte("1234567890"), 0o644)) // replacing frees the old bytes
}

func TestMountSharesADirectory(t *testing.T) {
	vol := New()
	vol.Name = "pod/default/app/volume/shared"
	mustNoErr(t, vol.MkdirAll("/data", 0o777))
	c1, c2 := New(), New()
	mustNoErr(t, c1.Mount("/tmp/app", vol, "/data"))
	mustNoErr(t, c2.Mount("/var/log/app", vol, "/data"))
	mustNoErr(t, c1.WriteFile("/tmp/app/healthy", []byte("ok"), 0o644))
	b, err := c2.ReadFile("/var/log/app/healthy")
	mustNoErr(t, err)
	if string(b) != "ok" {
		t.Fatalf("shared read %q", b)
	}
	if err := c1.Rename("/tmp/app/healthy", "/tmp/x"); Reason(err) != "Invalid cross-device link" {
		t.Fatalf("cross-device rename: %v", err)
	}
	if err := c1.Remove("/tmp/app"); Reason(err) != "Device or resource busy" {
		t.Fatalf("remove mount point: %v", err)
	}
	// rm -rf empties the volume but leaves the mount point.
	if err := c1.RemoveAll("/tmp"); Reason(err) != "Device or resource busy" {
		t.Fatalf("RemoveAll over mount: %v", err)
	}
	if c2.Exists("/var/log/app/healthy") {
		t.Fatal("volume content survived rm -rf")
	}
	mustNoErr(t, c1.Unmount("/tmp/app"))
	if c1.Exists("/tmp/app/healthy") {
		t.Fatal("unmounted dir still shows volume")
	}
}

func TestMountInsideItselfStopsAtLoop(t *testing.T) {
	f := New()
	mustNoErr(t, f.MkdirAll("/a", 0o755))
	mustNoErr(t, f.Mount("/a/self", f, "/a"))
	var n int
	_ = f.Walk("/", func(p string, fi FileInfo, err error) error { n++; return nil })
	if n == 0 || n > 1000 {
		t.Fatalf("walk visited %d", n)
	}
	if err := f.RemoveAll("/a"); err == nil {
		t.Fatal("removing a dir holding a mount should fail")
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	vol := New()
	vol.Name = "vol"
	mustNoErr(t, vol.MkdirAll("/d", 0o755))
	mustNoErr(t, vol.WriteFile("/d/v", []byte("vol"), 0o644))
	f := New()
	_, clk := clockAt(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	f.Now = clk
	mustNoErr(t, f.MkdirAll("/root/x", 0o700))
	mustNoErr(t, f.WriteFile("/root/x/t", []byte("text\n"), 0o600))
	mustNoErr(t, f.WriteFile("/bin", []byte{0xff, 0x00}, 0o755))
	mustNoErr(t, f.Mount("/mnt", vol, "/d"))
	s := f.Snapshot()
	js, err := json.Marshal(s)
	mustNoErr(t, err)
	var back Snapshot
	mustNoErr(t, json.Unmarshal(js, &back))
	g, err := Restore(back, func(name string) *FS {
		if name == "vol" {
			return vol
		}
		return nil
	})
	mustNoErr(t, err)
	js2, _ := json.Marshal(g.Snapshot())
	if string(js) != string(js2) {
		t.Fatalf("round trip differs:\n%s\n%s", js, js2)
	}
	if b, _ := g.ReadFile("/mnt/v"); string(b) != "vol" {
		t.Fatalf("mount not restored: %q", b)
	}
	if _, err := Restore(Snapshot{Entries: []SnapshotEntry{{Path: "a/../b"}}}, nil); err == nil {
		t.Fatal("bad path accepted")
	}
}

func FuzzPaths(f *testing.F) {
	for _, s := range []string{"/a/b", "../..", "a//b/./c", "", "/", "x/../../y", "/a\x00b"} {
		f.Add(s, "data")
	}
	f.Fuzz(func(t *testing.T, p, data string) {
		fsys := New()
		fsys.MaxBytes = 1 << 16
		_ = fsys.MkdirAll(p, 0o755)
		_ = fsys.WriteFile(p+"/f", []byte(data), 0o644)
		_, _ = fsys.ReadFile(p)
		_, _ = fsys.ReadDir(p)
		_ = fsys.Rename(p, "/z")
		_ = fsys.Mount(p+"/m", fsys, "/")
		_ = fsys.Walk("/", func(string, FileInfo, error) error { return nil })
		_ = fsys.RemoveAll(p)
		if _, err := Restore(fsys.Snapshot(), nil); err != nil {
			t.Fatal(err)
		}
	})
}

// Files written from shared content read as theirs, and whatever writes to
// one of them (in place through an open file, appending, or replacing it)
// leaves the content and the other files that share it as they were.
func TestSharedContentIsCopiedOnWrite(t *testing.T) {
	content := []byte("server { listen 80; }\n")
	a, b := New(), New()
	for _, f := range []*FS{a, b} {
		mustNoErr(t, f.WriteFileShared("/nginx.conf", content, 0o644))
	}
	fl, err := a.OpenFile("/nginx.conf", O_RDWR, 0)
	mustNoErr(t, err)
	_, err = fl.Write([]byte("SERVER"))
	mustNoErr(t, err)
	mustNoErr(t, b.Append("/nginx.conf", []byte("# more\n")))
	c := New()
	mustNoErr(t, c.WriteFileShared("/x", content, 0o644))
	mustNoErr(t, c.WriteFile("/x", []byte("replaced"), 0o644))

	read := func(f *FS, name string) string {
		got, err := f.ReadFile(name)
		mustNoErr(t, err)
		return string(got)
	}
	for _, tt := range []struct{ what, got, want string }{
		{"written in place", read(a, "/nginx.conf"), "SERVER { listen 80; }\n"},
		{"appended to", read(b, "/nginx.conf"), "server { listen 80; }\n# more\n"},
		{"replaced", read(c, "/x"), "replaced"},
		{"the shared content", string(content), "server { listen 80; }\n"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.what, tt.got, tt.want)
		}
	}
}

// A directory lists its names sorted however they were added, removed or
// renamed, and mounts list by target whatever order they were made in.
func TestDirectoryAndMountOrder(t *testing.T) {
	f := New()
	mustNoErr(t, f.MkdirAll("/d", 0o755))
	for _, n := range []string{"m", "b", "z", "a", "k", "c"} {
		mustNoErr(t, f.WriteFile("/d/"+n, []byte(n), 0o644))
	}
	mustNoErr(t, f.Remove("/d/k"))
	mustNoErr(t, f.Rename("/d/a", "/d/y"))
	mustNoErr(t, f.Rename("/d/b", "/d/z")) // replaces z
	var names []string
	entries, err := f.ReadDir("/d")
	mustNoErr(t, err)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"c", "m", "y", "z"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	if b, _ := f.ReadFile("/d/z"); string(b) != "b" {
		t.Fatalf("/d/z holds %q", b)
	}
	vol := New()
	for _, target := range []string{"/v/b", "/v/a", "/u"} {
		mustNoErr(t, f.Mount(target, vol, "/"))
	}
	mustNoErr(t, f.Unmount("/v/a"))
	var targets []string
	for _, m := range f.Mounts() {
		targets = append(targets, m.Target)
	}
	if want := []string{"/u", "/v/b"}; !reflect.DeepEqual(targets, want) {
		t.Fatalf("mounts %v, want %v", targets, want)
	}
}

// A seeded FS is filled when first looked at, stamped as at Seed.
func TestSeedFillsOnFirstLook(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	now, clk := clockAt(t0)
	f := New()
	f.Now = clk
	filled := 0
	f.Seed(func(f *FS) {
		filled++
		mustNoErr(t, f.MkdirAll("/etc", 0o755))
		mustNoErr(t, f.WriteFile("/etc/hostname", []byte("web\n"), 0o644))
	})
	*now = t0.Add(time.Hour)
	if filled != 0 {
		t.Fatal("filled before anyone looked")
	}
	mustNoErr(t, f.WriteFile("/etc/motd", nil, 0o644))
	for p, want := range map[string]time.Time{"/etc/hostname": t0, "/etc/motd": *now, "/etc": *now, "/": t0} {
		fi, err := f.Stat(p)
		mustNoErr(t, err)
		if !fi.ModTime().Equal(want) {
			t.Errorf("%s stamped %v, want %v", p, fi.ModTime(), want)
		}
	}
	f.Snapshot()
	if filled != 1 {
		t.Fatalf("filled %d times", filled)
	}
}
