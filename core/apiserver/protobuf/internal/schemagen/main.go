// Command schemagen writes the schema tables of package protobuf from
// upstream sources: field numbers, wire types and message references from
// each generated.proto, and JSON names, omitempty, pointers and inlining
// from the Go types beside it (the .proto alone cannot say what Go's JSON
// encoder would write). It reads checkouts of k8s.io/api and
// k8s.io/apimachinery and needs nothing but the standard library.
//
//	go run ./internal/schemagen -api DIR -apimachinery DIR -out .
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// source is one upstream package to read.
type source struct {
	root, dir    string // repository flag and directory inside it
	protoPkg     string
	groupVersion string
	goVar        string // variable name in the output
	file         string // output file name
}

var sources = []source{
	{"apimachinery", "pkg/apis/meta/v1", "k8s.io.apimachinery.pkg.apis.meta.v1", "meta.k8s.io/v1", "metaV1", "schema_meta_v1.go"},
	{"api", "core/v1", "k8s.io.api.core.v1", "v1", "coreV1", "schema_core_v1.go"},
	{"api", "apps/v1", "k8s.io.api.apps.v1", "apps/v1", "appsV1", "schema_apps_v1.go"},
	{"api", "batch/v1", "k8s.io.api.batch.v1", "batch/v1", "batchV1", "schema_batch_v1.go"},
	{"api", "policy/v1", "k8s.io.api.policy.v1", "policy/v1", "policyV1", "schema_policy_v1.go"},
	{"api", "rbac/v1", "k8s.io.api.rbac.v1", "rbac.authorization.k8s.io/v1", "rbacV1", "schema_rbac_v1.go"},
	{"api", "networking/v1", "k8s.io.api.networking.v1", "networking.k8s.io/v1", "networkingV1", "schema_networking_v1.go"},
	{"api", "scheduling/v1", "k8s.io.api.scheduling.v1", "scheduling.k8s.io/v1", "schedulingV1", "schema_scheduling_v1.go"},
	// batch/v1 Jobs refer to it (spec.scheduling).
	{"api", "scheduling/v1alpha3", "k8s.io.api.scheduling.v1alpha3", "scheduling.k8s.io/v1alpha3", "schedulingV1alpha3", "schema_scheduling_v1alpha3.go"},
	{"api", "autoscaling/v1", "k8s.io.api.autoscaling.v1", "autoscaling/v1", "autoscalingV1", "schema_autoscaling_v1.go"},
	{"api", "autoscaling/v2", "k8s.io.api.autoscaling.v2", "autoscaling/v2", "autoscalingV2", "schema_autoscaling_v2.go"},
	{"api", "authentication/v1", "k8s.io.api.authentication.v1", "authentication.k8s.io/v1", "authenticationV1", "schema_authentication_v1.go"},
	// kubectl auth can-i and kubectl certificate approve|deny.
	{"api", "authorization/v1", "k8s.io.api.authorization.v1", "authorization.k8s.io/v1", "authorizationV1", "schema_authorization_v1.go"},
	{"api", "certificates/v1", "k8s.io.api.certificates.v1", "certificates.k8s.io/v1", "certificatesV1", "schema_certificates_v1.go"},
}

// handWritten are messages whose JSON is not an object of their fields;
// specials.go describes them by hand.
var handWritten = map[string]bool{
	"k8s.io.apimachinery.pkg.apis.meta.v1.Time":      true,
	"k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": true,
	"k8s.io.apimachinery.pkg.apis.meta.v1.Duration":  true,
	"k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1":  true,
	"k8s.io.apimachinery.pkg.apis.meta.v1.Timestamp": true,
}

// references that specials.go provides.
var external = map[string]bool{
	"k8s.io.apimachinery.pkg.util.intstr.IntOrString": true,
	"k8s.io.apimachinery.pkg.api.resource.Quantity":   true,
	"k8s.io.apimachinery.pkg.runtime.RawExtension":    true,
}

type protoField struct {
	label, typ, name string // label: optional, repeated or map; typ: the value type
	num              int
}

type protoMessage struct {
	name   string
	fields []protoField
}

type goField struct {
	json                       string
	omitempty, omitzero, ptr   bool
	inline, anonymous, skipped bool
}

type goTypes struct {
	structs    map[string]map[int]goField // type → proto number → field
	stringList map[string]bool            // named []string types
	objects    map[string]bool            // runtime.Object types
}

var (
	reMessage = regexp.MustCompile(`^message (\w+) \{`)
	reField   = regexp.MustCompile(`^\s*(optional|repeated) (\S+) (\w+) = (\d+);`)
	reMap     = regexp.MustCompile(`^\s*map<string, (\S+)> (\w+) = (\d+);`)
	scalars   = map[string]string{"string": "kString", "bytes": "kBytes", "bool": "kBool", "int32": "kInt32", "int64": "kInt64"}
)

