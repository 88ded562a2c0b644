package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// runSetResources is `kubectl set resources`: limits and requests of pod
// templates' containers (-c picks one; all otherwise), by strategic merge
// patch.
func runSetResources(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	local := inv.Flags.Bool("local")
	if local && len(inv.Args) > 0 {
		return errLocalResources
	}
	objs, err := inv.setTargets(inv.Args, local, inv.Flags.Bool("all"))
	if err != nil {
		return err
	}
	switch {
	case local && inv.dryRun() == "server":
		return errors.New("cannot specify --local and --dry-run=server - did you mean --dry-run=client?")
	case inv.Flags.Bool("all") && inv.Flags.String("selector") != "":
		return errors.New("cannot set --all and --selector at the same time")
	case inv.Flags.String("limits") == "" && inv.Flags.String("requests") == "":
		return errors.New("you must specify an update to requests or limits (in the form of --requests/--limits)")
	}
	limits, err := parseResourceList(inv.Flags.String("limits"))
	if err != nil {
		return err
	}
	requests, err := parseResourceList(inv.Flags.String("requests"))
	if err != nil {
		return err
	}
	pattern := inv.Flags.String("containers")
	c := &templateChange{done: "resource requirements updated", failed: "failed to patch resources update to pod template ", local: local}
	c.mutate = func(_ liveObject, spec *api.PodSpec) error {
		ctrs := matchContainers(spec, pattern)
		if len(ctrs) == 0 {
			c.noted = append(c.noted, fmt.Errorf("error: unable to find container named %s", pattern))
			return errLeaveAlone
		}
		for _, ctr := range ctrs {
			ctr.Resources.Limits = mergeResources(ctr.Resources.Limits, limits)
			ctr.Resources.Requests = mergeResources(ctr.Resources.Requests, requests)
		}
		return nil
	}
	return inv.changePodTemplates(objs, c)
}

// mergeResources sets each of add in list (a new list when there was none).
func mergeResources(list, add api.ResourceList) api.ResourceList {
	if len(add) > 0 && len(list) == 0 {
		list = api.ResourceList{}
	}
	for k, v := range add {
		list[k] = v
	}
	return list
}

func appendErr(errs []error, err error) []error {
	if err != nil {
		return append(errs, err)
	}
	return errs
}

// parseResourceList reads "cpu=200m,memory=512Mi".
func parseResourceList(s string) (api.ResourceList, error) {
	if s == "" {
		return nil, nil
	}
	out := api.ResourceList{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("Invalid argument syntax %s, expected <resource>=<value>", kv)
		}
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
		}
		out[api.ResourceName(k)] = q
	}
	return out, nil
}

// runCreateQuota is `kubectl create quota NAME --hard=...`.
func runCreateQuota(inv *Invocation) error {
	name, err := inv.exactlyOneName()
	if err != nil {
		return err
	}
	hard, err := parseResourceList(inv.Flags.String("hard"))
	if err != nil {
		return err
	}
	q := &api.ResourceQuota{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"}, ObjectMeta: api.ObjectMeta{Name: name}}
	q.Spec.Hard = hard
	for _, sc := range strings.Split(inv.Flags.String("scopes"), ",") {
		if sc != "" {
			q.Spec.Scopes = append(q.Spec.Scopes, api.ResourceQuotaScope(sc))
		}
	}
	return inv.createGenerated(q, "resourcequota", false)
}
