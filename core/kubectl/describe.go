package kubectl

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/fields"
	"kubeplay/core/api/labels"
	"kubeplay/core/apiserver"
	"kubeplay/core/client"
)

// describeTarget is one object describe was asked about.
type describeTarget struct {
	res *apiserver.Resource
	obj api.Object
}

// describer holds what every describer needs: the API, the virtual now,
// and whether to look up events (--show-events).
type describer struct {
	c          client.Interface
	now        time.Time
	showEvents bool
}

// runDescribe is `kubectl describe`: resolve the arguments as the resource
// builder does (TYPE NAME..., TYPE/NAME, TYPE with -l, -f), describe each
// object, and fall back to a name-prefix match when a single TYPE NAME is
// not found.
func runDescribe(inv *Invocation) error {
	files := inv.Flags.Strings("filename")
	if len(inv.Args) == 0 && len(files) == 0 && inv.Flags.String("kustomize") == "" {
		return errors.New("You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n")
	}
	d := &describer{c: inv.Env.Client, now: inv.now(), showEvents: inv.Flags.Bool("show-events")}
	ns, _ := inv.Namespace()
	all := inv.Flags.Bool("all-namespaces")
	targets, errs, err := inv.describeTargets(ns, all)
	if err != nil {
		return err
	}
	if len(errs) == 1 && apierrors.IsNotFound(errs[0]) && len(inv.Args) == 2 {
		return inv.describeByPrefix(d, ns, errs[0])
	}
	seen := map[string]bool{}
	first := true
	for _, t := range targets {
		s, err := d.describe(t.res, t.obj)
		if err != nil {
			if !seen[err.Error()] {
				seen[err.Error()] = true
				errs = append(errs, err)
			}
			continue
		}
		if !first {
			io.WriteString(inv.out(), "\n\n")
		}
		first = false
		io.WriteString(inv.out(), s)
	}
	if len(targets) == 0 && len(errs) == 0 {
		if all {
			fmt.Fprintln(inv.errOut(), "No resources found")
		} else {
			fmt.Fprintf(inv.errOut(), "No resources found in %s namespace.\n", ns)
		}
	}
	return newAggregate(errs)
}

// describeTargets fetches what the arguments name; errs are per-object
// failures (describe goes on without them), err ends the command.
func (inv *Invocation) describeTargets(ns string, all bool) (targets []describeTarget, errs []error, err error) {
	if len(inv.Flags.Strings("filename")) > 0 {
		if len(inv.Args) > 0 {
			return nil, nil, errors.New("when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well")
		}
		infos, ferrs := inv.manifests()
		errs = append(errs, ferrs...)
		for _, in := range infos {
			obj, err := inv.Env.Client.Get(in.Resource, in.Namespace, in.Name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			targets = append(targets, describeTarget{in.Resource, obj})
		}
		return targets, errs, nil
	}
	if len(inv.Args) == 0 {
		return nil, nil, errors.New("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
	}
	rargs, err := inv.resourceArgs(inv.Args)
	if err != nil {
		return nil, nil, err
	}
	var sel labels.Selector
	if s := inv.Flags.String("selector"); s != "" {
		if sel, err = labels.Parse(s); err != nil {
			return nil, nil, err
		}
		if strings.Contains(inv.Args[0], "/") {
			return nil, nil, errors.New("selectors and the all flag cannot be used when passing resource/name arguments")
		}
		if len(inv.Args) > 1 {
			return nil, nil, errors.New("name cannot be provided when a selector is specified")
		}
	}
	if all {
		ns = ""
	}
	for _, ra := range rargs {
		if all && len(ra.Names) > 0 && ra.Resource.Namespaced {
			return nil, nil, errors.New("a resource cannot be retrieved by name across all namespaces")
		}
	}
	for _, ra := range rargs {
		if len(ra.Names) == 0 {
			objs, _ := inv.list(ra.Resource, ns, sel, fields.Everything())
			for _, o := range objs {
				targets = append(targets, describeTarget{ra.Resource, o})
			}
			continue
		}
		for _, n := range ra.Names {
			obj, err := inv.Env.Client.Get(ra.Resource, ns, n)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			targets = append(targets, describeTarget{ra.Resource, obj})
		}
	}
	return targets, errs, nil
}

// describeByPrefix is upstream's DescribeMatchingResources: `describe pod
// web` describes every pod whose name starts with "web" when no pod is
// called exactly that, or reports the original NotFound.
func (inv *Invocation) describeByPrefix(d *describer, ns string, notFound error) error {
	if strings.Contains(inv.Args[0], ",") {
		return errors.New("you may only specify a single resource type")
	}
	if i := strings.Index(inv.Args[0], "/"); i >= 0 {
		// "TYPE/NAME TYPE/OTHER": upstream fetches the first as the
		// prefix search's resource, and no name starts with "TYPE/".
		res, err := inv.resolveType(inv.Args[0][:i])
		if err != nil {
			return err
		}
		if _, err := inv.Env.Client.Get(res, ns, inv.Args[0][i+1:]); err != nil {
			return err
		}
		return notFound
	}
	res, err := inv.resolveType(inv.Args[0])
	if err != nil {
		return err
	}
	objs, _ := inv.list(res, ns, nil, fields.Everything())
	found := false
	for _, o := range objs {
		if !strings.HasPrefix(o.GetObjectMeta().Name, inv.Args[1]) {
			continue
		}
		found = true
		s, err := d.describe(res, o)
		if err != nil {
			return err
		}
		io.WriteString(inv.out(), s+"\n")
	}
	if !found {
		return notFound
	}
	return nil
}

// describe renders one object with the describer for its kind, or the
// generic one for kinds upstream has none for (Event, Lease, …).
func (d *describer) describe(res *apiserver.Resource, obj api.Object) (string, error) {
	switch o := obj.(type) {
	case *api.Pod:
		return d.pod(o), nil
	case *api.Node:
		return d.node(o), nil
	case *api.Deployment:
		return d.deployment(o), nil
	case *api.ReplicaSet:
		return d.replicaSet(o), nil
	case *api.StatefulSet:
		return d.statefulSet(o), nil
	case *api.DaemonSet:
		return d.daemonSet(o), nil
	case *api.Job:
		return d.job(o), nil
	case *api.CronJob:
		return d.cronJob(o), nil
	case *api.Service:
		return d.service(o), nil
	case *api.Namespace:
		return d.namespace(o), nil
	case *api.ConfigMap:
		return d.configMap(o), nil
	case *api.Secret:
		return d.secret(o), nil
	case *api.ServiceAccount:
		return d.serviceAccount(o), nil
	case *api.Endpoints:
		return d.endpoints(o), nil
	case *api.PersistentVolumeClaim:
		return d.persistentVolumeClaim(o), nil
	case *api.PersistentVolume:
		return d.persistentVolume(o), nil
	case *api.HorizontalPodAutoscaler:
		return d.horizontalPodAutoscaler(o), nil
	case *api.ResourceQuota:
		return d.resourceQuota(o), nil
	case *api.PodDisruptionBudget:
		return d.podDisruptionBudget(o), nil
	case *api.StorageClass:
		return d.storageClass(o), nil
	case *api.EndpointSlice:
		return d.endpointSlice(o), nil
	}
	return d.generic(res, obj)
}
