package codec

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// EncodeYAML prints v as `kubectl get -o yaml` does: v is marshalled with
// encoding/json, and the JSON written as YAML by JSONToYAML (keys in
// yaml.v2's order whatever the struct order, `null` for nil, `{}` and `[]`
// for empty collections, strings quoted only where needed).
func EncodeYAML(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return JSONToYAML(j)
}

// EncodeJSON prints v as `kubectl -o json` does: json.MarshalIndent with
// four spaces, HTML characters escaped (\u003c), and a final newline. A
// typed object keeps its struct's field order, as `kubectl create
// --dry-run=client -o json` prints it; kubectl holds objects read from the
// server as unstructured maps, so for `kubectl get -o json` pass
// Unstructured(obj), whose keys print sorted.
func EncodeJSON(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Unstructured converts v to the form kubectl keeps server objects in:
// maps, slices, strings, bools, nil, int64 for integers and float64 for
// other numbers.
func Unstructured(v any) (map[string]any, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	convertNumbers(m)
	return m, nil
}

func convertNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = convertNumbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = convertNumbers(x)
		}
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			return f
		}
	}
	return v
}

// jsonUnmarshalNumber decodes JSON keeping numbers as json.Number.
func jsonUnmarshalNumber(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}
