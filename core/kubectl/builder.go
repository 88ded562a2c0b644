package kubectl

import (
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/apiserver"
)

// info is one object kubectl works on: where it came from, its resource and
// the object (a manifest from -f, or a live object).
type info struct {
	Source    string // "STDIN", a file name, or "" for objects named on the command line
	Resource  *apiserver.Resource
	Namespace string
	Name      string
	Object    api.Object
	// Raw is the manifest's JSON as written, for apply's stored configuration.
	Raw []byte
	// Strict holds what strict field validation would reject in a manifest.
	Strict *codec.StrictDecodingError
}

// kindName is how kubectl names a resource in messages: "deployment.apps".
func kindName(res *apiserver.Resource) string {
	k := strings.ToLower(res.Kind)
	if res.Group != "" {
		k += "." + res.Group
	}
	return k
}

// source is one -f argument's content.
type source struct {
	name string
	data []byte
}

// readSources reads the -f arguments: "-" is stdin, a directory contributes
// its .json, .yaml and .yml files (with -R, recursively), an http(s) URL
// goes through Env.Fetch.
func (inv *Invocation) readSources() ([]source, error) {
	var out []source
	recursive := inv.Flags.Bool("recursive")
	for _, f := range inv.Flags.Strings("filename") {
		switch {
		case f == "-":
			data, err := io.ReadAll(inv.Env.Stdin)
			if err != nil {
				return nil, err
			}
			out = append(out, source{"STDIN", data})
		case strings.HasPrefix(f, "http://") || strings.HasPrefix(f, "https://"):
			if inv.Env.Fetch == nil {
				return nil, fmt.Errorf("unable to read URL %q, server reported %s, status code=%d", f, "503 Service Unavailable", 503)
			}
			data, err := inv.Env.Fetch(f)
			if err != nil {
				return nil, err
			}
			out = append(out, source{f, data})
		default:
			srcs, err := inv.readPath(f, recursive, true)
			if err != nil {
				return nil, err
			}
			out = append(out, srcs...)
		}
	}
	return out, nil
}

func (inv *Invocation) readPath(p string, recursive, top bool) ([]source, error) {
	fs := inv.Env.FS
	if fs == nil {
		return nil, fmt.Errorf("the path %q does not exist", p)
	}
	abs := p
	if !path.IsAbs(abs) {
		abs = path.Join(inv.Env.Cwd, p)
	}
	if fs.IsDir(abs) {
		entries, err := fs.ReadDir(abs)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		var out []source
		for _, n := range names {
			child := path.Join(p, n)
			if fs.IsDir(path.Join(abs, n)) {
				if recursive {
					more, err := inv.readPath(child, recursive, false)
					if err != nil {
						return nil, err
					}
					out = append(out, more...)
				}
				continue
			}
			switch path.Ext(n) {
			case ".json", ".yaml", ".yml":
				more, err := inv.readPath(child, recursive, false)
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
			}
		}
		return out, nil
	}
	data, err := fs.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("the path %q does not exist", p)
	}
	return []source{{p, data}}, nil
}

