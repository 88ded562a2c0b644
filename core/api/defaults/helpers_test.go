package defaults

import (
	"reflect"
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
)

// defaultCase is a manifest as a user writes it and the object as the API
// server stores it, printed the way `kubectl get -o yaml` prints it (less the
// fields the registry sets: uid, resourceVersion, timestamps …).
type defaultCase struct {
	name, in, want string
}

func runCases(t *testing.T, cases []defaultCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := decode(t, tc.in)
			Default(obj)
			got := encode(t, obj)
			if want := strings.TrimPrefix(tc.want, "\n"); got != want {
				t.Errorf("defaulted:\n%s\nwant:\n%s", got, want)
			}
			again := obj.DeepCopyObject()
			Default(again)
			if !reflect.DeepEqual(again, obj) {
				t.Errorf("defaulting twice changed the object:\n%s", encode(t, again))
			}
		})
	}
}

func decode(t *testing.T, manifest string) api.Object {
	t.Helper()
	obj, err := codec.DecodeYAML([]byte(strings.TrimPrefix(manifest, "\n")), codec.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return obj
}

func encode(t *testing.T, obj api.Object) string {
	t.Helper()
	out, err := codec.EncodeYAML(obj)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return string(out)
}
