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
	limits, err := parseResourceList(inv.Flags.String("limits"))
	if err != nil {
		return err
	}
	requests, err := parseResourceList(inv.Flags.String("requests"))
	if err != nil {
		return err
	}
	if len(limits) == 0 && len(requests) == 0 {
		return errors.New("you must specify an update to requests or limits (in the form of --requests/--limits)")
	}
	objs, _, errs, err := inv.loadLive(inv.Args, liveOptions{all: inv.Flags.Bool("all")})
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	container := inv.Flags.String("containers")
	if container == "" {
		container = "*"
	}
	var allErrs []error
	for _, o := range objs {
		p, err := mutationPatch(o, func(obj api.Object) error {
			spec, ok := podSpecOf(obj)
			if !ok {
				return notPodTemplateError{o.res.Kind}
			}
			found := false
			for i := range spec.Containers {
				c := &spec.Containers[i]
				if container != "*" && c.Name != container {
					continue
				}
				found = true
				for k, v := range limits {
					if c.Resources.Limits == nil {
						c.Resources.Limits = api.ResourceList{}
					}
					c.Resources.Limits[k] = v
				}
				for k, v := range requests {
					if c.Resources.Requests == nil {
						c.Resources.Requests = api.ResourceList{}
					}
					c.Resources.Requests[k] = v
				}
			}
			if !found {
				return fmt.Errorf("unable to find container named %s", container)
			}
			if inv.recording() {
				setAnnotation(obj, changeCauseAnnotation, inv.changeCause())
			}
			return nil
		})
		if err != nil {
			allErrs = append(allErrs, fmt.Errorf("error: %s/%s %v", o.res.Name, o.name(), err))
			continue
		}
		if emptyPatch(p) {
			continue
		}
		if inv.dryRun() == "client" {
			allErrs = appendErr(allErrs, inv.reportOp(o.res, o.obj, "resource requirements updated"))
			continue
		}
		obj, err := inv.sendPatch(o, p)
		if err != nil {
			allErrs = append(allErrs, fmt.Errorf("failed to patch resources update to pod template %v", messageOf(err)))
			continue
		}
		allErrs = appendErr(allErrs, inv.reportOp(o.res, obj, "resource requirements updated"))
	}
	if len(allErrs) > 0 {
		return aggregate(allErrs)
	}
	return nil
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
