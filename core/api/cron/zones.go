package cron

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// The IANA zone database, from Go's lib/time/zoneinfo.zip with each
// distinct zone stored once (tools/tzpack says how). Embedded so that zones
// resolve the same natively and in the browser, which has no zoneinfo
// files, and read afresh at each lookup: nothing is cached between calls.
//
//go:generate go run ../../../tools/tzpack -o zones.bin
//go:embed zones.bin
var zoneData string

// LoadLocation resolves a zone name as time.LoadLocation does, with its
// errors, from the embedded zones alone.
func LoadLocation(name string) (*time.Location, error) {
	switch name {
	case "", "UTC":
		return time.UTC, nil
	case "Local":
		return time.Local, nil
	}
	if strings.Contains(name, "..") || name[0] == '/' || name[0] == '\\' {
		return nil, errors.New("time: invalid location name")
	}
	if data, ok := lookupZone(zoneData, name); ok {
		return time.LoadLocationFromTZData(name, []byte(data))
	}
	return nil, errors.New("unknown time zone " + name)
}

// lookupZone returns the TZif data of the named zone in a table tzpack
// wrote, and false for a name it does not hold (or a table cut short).
func lookupZone(table, name string) (string, bool) {
	r := reader{s: table, ok: true}
	want := -1
	for n := r.uvarint(); n > 0 && r.ok; n-- {
		got, i := r.bytes(), r.uvarint()
		if got == name {
			want = int(i)
		}
	}
	if want < 0 || !r.ok {
		return "", false
	}
	zones := r.uvarint()
	for i := 0; uint64(i) < zones && r.ok; i++ {
		z := r.bytes()
		if i == want {
			return z, r.ok
		}
	}
	return "", false
}

// reader reads a tzpack table; ok turns false at the first read past its
// end, and every read after that gives zeros.
type reader struct {
	s  string
	ok bool
}

func (r *reader) uvarint() uint64 {
	if !r.ok {
		return 0
	}
	v, n := binary.Uvarint([]byte(r.s[:min(len(r.s), binary.MaxVarintLen64)]))
	if n <= 0 {
		r.ok, r.s = false, ""
		return 0
	}
	r.s = r.s[n:]
	return v
}

func (r *reader) bytes() string {
	n := r.uvarint()
	if !r.ok || n > uint64(len(r.s)) {
		r.ok, r.s = false, ""
		return ""
	}
	b := r.s[:n]
	r.s = r.s[n:]
	return b
}
