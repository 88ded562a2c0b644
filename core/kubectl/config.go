package kubectl

// Config is the kubeconfig kubectl reads: clusters, users, contexts and the
// current context. kubectl changes it in place; the caller persists it.
type Config struct {
	CurrentContext string
	Clusters       []*ConfigCluster
	Users          []*ConfigUser
	Contexts       []*ConfigContext
}

// ConfigUser is a kubeconfig user entry. kubeadm's admin authenticates
// with a client certificate; set-credentials may give a token or a
// username and password instead.
type ConfigUser struct {
	Name               string
	ClientCertificate  bool
	Token              string
	Username, Password string
}

// ConfigCluster is a kubeconfig cluster entry.
type ConfigCluster struct {
	Name   string
	Server string
	// InsecureSkipTLSVerify is set by set-cluster; kubeadm's cluster has a
	// certificate authority instead.
	InsecureSkipTLSVerify bool
	certificateAuthority  bool
}

// ConfigContext is a kubeconfig context entry.
type ConfigContext struct {
	Name      string
	Cluster   string
	AuthInfo  string
	Namespace string
}

// NewConfig is the kubeconfig kubeadm writes for its admin.
func NewConfig() *Config {
	return &Config{
		CurrentContext: "kubernetes-admin@kubernetes",
		Clusters:       []*ConfigCluster{{Name: "kubernetes", Server: "https://127.0.0.1:6443", certificateAuthority: true}},
		Users:          []*ConfigUser{{Name: "kubernetes-admin", ClientCertificate: true}},
		Contexts:       []*ConfigContext{{Name: "kubernetes-admin@kubernetes", Cluster: "kubernetes", AuthInfo: "kubernetes-admin"}},
	}
}

// Namespace is the current context's namespace, "default" when unset.
func (c *Config) Namespace() string {
	if ctx := c.current(); ctx != nil && ctx.Namespace != "" {
		return ctx.Namespace
	}
	return "default"
}

func (c *Config) current() *ConfigContext { return c.context(c.CurrentContext) }

func (c *Config) context(name string) *ConfigContext {
	for _, ctx := range c.Contexts {
		if ctx.Name == name {
			return ctx
		}
	}
	return nil
}

func (c *Config) cluster(name string) *ConfigCluster {
	for _, cl := range c.Clusters {
		if cl.Name == name {
			return cl
		}
	}
	return nil
}

// server is the current cluster's address.
func (c *Config) server() string {
	if ctx := c.current(); ctx != nil {
		if cl := c.cluster(ctx.Cluster); cl != nil {
			return cl.Server
		}
	}
	return "http://localhost:8080"
}
