package field

import "testing"

func TestPathString(t *testing.T) {
	tests := []struct {
		path *Path
		want string
	}{
		{NewPath("spec"), "spec"},
		{NewPath("spec", "template", "spec"), "spec.template.spec"},
		{NewPath("spec").Child("containers").Index(0).Child("image"), "spec.containers[0].image"},
		{NewPath("spec").Child("containers").Index(12345).Index(-7), "spec.containers[12345][-7]"},
		{NewPath("metadata").Child("labels").Key("app.kubernetes.io/name"), "metadata.labels[app.kubernetes.io/name]"},
		{NewPath("data").Child(""), "data[]"},
		{NewPath("").Child("name"), "name"},
		{NewPath("").Child("name").Child("first"), "name.first"},
		{NewPath("").Index(3), "[3]"},
		{NewPath("").Key("k").Child("v"), "[k].v"},
		{NewPath("a").Child("b").Child("c").Child("d"), "a.b.c.d"},
		{nil, "<nil>"},
	}
	for _, tt := range tests {
		if got := tt.path.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
