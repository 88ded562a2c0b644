// Package codec turns manifests into API objects and objects into kubectl's
// `-o yaml` and `-o json` text.
//
// Kubernetes reads YAML through sigs.k8s.io/yaml, which runs yaml.v2 (a Go
// port of libyaml) and converts the result to JSON. Learners see its exact
// messages ("yaml: line 5: mapping values are not allowed in this context"),
// its YAML 1.1 scalars (`yes` is true, `080` is 80) and its output style
// (`- ` not indented under its key, long plain strings folded at column 80).
// To give the same bytes, the reader here follows libyaml's scanner and
// parser state machines (yaml_scan.go, yaml_parse.go), yaml.v2's resolver
// and decoder (yaml_resolve.go, yaml_value.go) and its emitter (yaml_emit.go),
// written over plain bytes so the WebAssembly build stays small.
//
// The pipeline is kubectl's: Split cuts a stream into documents the way
// apimachinery's YAMLReader does, YAMLToJSON converts one document,
// Decode reads apiVersion/kind and fills the typed object with
// encoding/json (errors rewritten to read like upstream's), and
// EncodeYAML/EncodeJSON print objects.
package codec
