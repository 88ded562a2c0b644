package codec

import (
	"errors"
	"reflect"
	"testing"

	"kubeplay/core/api"
)

func TestDecodeYAML(t *testing.T) {
	obj, err := DecodeYAML([]byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: c
        image: nginx
        ports:
        - containerPort: 80
`), DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := obj.(*api.Deployment)
	if !ok {
		t.Fatalf("got %T", obj)
	}
	if d.Name != "web" || d.Labels["app"] != "web" || d.Spec.Replicas == nil || *d.Spec.Replicas != 3 ||
		d.APIVersion != "apps/v1" || d.Kind != "Deployment" ||
		len(d.Spec.Template.Spec.Containers) != 1 || d.Spec.Template.Spec.Containers[0].Ports[0].ContainerPort != 80 {
		t.Errorf("decoded %+v", d)
	}
}

// Error texts, as kubectl prints them after `unable to decode "FILE": `
// and the API server after `cannot be handled as a Kind: `.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// errors.session: the seed's Pod with labels written as a list.
		{"labels as a list",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: app\n  labels:\n    - name: app\nspec:\n  containers:\n    - name: app\n      image: app:1.0.0\n",
			"json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string"},
		// errors.session: CronJob in batch/v1beta1, gone since v1.25.
		{"removed version", "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: hello\n",
			`no matches for kind "CronJob" in version "batch/v1beta1"`},
		{"unknown kind", "apiVersion: v1\nkind: Widget\n", `no matches for kind "Widget" in version "v1"`},
		{"no kind", "apiVersion: v1\nmetadata:\n  name: x\n",
			`Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`},
		{"no apiVersion", "kind: Pod\nmetadata:\n  name: x\n",
			`Object 'apiVersion' is missing in '{"kind":"Pod","metadata":{"name":"x"}}'`},
		{"kind not a string", "apiVersion: v1\nkind: 3\n",
			"couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"},
		{"a list, not an object", "- a\n",
			`couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`},
		{"string for an int", "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: \"80\"\n",
			"json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"},
		{"fraction for an int", "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n    ports:\n    - containerPort: 80.5\n",
			"json: cannot unmarshal number 80.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32"},
		{"overflow", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 1e10\n",
			"json: cannot unmarshal number 10000000000 into Go struct field DeploymentSpec.spec.replicas of type int32"},
		{"bool for int-or-string", "apiVersion: v1\nkind: Service\nspec:\n  ports:\n  - port: 80\n    targetPort: true\n",
			"json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32"},
		{"metadata as a list", "apiVersion: v1\nkind: Pod\nmetadata: [1]\n",
			"json: cannot unmarshal array into Go struct field Pod.metadata of type v1.ObjectMeta"},
		{"number for a string in a map", "apiVersion: v1\nkind: ConfigMap\ndata:\n  port: 8080\n",
			"json: cannot unmarshal number into Go struct field ConfigMap.data of type string"},
		{"yes is a bool", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n",
			"json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string"},
		{"autoscaling/v2 types", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nspec: []\n",
			"json: cannot unmarshal array into Go struct field HorizontalPodAutoscaler.spec of type v2.HorizontalPodAutoscalerSpec"},
		{"autoscaling/v1 types", "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nspec: []\n",
			"json: cannot unmarshal array into Go struct field HorizontalPodAutoscaler.spec of type v1.HorizontalPodAutoscalerSpec"},
		{"yaml syntax", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\n   labels: {a: b}\nspec: [\n",
			"yaml: line 5: mapping values are not allowed in this context"},
	}
	for _, tt := range tests {
		obj, err := DecodeYAML([]byte(tt.in), DecodeOptions{})
		if err == nil || err.Error() != tt.want || obj != nil {
			t.Errorf("%s: got %v, %v\nwant %s", tt.name, obj, err, tt.want)
		}
	}
}

func TestDecodeErrorTypes(t *testing.T) {
	_, err := DecodeYAML([]byte("apiVersion: batch/v1beta1\nkind: CronJob\n"), DecodeOptions{})
	var nk *NoKindMatchError
	if !errors.As(err, &nk) || *nk != (NoKindMatchError{Group: "batch", Version: "v1beta1", Kind: "CronJob"}) {
		t.Errorf("got %#v", err)
	}
	_, err = DecodeYAML([]byte("apiVersion: v1\n"), DecodeOptions{})
	var mk *MissingKindError
	if !errors.As(err, &mk) {
		t.Errorf("got %#v", err)
	}
	_, err = DecodeYAML([]byte("a: [\n"), DecodeOptions{})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("got %#v", err)
	}
}

// Strict field validation: every unknown field with its full path, then
// duplicates; YAML duplicate keys first, as the API server lists them.
func TestDecodeStrict(t *testing.T) {
	in := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  Labels: {a: b}
spec:
  replicas: 2
  replicas: 3
  foo: 1
  template:
    spec:
      containers:
      - name: c
        image: nginx
        bar: x
        ports:
        - containerPort: 80
          baz: 1
`
	obj, err := DecodeYAML([]byte(in), DecodeOptions{Strict: true})
	want := "strict decoding error: yaml: unmarshal errors:\n  line 8: key \"replicas\" already set in map, " +
		`unknown field "metadata.Labels", unknown field "spec.foo", unknown field "spec.template.spec.containers[0].bar", ` +
		`unknown field "spec.template.spec.containers[0].ports[0].baz"`
	var se *StrictDecodingError
	if !errors.As(err, &se) || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	d, ok := obj.(*api.Deployment)
	if !ok || *d.Spec.Replicas != 3 || d.Labels != nil {
		t.Errorf("the object comes with the error, decoded leniently (last key wins, case-sensitive names): %+v", obj)
	}

	// Not strict: the same document decodes quietly.
	if _, err := DecodeYAML([]byte(in), DecodeOptions{}); err != nil {
		t.Errorf("non-strict: %v", err)
	}

	// JSON duplicates.
	_, err = Decode([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","name":"b"},"data":{"k":"1","k":"2"}}`), DecodeOptions{Strict: true})
	if want := `strict decoding error: duplicate field "metadata.name", duplicate field "data.k"`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Field names match case-sensitively, unlike encoding/json's default.
func TestDecodeCaseSensitive(t *testing.T) {
	obj, err := Decode([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"Name":"upper","name":"lower","NAME":"x"}}`), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := obj.GetObjectMeta().Name; n != "lower" {
		t.Errorf("name = %q", n)
	}
}

func TestDecodeDefaults(t *testing.T) {
	obj, err := Decode([]byte(`{"metadata":{"name":"a"}}`), DecodeOptions{Default: api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := obj.(*api.ConfigMap); !ok || obj.GetTypeMeta().APIVersion != "v1" {
		t.Errorf("got %#v", obj)
	}
}

// kubectl's own checks before it sends a manifest.
func TestReadTypeMetaAndCheckMetadata(t *testing.T) {
	tm, err := ReadTypeMeta([]byte(`{"apiVersion":"v1","kind":"Pod"}`))
	if err != nil || tm != (api.TypeMeta{APIVersion: "v1", Kind: "Pod"}) {
		t.Errorf("got %v %v", tm, err)
	}
	tests := []struct{ in, want string }{
		{`["a","b"]`, "json: cannot unmarshal array into Go value of type unstructured.detector"},
		{`"hello"`, "json: cannot unmarshal string into Go value of type unstructured.detector"},
		{`{"apiVersion":"v1","kind":3}`, `Object 'Kind' is missing in '{"apiVersion":"v1","kind":3}'`},
	}
	for _, tt := range tests {
		if _, err := ReadTypeMeta([]byte(tt.in)); err == nil || err.Error() != tt.want {
			t.Errorf("ReadTypeMeta(%s) = %v, want %s", tt.in, err, tt.want)
		}
	}
	checks := []struct{ in, want string }{
		{`{"apiVersion":1,"kind":"Pod","metadata":{"name":"x"}}`, "json: cannot unmarshal number into Go struct field metadataOnlyObject.apiVersion of type string"},
		{`{"apiVersion":"v1","kind":"Pod","metadata":[1]}`, "json: cannot unmarshal array into Go struct field metadataOnlyObject.metadata of type v1.ObjectMeta"},
		{`{"apiVersion":"v1","kind":"Pod","metadata":{"name":5}}`, "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string"},
		{`{"apiVersion":"v1","kind":"Pod","metadata":{"generation":1.5}}`, "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64"},
		{`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":5}`, ""},
	}
	for _, c := range checks {
		err := CheckMetadata([]byte(c.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckMetadata(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Decoding every seed manifest gives the kinds the seeds use.
func TestDecodeSeeds(t *testing.T) {
	for _, doc := range seedDocuments(t) {
		docs, err := Split(doc)
		if err != nil {
			continue
		}
		for _, d := range docs {
			obj, err := DecodeDocument(d, DecodeOptions{})
			if err != nil {
				continue // the seeds include the broken manifests of errors.session
			}
			if reflect.ValueOf(obj).IsNil() || obj.GetTypeMeta().Kind == "" {
				t.Errorf("decoded %#v", obj)
			}
		}
	}
}

func TestDecodeInto(t *testing.T) {
	var opts api.DeleteOptions
	err := DecodeInto([]byte(`{"gracePeriodSeconds":0,"propagationPolicy":"Foreground","foo":1}`), &opts, DecodeOptions{Strict: true})
	if err == nil || err.Error() != `strict decoding error: unknown field "foo"` {
		t.Errorf("err = %v", err)
	}
	if opts.GracePeriodSeconds == nil || *opts.GracePeriodSeconds != 0 || *opts.PropagationPolicy != "Foreground" {
		t.Errorf("decoded %+v", opts)
	}
	if err := DecodeInto([]byte(`{"gracePeriodSeconds":"0"}`), &opts, DecodeOptions{}); err == nil ||
		err.Error() != "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64" {
		t.Errorf("err = %v", err)
	}
}

// kubectl sends JSON, so YAML duplicate keys never reach the server's
// strict check; JSON duplicates do.
func TestDecodeDocumentStrict(t *testing.T) {
	docs, _ := Split([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: \"1\"\n  k: \"2\"\n  K: x\nfoo: 1\n"))
	obj, err := DecodeDocument(docs[0], DecodeOptions{Strict: true})
	if err == nil || err.Error() != `strict decoding error: unknown field "foo"` {
		t.Errorf("err = %v", err)
	}
	if cm := obj.(*api.ConfigMap); cm.Data["k"] != "2" || cm.Data["K"] != "x" {
		t.Errorf("data = %v", cm.Data)
	}
	docs, _ = Split([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"1","k":"2"}}`))
	if _, err := DecodeDocument(docs[0], DecodeOptions{Strict: true}); err == nil || err.Error() != `strict decoding error: duplicate field "data.k"` {
		t.Errorf("err = %v", err)
	}
}
