package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

// liveObject is one object a mutating command (scale, label, set image,
// rollout …) works on: read from the API, copied, safe to change.
type liveObject struct {
	res *apiserver.Resource
	obj api.Object
}

func (l liveObject) name() string      { return l.obj.GetObjectMeta().Name }
func (l liveObject) namespace() string { return l.obj.GetObjectMeta().Namespace }

// liveOptions are the builder settings a command asks for.
type liveOptions struct {
	// all is --all: every object of the named types.
	all bool
	// typeSelectsAll: a TYPE with no names selects every object of it, as
	// the rollout commands' ResourceTypeOrNameArgs(true, …) does.
	typeSelectsAll bool
	// allNamespaces is -A where a command has it.
	allNamespaces bool
}

// errNoResources is the builder's complaint when nothing names a resource.
var errNoResources = errors.New("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")

// loadLive resolves -f files, TYPE NAME…, TYPE/NAME… and -l into the live
// objects they name, as kubectl's builder does with ContinueOnError and
// Latest: an object that cannot be read is reported in errs while the others
// still count; err is a mistake in the arguments themselves. single is the
// builder's "single item implied" (one object named explicitly).
func (inv *Invocation) loadLive(args []string, o liveOptions) (objs []liveObject, single bool, errs []error, err error) {
	c := inv.Env.Client
	if len(inv.Flags.Strings("filename")) > 0 {
		if len(args) > 0 {
			return nil, false, nil, errors.New("when paths, URLs, or stdin is provided as input, you may not specify a resource by arguments as well")
		}
		infos, ferrs := inv.manifests()
		errs = append(errs, ferrs...)
		for _, in := range infos {
			obj, gerr := c.Get(in.Resource, in.Namespace, in.Name)
			if gerr != nil {
				errs = append(errs, gerr)
				continue
			}
			objs = append(objs, liveObject{res: in.Resource, obj: obj.DeepCopyObject()})
		}
		return objs, len(infos) == 1, errs, nil
	}
	if len(args) == 0 {
		return nil, false, nil, errNoResources
	}
	rargs, err := inv.resourceArgs(args)
	if err != nil {
		return nil, false, nil, err
	}
	sel, fsel, err := inv.selectors()
	if err != nil {
		return nil, false, nil, err
	}
	ns, _ := inv.Namespace()
	if o.allNamespaces {
		ns = ""
	}
	named, bulk := 0, 0
	for _, ra := range rargs {
		if len(ra.Names) > 0 {
			named++
		} else {
			bulk++
		}
	}
	selecting := sel != nil || !fsel.Empty() || o.all
	switch {
	case named > 0 && selecting && strings.Contains(args[0], "/"):
		return nil, false, nil, errors.New("selectors and the all flag cannot be used when passing resource/name arguments")
	case named > 0 && selecting:
		return nil, false, nil, errors.New("name cannot be provided when a selector is specified")
	case named > 0 && !strings.Contains(args[0], "/") && len(rargs) > 1:
		return nil, false, nil, errors.New("you must specify only one resource")
	case bulk > 0 && !selecting && !o.typeSelectsAll:
		return nil, false, nil, errors.New("resource(s) were provided, but no name was specified")
	}
	total := 0
	for _, ra := range rargs {
		rns := ns
		if !ra.Resource.Namespaced {
			rns = ""
		}
		if len(ra.Names) == 0 {
			list, lerr := inv.list(ra.Resource, rns, sel, fsel)
			if lerr != nil {
				errs = append(errs, lerr)
				continue
			}
			for _, obj := range list {
				objs = append(objs, liveObject{res: ra.Resource, obj: obj.DeepCopyObject()})
			}
			continue
		}
		for _, n := range ra.Names {
			total++
			obj, gerr := inv.Env.Client.Get(ra.Resource, rns, n)
			if gerr != nil {
				errs = append(errs, gerr)
				continue
			}
			objs = append(objs, liveObject{res: ra.Resource, obj: obj.DeepCopyObject()})
		}
	}
	return objs, bulk == 0 && total == 1, errs, nil
}

// resourceWithGroup is "deployments.apps": how several commands name a
// resource in their errors.
func resourceWithGroup(res *apiserver.Resource) string {
	if res.Group == "" {
		return res.Name
	}
	return res.Name + "." + res.Group
}

// splitResourcesAndPairs is cmdutil.GetResourcesAndPairs: the leading
// arguments name resources, the rest (KEY=VAL or KEY-) are changes.
func splitResourcesAndPairs(args []string, pairType string) (resources, pairs []string, err error) {
	foundPair := false
	for _, s := range args {
		isPair := (len(s) > 0 && s[0] != '=' && strings.Contains(s, "=")) || (strings.HasSuffix(s, "-") && s != "-")
		switch {
		case isPair:
			foundPair = true
			pairs = append(pairs, s)
		case foundPair:
			return nil, nil, fmt.Errorf("all resources must be specified before %s changes: %s", pairType, s)
		default:
			resources = append(resources, s)
		}
	}
	return resources, pairs, nil
}
