package kubelet

import (
	"fmt"
	"io/fs"
	"path"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/vfs"
)

// projectedFile is one file of a volume the kubelet fills from the API
// (configMap, secret, downwardAPI, projected). The files are read from the
// API when the volume is set up, but written into its filesystem only
// when a container first looks there (vfs.FS.Seed): configMap text stays
// the API object's string until then, and most pods' service account
// volume is never read at all.
type projectedFile struct {
	path string
	content
	perm fs.FileMode
	// mkdir: create the file's directories first (a key's item path may
	// have some).
	mkdir bool
}

// content is a file's bytes, as the API object holds them.
type content struct {
	text string
	data []byte
}

func (c content) bytes() []byte {
	if c.data != nil {
		return c.data
	}
	return []byte(c.text)
}

// seedProjection makes fs hold files once it is first looked at.
func seedProjection(fs *vfs.FS, files []projectedFile) {
	if len(files) == 0 {
		return
	}
	fs.Seed(func(fs *vfs.FS) {
		for _, f := range files {
			if f.mkdir {
				_ = fs.MkdirAll(path.Dir(f.path), 0o755)
			}
			_ = fs.WriteFile(f.path, f.bytes(), f.perm)
		}
	})
}

// projectKeys lists configMap or secret keys as files (all keys, or the
// listed items at their paths). A missing item stops the list there, with
// an error.
func projectKeys(files []projectedFile, data map[string]content, items []api.KeyToPath) ([]projectedFile, error) {
	if len(items) == 0 {
		keys := make([]string, 0, len(data))
		for key := range data {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			files = append(files, projectedFile{path: "/" + key, content: data[key], perm: 0o644})
		}
		return files, nil
	}
	for _, it := range items {
		val, ok := data[it.Key]
		if !ok {
			return files, fmt.Errorf("configmap references non-existent config key: %s", it.Key)
		}
		files = append(files, projectedFile{path: path.Join("/", it.Path), content: val, perm: 0o644, mkdir: true})
	}
	return files, nil
}