func main() {
	api := flag.String("api", "", "checkout of k8s.io/api")
	apimachinery := flag.String("apimachinery", "", "checkout of k8s.io/apimachinery")
	apiRef := flag.String("api-ref", "", "k8s.io/api revision, for the header")
	amRef := flag.String("apimachinery-ref", "", "k8s.io/apimachinery revision, for the header")
	out := flag.String("out", ".", "output directory")
	flag.Parse()
	if *api == "" || *apimachinery == "" {
		log.Fatal("need -api and -apimachinery")
	}
	for _, s := range sources {
		root, ref, mod := *api, *apiRef, "k8s.io/api"
		if s.root == "apimachinery" {
			root, ref, mod = *apimachinery, *amRef, "k8s.io/apimachinery"
		}
		dir := filepath.Join(root, s.dir)
		msgs, err := parseProto(filepath.Join(dir, "generated.proto"))
		if err != nil {
			log.Fatal(err)
		}
		gt, err := parseGo(dir)
		if err != nil {
			log.Fatal(err)
		}
		src, err := render(s, mod, ref, msgs, gt)
		if err != nil {
			log.Fatalf("%s: %v", s.dir, err)
		}
		if err := os.WriteFile(filepath.Join(*out, s.file), src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func parseProto(path string) ([]protoMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var msgs []protoMessage
	var cur *protoMessage
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := reMessage.FindStringSubmatch(line); m != nil {
			msgs = append(msgs, protoMessage{name: m[1]})
			cur = &msgs[len(msgs)-1]
			continue
		}
		if line == "}" {
			cur = nil
			continue
		}
		if cur == nil {
			continue
		}
		if m := reField.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[4])
			cur.fields = append(cur.fields, protoField{label: m[1], typ: m[2], name: m[3], num: n})
		} else if m := reMap.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[3])
			cur.fields = append(cur.fields, protoField{label: "map", typ: m[1], name: m[2], num: n})
		} else if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "//") {
			return nil, fmt.Errorf("%s: cannot parse %q", path, line)
		}
	}
	return msgs, sc.Err()
}

func parseGo(dir string) (*goTypes, error) {
	gt := &goTypes{structs: map[string]map[int]goField{}, stringList: map[string]bool{}, objects: map[string]bool{}}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "zz_") || strings.HasPrefix(base, "generated") {
			continue
		}
		text, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		markObjects(text, gt.objects)
		f, err := parser.ParseFile(fset, name, text, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				switch t := ts.Type.(type) {
				case *ast.ArrayType:
					if id, ok := t.Elt.(*ast.Ident); ok && t.Len == nil && id.Name == "string" {
						gt.stringList[ts.Name.Name] = true
					}
				case *ast.StructType:
					gt.structs[ts.Name.Name] = structFields(t)
				}
			}
		}
	}
	return gt, nil
}

// markObjects finds the types marked as runtime.Objects. The marker sits in
// a comment block of its own above the type's doc comment, out of reach of
// go/ast's Doc, so read the text.
func markObjects(text []byte, objects map[string]bool) {
	marked := false
	for _, line := range strings.Split(string(text), "\n") {
		switch {
		case strings.Contains(line, "+k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object"):
			marked = true
		case strings.HasPrefix(line, "type "):
			if marked {
				objects[strings.Fields(line)[1]] = true
			}
			marked = false
		case strings.HasPrefix(line, "}"), strings.HasPrefix(line, "func "):
			marked = false
		}
	}
}

func structFields(st *ast.StructType) map[int]goField {
	fields := map[int]goField{}
	for _, f := range st.Fields.List {
		if f.Tag == nil {
			continue
		}
		tag, _ := strconv.Unquote(f.Tag.Value)
		pb := reflect.StructTag(tag).Get("protobuf")
		if pb == "" {
			continue
		}
		parts := strings.Split(pb, ",")
		if len(parts) < 2 {
			continue // protobuf:"-"
		}
		num, err := strconv.Atoi(parts[1])
		if err != nil {
			continue
		}
		js := strings.Split(reflect.StructTag(tag).Get("json"), ",")
		gf := goField{json: js[0], anonymous: len(f.Names) == 0}
		for _, o := range js[1:] {
			gf.omitempty = gf.omitempty || o == "omitempty"
			gf.omitzero = gf.omitzero || o == "omitzero"
		}
		_, gf.ptr = f.Type.(*ast.StarExpr)
		gf.inline = gf.anonymous && gf.json == ""
		gf.skipped = js[0] == "-"
		fields[num] = gf
	}
	return fields
}

