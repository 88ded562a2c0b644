package defaults

import "testing"

func TestPullPolicy(t *testing.T) {
	for _, tc := range []struct{ image, want string }{
		{"nginx", "Always"},
		{"nginx:latest", "Always"},
		{"library/nginx", "Always"},
		{"docker.io/library/nginx", "Always"},
		{"localhost:5000/app", "Always"},
		{"localhost/app:latest", "Always"},
		{"registry.example.com/team/app", "Always"},
		{"[::1]:5000/app", "Always"},
		{"nginx:1.25", "IfNotPresent"},
		{"nginx:Latest", "IfNotPresent"},
		{"registry.example.com:5000/team/app:v2", "IfNotPresent"},
		{"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"},
		{"nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "Always"},
		// References that do not parse default to IfNotPresent.
		{"", "IfNotPresent"},
		{"Nginx", "IfNotPresent"},
		{"nginx:", "IfNotPresent"},
		{"nginx@sha256:abc", "IfNotPresent"},
		{"nginx:latest@md5:0123456789abcdef0123456789abcdef", "IfNotPresent"},
		{"my app", "IfNotPresent"},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "IfNotPresent"},
		{"Registry.Example.com/app", "Always"}, // an uppercase first part is a domain
	} {
		if got := pullPolicy(tc.image); got != tc.want {
			t.Errorf("pullPolicy(%q) = %s, want %s", tc.image, got, tc.want)
		}
	}
}

func FuzzPullPolicy(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:1.25", "a/b/c:latest", "x@sha256:00", "[::1]:1/a", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, image string) {
		if p := pullPolicy(image); p != "Always" && p != "IfNotPresent" {
			t.Fatalf("pullPolicy(%q) = %q", image, p)
		}
	})
}
