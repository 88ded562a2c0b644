package kubectl

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/vfs"
)

// runCreateSecretDockerRegistry is `kubectl create secret docker-registry`:
// a kubernetes.io/dockerconfigjson secret holding one registry's login, or
// the --from-file files (under .dockerconfigjson unless keyed).
func runCreateSecretDockerRegistry(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	user, pass, server := inv.Flags.String("docker-username"), inv.Flags.String("docker-password"), inv.Flags.String("docker-server")
	files := inv.Flags.Strings("from-file")
	if len(files) == 0 && (user == "" || pass == "" || server == "") {
		return errors.New("either --from-file or the combination of --docker-username, --docker-password and --docker-server is required")
	}
	s := newTypedSecret(name, api.SecretTypeDockerConfigJson)
	if len(files) > 0 {
		for _, f := range files {
			key, p, ok := strings.Cut(f, "=")
			if !ok {
				key, p = api.DockerConfigJsonKey, f
			}
			b, err := inv.readSecretFile(p)
			if err != nil {
				return err
			}
			s.Data[key] = b
		}
	} else {
		// The field order and omitted empty fields are those of the Go
		// structs kubectl marshals.
		type entry struct {
			Username string `json:"username,omitempty"`
			Password string `json:"password,omitempty"`
			Email    string `json:"email,omitempty"`
			Auth     string `json:"auth,omitempty"`
		}
		auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
		b, err := json.Marshal(map[string]map[string]entry{"auths": {server: {user, pass, inv.Flags.String("docker-email"), auth}}})
		if err != nil {
			return err
		}
		s.Data[api.DockerConfigJsonKey] = b
	}
	return inv.createSecret(s)
}

// runCreateSecretTLS is `kubectl create secret tls`: the certificate and
// key files, checked to be a matching pair as kubectl checks them.
func runCreateSecretTLS(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	certFile, keyFile := inv.Flags.String("cert"), inv.Flags.String("key")
	if certFile == "" || keyFile == "" {
		return errors.New("key and cert must be specified")
	}
	cert, err := inv.readSecretFile(certFile)
	if err != nil {
		return err
	}
	key, err := inv.readSecretFile(keyFile)
	if err != nil {
		return err
	}
	if err := checkKeyPair(cert, key); err != nil {
		return err
	}
	s := newTypedSecret(name, api.SecretTypeTLS)
	s.Data[api.TLSCertKey] = cert
	s.Data[api.TLSPrivateKeyKey] = key
	return inv.createSecret(s)
}

func newTypedSecret(name string, t api.SecretType) *api.Secret {
	return &api.Secret{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: api.ObjectMeta{Name: name},
		Type: t, Data: map[string][]byte{}}
}

// readSecretFile reads a file named on the command line, worded as
// kubectl words a failure (the path as given).
func (inv *Invocation) readSecretFile(p string) ([]byte, error) {
	b, err := inv.Env.FS.ReadFile(absPath(inv.Env.Cwd, p))
	if err != nil {
		// Worded as Go's os.ReadFile words it, with the path as given.
		msg := err.Error()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			msg = "open " + p + ": no such file or directory"
		case errors.Is(err, vfs.ErrIsDir):
			msg = "read " + p + ": is a directory"
		}
		return nil, fmt.Errorf("Cannot read file %v, %s", p, msg)
	}
	return b, nil
}

// createSecret creates a generated secret; these generators word a
// server's refusal "failed to create secret MESSAGE".
func (inv *Invocation) createSecret(s *api.Secret) error {
	err := inv.createGenerated(s, "secret", false)
	if _, ok := err.(apiStatus); ok {
		return fmt.Errorf("failed to create secret %v", messageOf(err))
	}
	return err
}
