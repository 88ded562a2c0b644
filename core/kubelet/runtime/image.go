// Package runtime is the kubelet's container runtime in miniature: images
// are programs over an in-memory filesystem, containers are processes run
// by the terminal's shell, and everything moves on the virtual clock.
package runtime

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"time"
)

// Image is a pullable image: what it holds and what it runs by default.
type Image struct {
	// Ref is the normalised reference, "docker.io/library/nginx:1.14.2".
	Ref        string
	ID         string // sha256:…, derived from Ref
	Digest     string // repo@sha256:…, for imageID
	Size       int64
	Entrypoint []string
	Cmd        []string
	Env        []string // NAME=value
	WorkingDir string
	// Files seeds the container's root filesystem (path → content).
	Files map[string]string
	// Busybox images answer errors the way busybox's tools word them.
	Busybox bool
	// HealthPath is a path the image's web server answers 200 itself
	// (a `location = /health` in its config), whatever is mounted.
	HealthPath string
	// fileData are Files as bytes, made once and shared by the containers
	// started from this image (their filesystems copy a file only when it
	// is written to).
	fileData map[string][]byte
}

// fileBytes is the content of one of the image's Files.
func (im *Image) fileBytes(path string) []byte {
	if b, ok := im.fileData[path]; ok {
		return b
	}
	if im.fileData == nil {
		im.fileData = map[string][]byte{}
	}
	b := []byte(im.Files[path])
	im.fileData[path] = b
	return b
}

// PullTime is how long pulling the image takes on a fresh node: a
// registry round trip plus the bytes at about 25 MB/s.
func (im *Image) PullTime() time.Duration {
	return 800*time.Millisecond + time.Duration(im.Size/25)*time.Microsecond
}

// Normalize expands an image reference as containerd does:
// "nginx" → "docker.io/library/nginx:latest".
func Normalize(ref string) string {
	name, tag, digest := ref, "", ""
	if i := strings.Index(name, "@"); i >= 0 {
		name, digest = name[:i], name[i:]
	}
	if i := strings.LastIndex(name, ":"); i >= 0 && !strings.Contains(name[i:], "/") {
		name, tag = name[:i], name[i+1:]
	}
	first, _, hasSlash := strings.Cut(name, "/")
	if !hasSlash || !(strings.ContainsAny(first, ".:") || first == "localhost") {
		if !hasSlash {
			name = "library/" + name
		}
		name = "docker.io/" + name
	}
	if digest != "" {
		return name + digest
	}
	if tag == "" {
		tag = "latest"
	}
	return name + ":" + tag
}

// repoTag splits a normalised reference into repository and tag.
func repoTag(ref string) (repo, tag string) {
	if i := strings.Index(ref, "@"); i >= 0 {
		return ref[:i], ref[i+1:]
	}
	i := strings.LastIndex(ref, ":")
	return ref[:i], ref[i+1:]
}

// PullError is a registry miss, worded as containerd reports it.
type PullError struct{ Ref, Image string }

func (e *PullError) Error() string {
	return fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", e.Ref, e.Ref, e.Ref)
}

// family is an image repository the runtime knows: its programs and how
// its tags are named.
type family struct {
	size  int64
	tags  func(tag string) bool // which tags exist
	build func(im *Image, tag string)
}

// Catalog is the registry the cluster pulls from. Lessons may declare
// more images (Add).
type Catalog struct {
	families map[string]*family
	extra    map[string]*Image
	// resolved caches lookups: resolving runs tag patterns, and the kubelet
	// asks for every container status it writes.
	resolved map[string]*Image
	// faults are downloads set to fail (FailDownload): image → which
	// coming download of it.
	faults map[string]int
}

// NewCatalog returns the images every cluster can pull.
func NewCatalog() *Catalog {
	c := &Catalog{families: map[string]*family{}, extra: map[string]*Image{}, resolved: map[string]*Image{}}
	registerImages(c)
	return c
}

func (c *Catalog) add(repo string, f *family) { c.families[repo] = f }

// Add declares an image a lesson needs (its programs come from base).
func (c *Catalog) Add(ref, base string) error {
	b, err := c.Resolve(base)
	if err != nil {
		return err
	}
	im := *b
	im.Ref = Normalize(ref)
	im.ID, im.Digest = imageIDs(im.Ref)
	c.extra[im.Ref] = &im
	c.resolved = map[string]*Image{}
	return nil
}

// Resolve finds an image by reference, or fails as a registry miss.
func (c *Catalog) Resolve(ref string) (*Image, error) {
	if im, ok := c.resolved[ref]; ok {
		return im, nil
	}
	im, err := c.resolve(ref)
	if err == nil {
		c.resolved[ref] = im
	}
	return im, err
}

func (c *Catalog) resolve(ref string) (*Image, error) {
	n := Normalize(ref)
	if im, ok := c.extra[n]; ok {
		return im, nil
	}
	repo, tag := repoTag(n)
	f, ok := c.families[repo]
	if !ok || !f.tags(tag) {
		return nil, &PullError{Ref: n, Image: ref}
	}
	im := &Image{Ref: n, Size: f.size, Files: map[string]string{}}
	im.ID, im.Digest = imageIDs(n)
	f.build(im, tag)
	return im, nil
}

// Repositories lists the known repositories, sorted.
func (c *Catalog) Repositories() []string {
	out := make([]string, 0, len(c.families))
	for r := range c.families {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// imageIDs derives stable, realistic-looking digests from a reference.
func imageIDs(ref string) (id, digest string) {
	hex := func(salt string) string {
		var b strings.Builder
		for i := 0; b.Len() < 64; i++ {
			h := fnv.New64a()
			fmt.Fprintf(h, "%s|%s|%d", salt, ref, i)
			fmt.Fprintf(&b, "%016x", h.Sum64())
		}
		return b.String()[:64]
	}
	repo, _ := repoTag(ref)
	return "sha256:" + hex("id"), repo + "@sha256:" + hex("digest")
}
