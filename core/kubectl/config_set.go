package kubectl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// kubeconfigPath is where the terminal's kubeconfig lives, as kubectl
// names it in messages.
const kubeconfigPath = "/root/.kube/config"

// view is a user as config view prints it: secrets redacted.
func (u *ConfigUser) view() map[string]any {
	v := map[string]any{}
	if u.ClientCertificate {
		v["client-certificate-data"] = "DATA+OMITTED"
		v["client-key-data"] = "DATA+OMITTED"
	}
	if u.Token != "" {
		v["token"] = "REDACTED"
	}
	if u.Username != "" {
		v["username"] = u.Username
	}
	if u.Password != "" {
		v["password"] = "REDACTED"
	}
	return v
}

func (c *Config) user(name string) *ConfigUser {
	for _, u := range c.Users {
		if u.Name == name {
			return u
		}
	}
	return nil
}

// runConfigSetCluster is `kubectl config set-cluster NAME [--server]
// [--insecure-skip-tls-verify]`: create or change a cluster entry.
func runConfigSetCluster(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	c := inv.Env.Config
	cl := c.cluster(inv.Args[0])
	if cl == nil {
		cl = &ConfigCluster{Name: inv.Args[0]}
		c.Clusters = append(c.Clusters, cl)
	}
	if inv.Flags.Changed("server") {
		cl.Server = inv.Flags.String("server")
	}
	if inv.Flags.Changed("insecure-skip-tls-verify") {
		cl.InsecureSkipTLSVerify = inv.Flags.Bool("insecure-skip-tls-verify")
		if cl.InsecureSkipTLSVerify {
			cl.certificateAuthority = false
		}
	}
	fmt.Fprintf(inv.out(), "Cluster %q set.\n", cl.Name)
	return nil
}

// runConfigSetCredentials is `kubectl config set-credentials NAME
// [--token | --username --password]`: create or change a user entry.
func runConfigSetCredentials(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return fmt.Errorf("unexpected args: %v", inv.Args)
	}
	var methods []string
	if inv.Flags.Changed("token") {
		methods = append(methods, "--token")
	}
	if inv.Flags.Changed("username") || inv.Flags.Changed("password") {
		methods = append(methods, "--username/--password")
	}
	if len(methods) > 1 {
		return fmt.Errorf("you cannot specify more than one authentication method at the same time: %v", strings.Join(methods, ", "))
	}
	c := inv.Env.Config
	u := c.user(inv.Args[0])
	if u == nil {
		u = &ConfigUser{Name: inv.Args[0]}
		c.Users = append(c.Users, u)
	}
	if inv.Flags.Changed("token") {
		u.Token = inv.Flags.String("token")
	}
	if inv.Flags.Changed("username") {
		u.Username = inv.Flags.String("username")
	}
	if inv.Flags.Changed("password") {
		u.Password = inv.Flags.String("password")
	}
	fmt.Fprintf(inv.out(), "User %q set.\n", u.Name)
	return nil
}

// runConfigDeleteCluster and runConfigDeleteUser remove one entry.
func runConfigDeleteCluster(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	c := inv.Env.Config
	var ok bool
	c.Clusters, ok = removeNamed(c.Clusters, inv.Args[0], func(cl *ConfigCluster) string { return cl.Name })
	return inv.reportDeleted("cluster", inv.Args[0], ok)
}

func runConfigDeleteUser(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return usageErrorf(inv.Cmd, "user to delete is required")
	}
	c := inv.Env.Config
	var ok bool
	c.Users, ok = removeNamed(c.Users, inv.Args[0], func(u *ConfigUser) string { return u.Name })
	return inv.reportDeleted("user", inv.Args[0], ok)
}

// removeNamed drops the entry called name, reporting whether there was one.
func removeNamed[T any](list []T, name string, nameOf func(T) string) ([]T, bool) {
	for i, e := range list {
		if nameOf(e) == name {
			return append(list[:i], list[i+1:]...), true
		}
	}
	return list, false
}

func (inv *Invocation) reportDeleted(what, name string, ok bool) error {
	if !ok {
		return fmt.Errorf("cannot delete %s %s, not in %s", what, name, kubeconfigPath)
	}
	fmt.Fprintf(inv.out(), "deleted %s %s from %s\n", what, name, kubeconfigPath)
	return nil
}

// runConfigSet and runConfigUnset are `kubectl config set|unset
// PROPERTY [VALUE]` over the properties the terminal's kubeconfig holds:
// current-context, contexts.NAME.{cluster,user,namespace},
// clusters.NAME.{server,insecure-skip-tls-verify} and
// users.NAME.{token,username,password}.
func runConfigSet(inv *Invocation) error {
	if len(inv.Args) != 2 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	if err := inv.Env.Config.setProperty(inv.Args[0], inv.Args[1], true); err != nil {
		return err
	}
	fmt.Fprintf(inv.out(), "Property %q set.\n", inv.Args[0])
	return nil
}

func runConfigUnset(inv *Invocation) error {
	if len(inv.Args) != 1 {
		return usageErrorf(inv.Cmd, "Unexpected args: %v", inv.Args)
	}
	if err := inv.Env.Config.setProperty(inv.Args[0], "", false); err != nil {
		return err
	}
	fmt.Fprintf(inv.out(), "Property %q unset.\n", inv.Args[0])
	return nil
}

// setProperty sets (or, when set is false, clears) one property; setting
// a field of a missing entry creates the entry, as kubectl does.
func (c *Config) setProperty(path, value string, set bool) error {
	if path == "current-context" {
		c.CurrentContext = value
		return nil
	}
	parts := strings.Split(path, ".")
	if len(parts) != 3 {
		return fmt.Errorf("unable to locate path %q in the terminal's kubeconfig", path)
	}
	kind, name, field := parts[0], parts[1], parts[2]
	switch kind + "." + field {
	case "contexts.cluster", "contexts.user", "contexts.namespace":
		ctx := c.context(name)
		if ctx == nil {
			ctx = &ConfigContext{Name: name}
			c.Contexts = append(c.Contexts, ctx)
		}
		*map[string]*string{"cluster": &ctx.Cluster, "user": &ctx.AuthInfo, "namespace": &ctx.Namespace}[field] = value
	case "clusters.server", "clusters.insecure-skip-tls-verify":
		cl := c.cluster(name)
		if cl == nil {
			cl = &ConfigCluster{Name: name}
			c.Clusters = append(c.Clusters, cl)
		}
		if field == "server" {
			cl.Server = value
			break
		}
		b := false
		if set {
			var err error
			if b, err = strconv.ParseBool(value); err != nil {
				return fmt.Errorf("error decoding input value: %v", err)
			}
		}
		cl.InsecureSkipTLSVerify = b
	case "users.token", "users.username", "users.password":
		u := c.user(name)
		if u == nil {
			u = &ConfigUser{Name: name}
			c.Users = append(c.Users, u)
		}
		*map[string]*string{"token": &u.Token, "username": &u.Username, "password": &u.Password}[field] = value
	default:
		return errors.New("unable to locate path " + strconv.Quote(field) + " under the " + kind + " entry " + name)
	}
	return nil
}
