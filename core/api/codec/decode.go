package codec

import (
	"encoding/json"
	"errors"
	"reflect"

	"kubeplay/core/api"
)

// DecodeOptions say how strictly a document is read.
type DecodeOptions struct {
	// Strict reports unknown and duplicate fields (and, in DecodeYAML,
	// duplicate YAML keys), as the API server's fieldValidation=Strict does,
	// in a *StrictDecodingError returned with the decoded object; without
	// it they are dropped silently.
	Strict bool
	// Default fills a missing kind, and a missing apiVersion, as a request
	// body sent to a typed URL is completed (upstream's gvkWithDefaults).
	Default api.GroupVersionKind
}

// DecodeYAML decodes one YAML document as the API server decodes a YAML
// request body: converted to JSON (a YAML problem is a *SyntaxError), then
// as Decode. With Strict, duplicate YAML keys are reported too (`yaml:
// unmarshal errors:\n  line 8: key "replicas" already set in map`).
func DecodeYAML(doc []byte, opts DecodeOptions) (api.Object, error) {
	js, err := YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	var yamlStrict string
	if opts.Strict {
		if _, err := YAMLToJSONStrict(doc); err != nil {
			yamlStrict = err.Error()
		}
	}
	return decode(js, opts, yamlStrict)
}

// DecodeDocument decodes a document from Split as the API server decodes
// what kubectl sends for it: kubectl converts YAML to JSON itself, so a
// duplicate YAML key is silently replaced by the later one even in strict
// mode (kubernetes/kubernetes#125885), while duplicates in JSON input are
// reported. SyntaxError positions count from the start of the whole input.
func DecodeDocument(d Document, opts DecodeOptions) (api.Object, error) {
	js := d.Data
	if !d.JSON {
		var err error
		if js, err = YAMLToJSON(d.Data); err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && d.Line > 1 {
				se.Line += d.Line - 1
			}
			return nil, err
		}
	}
	return Decode(js, opts)
}

// Decode reads a JSON document into the typed object its apiVersion and
// kind name, as the API server's JSON serializer does:
//
//   - apiVersion/kind of the wrong type: `couldn't get version/kind; json
//     parse error: json: cannot unmarshal number into Go struct field .kind
//     of type string`;
//   - kind or apiVersion missing: *MissingKindError, *MissingVersionError;
//   - a kind the scheme does not serve: *NoKindMatchError;
//   - a value of the wrong type: `json: cannot unmarshal array into Go
//     struct field ObjectMeta.metadata.labels of type map[string]string`;
//   - field names are matched case-sensitively; unknown fields are dropped,
//     or with Strict reported (with duplicates) in a *StrictDecodingError
//     that comes with the decoded object.
func Decode(jsonDoc []byte, opts DecodeOptions) (api.Object, error) {
	return decode(jsonDoc, opts, "")
}

func decode(jsonDoc []byte, opts DecodeOptions, yamlStrict string) (api.Object, error) {
	var tm struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(jsonDoc, &tm); err != nil {
		return nil, errors.New("couldn't get version/kind; json parse error: " + err.Error())
	}
	group, version := api.ParseAPIVersion(tm.APIVersion)
	kind := tm.Kind
	if d := opts.Default; d != (api.GroupVersionKind{}) {
		if kind == "" {
			kind = d.Kind
		}
		if version == "" && group == "" {
			group, version = d.Group, d.Version
		}
		if version == "" && group == d.Group {
			version = d.Version
		}
	}
	if kind == "" {
		return nil, &MissingKindError{Data: string(jsonDoc)}
	}
	if version == "" {
		return nil, &MissingVersionError{Data: string(jsonDoc)}
	}
	gvk := api.GroupVersionKind{Group: group, Version: version, Kind: kind}
	obj, ok := api.New(gvk.APIVersion(), kind)
	if !ok {
		return nil, &NoKindMatchError{Group: group, Version: version, Kind: kind}
	}
	strictErrs, err := decodeInto(jsonDoc, obj, opts.Strict, group == "autoscaling" && version == "v2")
	if err != nil {
		return nil, err
	}
	if opts.Strict {
		if yamlStrict != "" {
			strictErrs = append([]string{yamlStrict}, strictErrs...)
		}
		if len(strictErrs) > 0 {
			return obj, &StrictDecodingError{Errors: strictErrs}
		}
	}
	return obj, nil
}

// DecodeInto fills obj (a pointer) from a JSON document by Decode's rules
// without choosing the type from apiVersion/kind: for bodies whose type the
// caller knows (DeleteOptions, a patched object).
func DecodeInto(jsonDoc []byte, obj any, opts DecodeOptions) error {
	_, v2 := obj.(*api.HorizontalPodAutoscaler)
	strictErrs, err := decodeInto(jsonDoc, obj, opts.Strict, v2)
	if err != nil {
		return err
	}
	if opts.Strict && len(strictErrs) > 0 {
		return &StrictDecodingError{Errors: strictErrs}
	}
	return nil
}

// decodeInto fills obj (a pointer) from jsonDoc with upstream's rules and
// returns the strict errors found.
func decodeInto(jsonDoc []byte, obj any, strict, v2 bool) ([]string, error) {
	tree, err := parseJSON(jsonDoc)
	if err != nil {
		// Not JSON at all: let encoding/json say why.
		var x any
		if jerr := json.Unmarshal(jsonDoc, &x); jerr != nil {
			return nil, jerr
		}
		return nil, err
	}
	w := &typeWalker{strict: strict, v2: v2}
	w.walk(tree, reflect.TypeOf(obj))
	if w.fatal != nil {
		return nil, w.fatal
	}
	if w.saved != nil {
		return nil, w.saved
	}
	if err := json.Unmarshal(w.out, obj); err != nil {
		return nil, err
	}
	return w.strictErrs, nil
}

// metadataOnlyObject is what kubectl checks every manifest against before
// sending it; its name appears in error messages.
type metadataOnlyObject struct {
	api.TypeMeta   `json:",inline"`
	api.ObjectMeta `json:"metadata,omitempty"`
}

// CheckMetadata is kubectl's client-side check of a manifest: apiVersion,
// kind and metadata must decode into their types, e.g. `json: cannot
// unmarshal array into Go struct field ObjectMeta.metadata.labels of type
// map[string]string`. Other fields are left to the server.
func CheckMetadata(jsonDoc []byte) error {
	_, err := decodeInto(jsonDoc, &metadataOnlyObject{}, false, false)
	return err
}

// ReadTypeMeta reads apiVersion and kind the way kubectl's unstructured
// decoder does: the document must be a JSON object (`json: cannot unmarshal
// array into Go value of type unstructured.detector`) and kind a non-empty
// string (*MissingKindError). A non-string apiVersion reads as "".
func ReadTypeMeta(jsonDoc []byte) (api.TypeMeta, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(jsonDoc, &m); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return api.TypeMeta{}, errors.New("json: cannot unmarshal " + te.Value + " into Go value of type unstructured.detector")
		}
		return api.TypeMeta{}, err
	}
	var tm api.TypeMeta
	json.Unmarshal(m["apiVersion"], &tm.APIVersion)
	json.Unmarshal(m["kind"], &tm.Kind)
	if tm.Kind == "" {
		return api.TypeMeta{}, &MissingKindError{Data: string(jsonDoc)}
	}
	return tm, nil
}
