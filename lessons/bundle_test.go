package lessons

import (
	"reflect"
	"testing"
	"testing/fstest"

	"kubeplay/core/lesson"
)

// The page's bundle holds the lessons the kubeplay command embeds, file
// for file, and they load the same from it.
func TestBundleHoldsTheLessons(t *testing.T) {
	b, err := Pack(FS)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := Unpack(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "deployment-rollouts/lesson.yaml", "pods-and-probes/lesson.yaml"); err != nil {
		t.Fatal(err)
	}
	want, err := lesson.LoadAll(FS)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lesson.LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || !reflect.DeepEqual(got, want) {
		t.Fatalf("the bundle gives %d lessons, the embedded files %d, or they differ", len(got), len(want))
	}
}

func TestUnpackRefusesABadBundle(t *testing.T) {
	for name, b := range map[string]string{
		"empty":              "",
		"cut short":          "\x01\x05a/b.y",
		"content cut short":  "\x01\x05a/b.y\x09abc",
		"bytes after":        "\x01\x03a/b\x00!",
		"absolute path":      "\x01\x04/a/b\x00",
		"dot dot":            "\x01\x07a/../bb\x00",
		"the root":           "\x01\x01.\x00",
		"backslash":          "\x01\x03\\00\x00",
		"glob character":     "\x01\x03[/0\x00",
		"twice":              "\x02\x03a/b\x00\x03a/b\x00",
		"file and folder":    "\x02\x01a\x00\x03a/b\x00",
		"count past the end": "\xff\xff\x03",
	} {
		if fsys, err := Unpack([]byte(b)); err == nil {
			t.Errorf("%s: unpacked %v", name, fsys)
		}
	}
}

func FuzzUnpack(f *testing.F) {
	f.Add([]byte("\x02\x09a/one.yaml\x02hi\x0bb/files/two\x00"))
	f.Add([]byte("\x01\x03a/b\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fsys, err := Unpack(b)
		if err != nil {
			return
		}
		// Whatever unpacks is a well-formed file system of its files.
		var files []string
		for p := range fsys.(bundle) {
			files = append(files, p)
		}
		if err := fstest.TestFS(fsys, files...); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPackRefusesAFileNameUnpackWouldRefuse(t *testing.T) {
	if _, err := Pack(fstest.MapFS{"a/b[1].yaml": {}}); err == nil {
		t.Fatal("packed a name with a glob character")
	}
}
