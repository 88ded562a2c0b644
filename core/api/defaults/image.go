package defaults

import (
	"regexp"
	"strings"
	"sync"
)

// pullPolicy is a container's default imagePullPolicy: Always when the image
// names the "latest" tag, or no tag and no digest; IfNotPresent otherwise,
// including for a reference that does not parse (upstream ignores the parse
// error here and leaves rejecting the image to others).
func pullPolicy(image string) string {
	if tag, ok := imageTag(image); ok && tag == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// The docker reference grammar upstream parses images with
// (github.com/distribution/reference), compiled on first use rather than
// while the program starts.
var (
	referenceRE = sync.OnceValue(func() *regexp.Regexp {
		const (
			alnum     = `[a-z0-9]+`
			separator = `(?:[._]|__|[-]+)`
			component = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
			host      = `(?:` + component + `(?:\.` + component + `)*|\[[a-fA-F0-9:]+\])`
			domain    = host + `(?::[0-9]+)?`
			path      = alnum + `(?:` + separator + alnum + `)*`
			name      = `(?:` + domain + `/)?` + path + `(?:/` + path + `)*`
			tag       = `[\w][\w.-]{0,127}`
			digest    = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
		)
		return regexp.MustCompile(`^(` + name + `)(?::(` + tag + `))?(?:@(` + digest + `))?$`)
	})
	identifierRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-f0-9]{64}$`) })
	digestHexLen = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
)

// imageTag returns the tag image names ("latest" when it names neither tag
// nor digest, "" for a digest alone), or false when it does not parse.
func imageTag(image string) (string, bool) {
	if identifierRE().MatchString(image) {
		return "", false // a bare image ID is not a name
	}
	// Normalise as docker does: a first component without '.' or ':' that is
	// not localhost and is lowercase is a path on docker.io, not a domain.
	domain, remainder := "docker.io", image
	if i := strings.IndexByte(image, '/'); i >= 0 {
		first := image[:i]
		if strings.ContainsAny(first, ".:") || first == "localhost" || strings.ToLower(first) != first {
			domain, remainder = first, image[i+1:]
		}
	}
	if strings.ToLower(remainder) != remainder {
		return "", false // repository names must be lowercase
	}
	m := referenceRE().FindStringSubmatch(domain + "/" + remainder)
	if m == nil || len(m[1]) > 255 {
		return "", false
	}
	tag, digest := m[2], m[3]
	if digest != "" {
		algorithm, hex, _ := strings.Cut(digest, ":")
		if n, ok := digestHexLen[algorithm]; !ok || len(hex) != n || strings.ToLower(hex) != hex {
			return "", false
		}
	}
	if tag == "" && digest == "" {
		tag = "latest"
	}
	return tag, true
}
