package api

// Secret holds sensitive keys; data is base64 on the wire ([]byte in JSON).
type Secret struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Immutable  *bool             `json:"immutable,omitempty"`
	Data       map[string][]byte `json:"data,omitempty"`
	StringData map[string]string `json:"stringData,omitempty"`
	Type       SecretType        `json:"type,omitempty"`
}

// Secret types and well-known keys.
const (
	SecretTypeOpaque              = "Opaque"
	SecretTypeServiceAccountToken = "kubernetes.io/service-account-token"
	SecretTypeDockercfg           = "kubernetes.io/dockercfg"
	SecretTypeDockerConfigJson    = "kubernetes.io/dockerconfigjson"
	SecretTypeBasicAuth           = "kubernetes.io/basic-auth"
	SecretTypeSSHAuth             = "kubernetes.io/ssh-auth"
	SecretTypeTLS                 = "kubernetes.io/tls"
	SecretTypeBootstrapToken      = "bootstrap.kubernetes.io/token"

	ServiceAccountNameKey       = "kubernetes.io/service-account.name"
	ServiceAccountUIDKey        = "kubernetes.io/service-account.uid"
	ServiceAccountTokenKey      = "token"
	ServiceAccountKubeconfigKey = "kubernetes.kubeconfig"
	ServiceAccountRootCAKey     = "ca.crt"
	ServiceAccountNamespaceKey  = "namespace"
	DockerConfigKey             = ".dockercfg"
	DockerConfigJsonKey         = ".dockerconfigjson"
	BasicAuthUsernameKey        = "username"
	BasicAuthPasswordKey        = "password"
	SSHAuthPrivateKey           = "ssh-privatekey"
	TLSCertKey                  = "tls.crt"
	TLSPrivateKeyKey            = "tls.key"

	// MaxSecretSize bounds a secret's data (1 MiB).
	MaxSecretSize = 1 * 1024 * 1024
)
