package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/apiserver"
)

// runExplain is kubectl explain: the schema of a resource or of a field
// path in it (TYPE.field.field), from the same OpenAPI v3 document the API
// server publishes.
func runExplain(inv *Invocation) error {
	switch len(inv.Args) {
	case 0:
		return errors.New("You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.\n")
	case 1:
	default:
		return errors.New("We accept only this format: explain RESOURCE\n")
	}
	reg := inv.Env.Client.Registry()
	arg := strings.TrimSuffix(inv.Args[0], ".")
	parts, err := explainPath(arg)
	if err != nil {
		return err
	}
	res, ok := reg.Resolve(parts[0])
	if !ok {
		// kubectl prints the mapper's words without its "error: " prefix.
		fatal(inv.errOut(), fmt.Sprintf("the server doesn't have a resource type %q", parts[0]), 1)
		return errExit
	}
	fields := parts[1:]
	apiVersion := inv.Flags.String("api-version")
	// Without --api-version, "deployments.apps.spec" names the group too.
	if gr := res.GroupResource().String(); apiVersion == "" && res.Group != "" && strings.HasPrefix(arg, gr) {
		fields = nil
		if rest := arg[len(gr):]; rest != "" {
			rest, err := explainPath("x" + rest)
			if err != nil {
				return err
			}
			fields = rest[1:]
		}
	}
	req := explainRequest{group: res.Group, version: res.Version, resource: res.Name, fieldPath: fields, recursive: inv.Flags.Bool("recursive")}
	if apiVersion != "" {
		if strings.Count(apiVersion, "/") > 1 {
			return fmt.Errorf("unexpected GroupVersion string: %s", apiVersion)
		}
		group, version, ok := strings.Cut(apiVersion, "/")
		if !ok {
			group, version = "", apiVersion
		}
		req.group, req.version = group, version
	}
	// plaintext-openapiv2 reads /openapi/v2, which publishes no schemas.
	format := inv.Flags.String("output")
	if format == "plaintext-openapiv2" {
		return fmt.Errorf("couldn't find resource for %q", req.group+"/"+req.version+", Kind="+res.Kind)
	}
	doc, ok := apiserver.OpenAPIDocument(reg, req.group, req.version)
	if !ok {
		return fmt.Errorf("couldn't find resource for %q", req.gvrString())
	}
	if format != "plaintext" {
		return fmt.Errorf("unrecognized format: %s", format)
	}
	// Read the document as a client would, through its JSON.
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	var parsed map[string]any
	if err := json.Unmarshal(raw, &parsed); err != nil {
		return err
	}
	out, err := renderExplain(parsed, req)
	// The header is written before a missing field is noticed, as kubectl's
	// template writes it.
	_, werr := inv.out().Write([]byte(out))
	if err != nil {
		return err
	}
	return werr
}

// explainPath splits TYPE.field.field as kubectl does, by reading it as a
// JSONPath made only of field names: `\.` escapes a dot, and any other
// JSONPath step (an index, a wildcard, a recursive descent) is refused.
func explainPath(in string) ([]string, error) {
	if strings.HasPrefix(in, "$") {
		return nil, errors.New("a resource must be present, got: /, Resource=")
	}
	if i := strings.IndexByte(in, '['); i >= 0 {
		j := strings.IndexByte(in[i:], ']')
		if j < 0 {
			return nil, errors.New("unterminated array")
		}
		// An index, slice, wildcard or filter parses, and is then refused
		// as not a field; anything else is not an index at all.
		inner := in[i+1 : i+j]
		if inner == "*" || strings.HasPrefix(inner, "?") || strings.Trim(inner, "0123456789-:, ") == "" {
			return nil, errors.New("invalid jsonpath syntax, first node must be field node")
		}
		return nil, fmt.Errorf("invalid array index %s", inner)
	}
	if strings.HasPrefix(in, ".") || strings.Contains(in, "..") || strings.Contains(in, "*") {
		return nil, errors.New("invalid jsonpath syntax, first node must be field node")
	}
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(in); i++ {
		switch {
		case in[i] == '\\' && i+1 < len(in) && in[i+1] == '.':
			cur.WriteByte('.')
			i++
		case in[i] == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(in[i])
		}
	}
	return append(parts, cur.String()), nil
}
