package cron

import (
	"archive/zip"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every zone in Go's own copy of the database resolves to the same data.
func TestEveryGoZoneResolves(t *testing.T) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go is not on PATH")
	}
	r, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(root)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Skip(err)
	}
	defer r.Close()
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := io.ReadAll(rc)
		rc.Close()
		if got, ok := lookupZone(zoneData, f.Name); !ok || got != string(want) {
			t.Errorf("%s: found %v, same data %v", f.Name, ok, got == string(want))
		}
	}
	if len(r.File) < 500 {
		t.Errorf("only %d zones in Go's database", len(r.File))
	}
}

func TestLoadLocation(t *testing.T) {
	instant := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, want, err string }{
		{name: "Asia/Shanghai", want: "2026-07-01 20:00:00 +0800 CST"},
		{name: "Asia/Chongqing", want: "2026-07-01 20:00:00 +0800 CST"}, // a link to Shanghai
		{name: "America/New_York", want: "2026-07-01 08:00:00 -0400 EDT"},
		{name: "Europe/London", want: "2026-07-01 13:00:00 +0100 BST"},
		{name: "Etc/UTC", want: "2026-07-01 12:00:00 +0000 UTC"},
		{name: "UTC", want: "2026-07-01 12:00:00 +0000 UTC"},
		{name: "", want: "2026-07-01 12:00:00 +0000 UTC"},
		{name: "Mars/Olympus_Mons", err: "unknown time zone Mars/Olympus_Mons"},
		{name: "asia/shanghai", err: "unknown time zone asia/shanghai"},
		{name: "../etc/passwd", err: "time: invalid location name"},
		{name: "/etc/localtime", err: "time: invalid location name"},
		{name: `\zone`, err: "time: invalid location name"},
	} {
		loc, err := LoadLocation(c.name)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: got %v, %v; want the error %q", c.name, loc, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.name, err)
			continue
		}
		if got := instant.In(loc).String(); got != c.want {
			t.Errorf("%q: noon UTC is %s, want %s", c.name, got, c.want)
		}
	}
}

func FuzzLookupZone(f *testing.F) {
	f.Add(zoneData[:200], "Africa/Abidjan")
	f.Add("\x01\x01a\x05\x01\x02zz", "a")
	f.Add("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", "")
	f.Fuzz(func(t *testing.T, table, name string) {
		lookupZone(table, name)
	})
}