// manifests decodes every -f document into infos. Like kubectl's builder
// with ContinueOnError, a document that cannot be read is reported and the
// others still count; a YAML syntax error ends its stream there.
func (inv *Invocation) manifests() ([]*info, []error) {
	srcs, err := inv.readSources()
	if err != nil {
		return nil, []error{err}
	}
	if len(srcs) == 0 {
		return nil, []error{errors.New("no objects passed to " + inv.Cmd.Name)}
	}
	ns, explicit := inv.Namespace()
	reg := inv.Env.Client.Registry()
	var infos []*info
	var errs []error
	for _, src := range srcs {
		docs, err := codec.Split(src.data)
		if err != nil {
			errs = append(errs, fmt.Errorf("error parsing %s: %v", src.name, err))
			continue
		}
	docs:
		for _, d := range docs {
			js := d.Data
			if !d.JSON {
				js, err = codec.YAMLToJSON(d.Data)
				if err != nil {
					errs = append(errs, fmt.Errorf("error parsing %s: error converting YAML to JSON: %v", src.name, err))
					break docs
				}
			}
			if isEmptyDocument(js) {
				continue
			}
			obj, err := codec.Decode(js, codec.DecodeOptions{Strict: true})
			var strict *codec.StrictDecodingError
			if errors.As(err, &strict) && obj != nil {
				err = nil
			} else {
				strict = nil
			}
			if err != nil {
				errs = append(errs, decodeError(src.name, js, err))
				continue
			}
			tm := obj.GetTypeMeta()
			res, ok := reg.ForKind(tm.APIVersion, tm.Kind)
			if !ok {
				group, version := api.ParseAPIVersion(tm.APIVersion)
				errs = append(errs, decodeError(src.name, js, &codec.NoKindMatchError{Group: group, Version: version, Kind: tm.Kind}))
				continue
			}
			m := obj.GetObjectMeta()
			if res.Namespaced {
				switch {
				case m.Namespace == "":
					m.Namespace = ns
				case explicit && m.Namespace != ns:
					errs = append(errs, fmt.Errorf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", m.Namespace, ns, m.Namespace))
					continue
				}
			} else {
				m.Namespace = ""
			}
			infos = append(infos, &info{Source: src.name, Resource: res, Namespace: m.Namespace, Name: m.Name, Object: obj, Raw: js, Strict: strict})
		}
	}
	return infos, errs
}

// manifestNamespace is metadata.namespace as a manifest wrote it.
func manifestNamespace(js []byte) string {
	var meta struct {
		Metadata struct {
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	_ = codec.DecodeInto(js, &meta, codec.DecodeOptions{})
	return meta.Metadata.Namespace
}

// decodeError words a manifest the scheme cannot read as kubectl does.
func decodeError(source string, js []byte, err error) error {
	var nk *codec.NoKindMatchError
	if errors.As(err, &nk) {
		var meta struct {
			Metadata struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		_ = codec.DecodeInto(js, &meta, codec.DecodeOptions{})
		return fmt.Errorf("resource mapping not found for name: %q namespace: %q from %q: %v\nensure CRDs are installed first",
			meta.Metadata.Name, meta.Metadata.Namespace, source, err)
	}
	var mk *codec.MissingKindError
	var mv *codec.MissingVersionError
	if errors.As(err, &mk) || errors.As(err, &mv) {
		return fmt.Errorf("error validating %q: error validating data: %s; if you choose to ignore these errors, turn validation off with --validate=false", source, missingTypeMeta(js))
	}
	return fmt.Errorf("unable to decode %q: %v", source, err)
}

// missingTypeMeta is kubectl's client-side schema complaint about a
// document without apiVersion or kind.
func missingTypeMeta(js []byte) string {
	tm, _ := codec.ReadTypeMeta(js)
	var missing []string
	if tm.APIVersion == "" {
		missing = append(missing, "apiVersion not set")
	}
	if tm.Kind == "" {
		missing = append(missing, "kind not set")
	}
	return "[" + strings.Join(missing, ", ") + "]"
}

func isEmptyDocument(js []byte) bool {
	s := strings.TrimSpace(string(js))
	return s == "" || s == "null" || s == "{}"
}

// typeArgs parses "TYPE NAME...", "TYPE/NAME ...", "TYPE1,TYPE2" into the
// resources and names they select.
type resourceArg struct {
	Resource *apiserver.Resource
	Names    []string // empty: all (subject to selectors)
}

// resolveType finds a resource a user named, with kubectl's error.
func (inv *Invocation) resolveType(name string) (*apiserver.Resource, error) {
	res, ok := inv.Env.Client.Registry().Resolve(name)
	if !ok {
		return nil, fmt.Errorf("the server doesn't have a resource type %q", name)
	}
	return res, nil
}

// resourceArgs reads the positional arguments of get/delete/describe.
func (inv *Invocation) resourceArgs(args []string) ([]resourceArg, error) {
	if len(args) == 0 {
		return nil, nil
	}
	var out []resourceArg
	if strings.Contains(args[0], "/") {
		for _, a := range args {
			i := strings.Index(a, "/")
			if i < 0 {
				return nil, fmt.Errorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. '%s get resource/<resource_name>' instead of '%s get resource resource/<resource_name>'", "kubectl", "kubectl")
			}
			if i == 0 || i == len(a)-1 {
				return nil, fmt.Errorf("arguments in resource/name form must have a single resource and name")
			}
			res, err := inv.resolveType(a[:i])
			if err != nil {
				return nil, err
			}
			if n := len(out); n > 0 && out[n-1].Resource == res {
				out[n-1].Names = append(out[n-1].Names, a[i+1:])
				continue
			}
			out = append(out, resourceArg{Resource: res, Names: []string{a[i+1:]}})
		}
		return out, nil
	}
	for _, a := range args[1:] {
		if strings.Contains(a, "/") {
			return nil, fmt.Errorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. '%s get resource/<resource_name>' instead of '%s get resource resource/<resource_name>'", "kubectl", "kubectl")
		}
	}
	reg := inv.Env.Client.Registry()
	seen := map[*apiserver.Resource]bool{}
	for _, t := range strings.Split(args[0], ",") {
		if t == "" {
			continue
		}
		var list []*apiserver.Resource
		if cat := reg.Category(t); len(cat) > 0 && t == "all" {
			list = cat
		} else {
			res, err := inv.resolveType(t)
			if err != nil {
				return nil, err
			}
			list = []*apiserver.Resource{res}
		}
		for _, res := range list {
			if seen[res] {
				continue
			}
			seen[res] = true
			out = append(out, resourceArg{Resource: res, Names: append([]string(nil), args[1:]...)})
		}
	}
	if len(out) > 1 && len(args) > 1 {
		// Names with several types apply to each of them.
		return out, nil
	}
	return out, nil
}
