package kubectl

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"kubeplay/core/api"
)

// runSetEnv is `kubectl set env`: set, remove or list the environment of
// the containers (and init containers) in pod templates, by strategic
// merge patch. --from imports a ConfigMap's or Secret's keys as
// references; --list prints instead of patching; --local edits -f
// manifests without the server.
func runSetEnv(inv *Invocation) error {
	all, selector := inv.Flags.Bool("all"), inv.Flags.String("selector")
	if all && selector != "" {
		return errors.New("cannot set --all and --selector at the same time")
	}
	resources, envArgs, ok := splitEnvArgs(inv.Args)
	if !ok {
		return fmt.Errorf("all resources must be specified before environment changes: %s", strings.Join(inv.Args, " "))
	}
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	local, list := inv.Flags.Bool("local"), inv.Flags.Bool("list")
	switch {
	case local && inv.dryRun() == "server":
		return errors.New("cannot specify --local and --dry-run=server - did you mean --dry-run=client?")
	case len(inv.Flags.Strings("filename")) == 0 && len(resources) == 0:
		return errors.New("one or more resources must be specified as <resource> <name> or <resource>/<name>")
	case list && inv.Flags.String("output") != "":
		return errors.New("--list and --output may not be specified together")
	case len(inv.Flags.Strings("keys")) > 0 && inv.Flags.String("from") == "":
		return errors.New("when specifying --keys, a configmap or secret must be provided with --from")
	}

	change, err := parseEnvArgs(append(inv.Flags.Strings("env"), envArgs...), inv.Env.Stdin)
	if err != nil {
		return err
	}
	if from := inv.Flags.String("from"); from != "" {
		imported, err := inv.envFrom(from, local, all)
		if err != nil {
			return err
		}
		change.set = append(change.set, imported...)
	}
	if prefix := inv.Flags.String("prefix"); prefix != "" {
		for i := range change.set {
			change.set[i].Name = prefix + change.set[i].Name
		}
	}
	objs, err := inv.setTargets(resources, local, all)
	if err != nil {
		return err
	}
	ns, _ := inv.Namespace()
	return inv.changePodTemplates(objs, &templateChange{
		mutate: func(o liveObject, spec *api.PodSpec) error {
			return inv.setEnvIn(o.obj, o.res.Kind, spec, change, ns)
		},
		done:     "env updated",
		failed:   "failed to patch env update to pod template: ",
		local:    local,
		listOnly: list,
	})
}

// envFrom is --from=configmap/NAME or secret/NAME (with --all, every one
// of the type; -l applies here too, as upstream's builder has it): each
// key, or each of --keys, becomes a variable that references it. Keys are
// taken in sorted order (upstream walks a Go map, in no fixed order).
func (inv *Invocation) envFrom(from string, local, all bool) ([]api.EnvVar, error) {
	objs, err := inv.setTargets([]string{from}, local, all)
	if err != nil {
		return nil, err
	}
	keys := inv.Flags.Strings("keys")
	wanted := func(k string) bool { return len(keys) == 0 || slices.Contains(keys, k) }
	var out []api.EnvVar
	for _, o := range objs {
		switch src := o.obj.(type) {
		case *api.ConfigMap:
			for _, k := range sortedKeys(src.Data) {
				if wanted(k) {
					ref := &api.ConfigMapKeySelector{LocalObjectReference: api.LocalObjectReference{Name: src.Name}, Key: k}
					out = append(out, api.EnvVar{Name: inv.envNameFor(k), ValueFrom: &api.EnvVarSource{ConfigMapKeyRef: ref}})
				}
			}
		case *api.Secret:
			for _, k := range sortedKeys(src.Data) {
				if wanted(k) {
					ref := &api.SecretKeySelector{LocalObjectReference: api.LocalObjectReference{Name: src.Name}, Key: k}
					out = append(out, api.EnvVar{Name: inv.envNameFor(k), ValueFrom: &api.EnvVarSource{SecretKeyRef: ref}})
				}
			}
		default:
			return nil, errors.New("unsupported resource specified in --from")
		}
	}
	return out, nil
}

// envNameFor names the variable for a key, warning when it had to change.
func (inv *Invocation) envNameFor(key string) string {
	name := envNameForKey(key)
	if name != key {
		fmt.Fprintf(inv.errOut(), "Warning: key %s transferred to %s\n", key, name)
	}
	return name
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// setEnvIn changes the env of the containers -c selects in one pod spec,
// and with --list prints each one's resulting env.
func (inv *Invocation) setEnvIn(obj api.Object, kind string, spec *api.PodSpec, change *envChange, ns string) error {
	pattern := inv.Flags.String("containers")
	name := obj.GetObjectMeta().Name
	ctrs := matchContainers(spec, pattern)
	if len(ctrs) == 0 {
		fmt.Fprintf(inv.errOut(), "Warning: %s/%s does not have any containers matching %q\n", kind, name, pattern)
		return nil
	}
	unresolved := false
	for _, c := range ctrs {
		if !inv.Flags.Bool("overwrite") {
			if err := change.checkNoOverwrite(c.Env); err != nil {
				return err
			}
		}
		c.Env = change.apply(c.Env)
		if inv.Flags.Bool("list") && !inv.listEnv(obj, kind, c, ns) {
			unresolved = true
		}
	}
	if unresolved {
		return errors.New("failed to retrieve valueFrom references")
	}
	return nil
}

// listEnv prints one container's env as --list does (references resolved
// with --resolve; what cannot be resolved is named on stderr). It reports
// whether every reference resolved.
func (inv *Invocation) listEnv(obj api.Object, kind string, c *api.Container, ns string) bool {
	w := inv.out()
	fmt.Fprintf(w, "# %s %s, container %s\n", kind, obj.GetObjectMeta().Name, c.Name)
	failed := map[string][]string{}
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			fmt.Fprintf(w, "%s=%s\n", e.Name, e.Value)
			continue
		}
		if inv.Flags.Bool("resolve") {
			v, err := resolveEnvRef(inv.Env.Client, ns, e.ValueFrom, obj, c)
			if err == nil {
				fmt.Fprintf(w, "%s=%s\n", e.Name, v)
				continue
			}
			msg := messageOf(err)
			failed[msg] = append(failed[msg], e.Name)
		}
		fmt.Fprintf(w, "# %s from %s\n", e.Name, envRefString(e.ValueFrom))
	}
	var lines []string
	for msg, names := range failed {
		sort.Strings(names)
		lines = append(lines, fmt.Sprintf("error retrieving reference for %s: %s", strings.Join(names, ", "), msg))
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(inv.errOut(), l)
	}
	return len(failed) == 0
}