func render(s source, mod, ref string, msgs []protoMessage, gt *goTypes) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by schemagen from %s %s (generated.proto and the Go types)", mod, s.dir)
	if ref != "" {
		fmt.Fprintf(&b, " at %s", ref)
	}
	fmt.Fprintf(&b, "; DO NOT EDIT.\n\npackage protobuf\n\n")
	fmt.Fprintf(&b, "var %s = protoPackage{\n\tname: %q,\n\tgroupVersion: %q,\n\tmessages: []message{\n", s.goVar, s.protoPkg, s.groupVersion)
	for _, m := range msgs {
		full := s.protoPkg + "." + m.name
		if handWritten[full] {
			continue
		}
		if gt.stringList[m.name] {
			if len(m.fields) != 1 || m.fields[0].name != "items" || m.fields[0].typ != "string" {
				return nil, fmt.Errorf("%s: a []string type with an unexpected message", m.name)
			}
			fmt.Fprintf(&b, "\t\t{name: %q, special: specStringList, fields: []field{{num: 1, name: \"items\", kind: kString, card: list}}},\n", m.name)
			continue
		}
		gfs, ok := gt.structs[m.name]
		if !ok {
			// e.g. core/v1 List, a Go alias of metav1.List: nothing refers to it.
			fmt.Fprintf(os.Stderr, "note: skipping %s: no Go struct\n", full)
			continue
		}
		fmt.Fprintf(&b, "\t\t{name: %q, ", m.name)
		if gt.objects[m.name] {
			b.WriteString("object: true, ")
		}
		b.WriteString("fields: []field{\n")
		for _, f := range m.fields {
			gf, ok := gfs[f.num]
			if !ok {
				return nil, fmt.Errorf("%s.%s (%d) has no Go field", m.name, f.name, f.num)
			}
			if gf.skipped {
				continue
			}
			line, err := fieldLiteral(s.protoPkg, f, gf)
			if err == errElsewhere {
				// An API group not read here (alpha ones, say): the field
				// is skipped like any unknown field.
				fmt.Fprintf(os.Stderr, "note: dropping %s.%s.%s: its type %s is not read\n", s.protoPkg, m.name, f.name, f.typ)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %v", m.name, f.name, err)
			}
			if gf.json != f.name && !gf.inline {
				fmt.Fprintf(os.Stderr, "note: %s.%s.%s is %q in JSON\n", s.protoPkg, m.name, f.name, gf.json)
			}
			fmt.Fprintf(&b, "\t\t\t%s,\n", line)
		}
		b.WriteString("\t\t}},\n")
	}
	b.WriteString("\t},\n}\n")
	return format.Source(b.Bytes())
}

func fieldLiteral(pkg string, f protoField, gf goField) (string, error) {
	var parts []string
	parts = append(parts, fmt.Sprintf("num: %d", f.num))
	name := gf.json
	if gf.inline {
		name = ""
	}
	parts = append(parts, fmt.Sprintf("name: %q", name))
	k, isScalar := scalars[f.typ]
	if isScalar {
		parts = append(parts, "kind: "+k)
	} else {
		typ := f.typ
		if strings.HasPrefix(typ, ".") {
			typ = typ[1:]
		} else {
			typ = pkg + "." + typ
		}
		if !known(typ) {
			return "", errElsewhere
		}
		parts = append(parts, "kind: kMessage", fmt.Sprintf("typ: %q", typ))
	}
	switch f.label {
	case "repeated":
		parts = append(parts, "card: list")
	case "map":
		parts = append(parts, "card: mapping")
	}
	if gf.inline {
		parts = append(parts, "inline: true")
	}
	parts = append(parts, "pres: "+presenceOf(f, gf, isScalar))
	return "{" + strings.Join(parts, ", ") + "}", nil
}

var errElsewhere = errors.New("type from a package not read")

// known says whether a message type comes from a package this tool reads.
func known(typ string) bool {
	if external[typ] {
		return true
	}
	for _, s := range sources {
		if strings.HasPrefix(typ, s.protoPkg+".") && !strings.Contains(typ[len(s.protoPkg)+1:], ".") {
			return true
		}
	}
	return false
}

// presenceOf mirrors encoding/json: pointers are written when set (and as
// null when nil, unless omitempty); omitzero
// and omitempty drop zero values, except that omitempty never drops a
// struct; everything else is always written.
func presenceOf(f protoField, gf goField, isScalar bool) string {
	switch {
	case gf.omitzero:
		return "presOmitZero"
	case gf.ptr && !gf.omitempty:
		return "presNullable"
	case gf.ptr:
		return "presPointer"
	case gf.omitempty && (isScalar || f.label != "optional"):
		return "presOmitEmpty"
	default:
		return "presAlways"
	}
}
