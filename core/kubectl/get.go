package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/api/fields"
	"kubeplay/core/api/labels"
	"kubeplay/core/apiserver"
	"kubeplay/core/printers"
)

// fetched is what get found for one resource argument.
type fetched struct {
	res  *apiserver.Resource
	objs []api.Object
}

func runGet(inv *Invocation) error {
	if err := inv.checkOutputFormat(append([]string{"wide", "custom-columns", "custom-columns-file"}, printFormats...)...); err != nil {
		return err
	}
	args := inv.Args
	hasFiles := len(inv.Flags.Strings("filename")) > 0
	if len(args) == 0 && !hasFiles {
		return fmt.Errorf("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples")
	}
	var groups []fetched
	var errs []error
	single := false
	// kubectl names the kind on each row when the arguments ask for
	// several types (or all), or the objects turn out to be of several.
	withKind := isAll(args)
	if hasFiles {
		infos, ferrs := inv.manifests()
		errs = append(errs, ferrs...)
		for _, in := range infos {
			obj, err := inv.Env.Client.Get(in.Resource, in.Namespace, in.Name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			groups = appendFetched(groups, in.Resource, obj)
		}
		single = len(infos) == 1
	} else {
		rargs, err := inv.resourceArgs(args)
		if err != nil {
			return err
		}
		sel, fsel, err := inv.selectors()
		if err != nil {
			return err
		}
		ns, _ := inv.Namespace()
		all := inv.Flags.Bool("all-namespaces")
		if all {
			ns = ""
		}
		single = len(rargs) == 1 && len(rargs[0].Names) == 1
		withKind = withKind || len(rargs) > 1
		for _, ra := range rargs {
			if len(ra.Names) > 0 {
				if sel != nil || !fsel.Empty() {
					return errors.New("when paths, URLs, or stdin is provided as input, you may not specify a label selector")
				}
				for _, n := range ra.Names {
					obj, err := inv.Env.Client.Get(ra.Resource, ns, n)
					if err != nil {
						errs = append(errs, err)
						continue
					}
					groups = appendFetched(groups, ra.Resource, obj)
				}
				continue
			}
			objs, err := inv.list(ra.Resource, ns, sel, fsel)
			if err != nil {
				return err
			}
			groups = append(groups, fetched{res: ra.Resource, objs: objs})
		}
	}
	format := inv.outputFormat()
	if sb := inv.Flags.String("sort-by"); sb != "" {
		table := format == "" || format == "wide"
		for i := range groups {
			// A table of one row, or one object asked for by name, is not sorted.
			if table && len(groups[i].objs) < 2 || !table && single {
				continue
			}
			if err := sortObjects(groups[i].objs, sb); err != nil {
				if table {
					// kubectl's table printer drops the table whose rows
					// it cannot sort, and says nothing of why.
					groups[i].objs = nil
					continue
				}
				return err
			}
		}
	}
	var all []api.Object
	for _, g := range groups {
		all = append(all, g.objs...)
	}
	switch format {
	case "yaml", "json":
		var err error
		if single && len(all) == 1 {
			_, err = printObject(inv.out(), format, groups[0].res, all[0])
		} else if len(all) > 0 || len(errs) == 0 {
			if format == "yaml" {
				err = writeYAML(inv.out(), listOf(all))
			} else {
				err = writeJSON(inv.out(), listOf(all))
			}
		}
		if err != nil {
			return err
		}
	case "name":
		for _, g := range groups {
			for _, o := range g.objs {
				printObject(inv.out(), "name", g.res, o)
			}
		}
	case "", "wide":
		if inv.watching() {
			return inv.watch(groups, args)
		}
		inv.printTables(groups, withKind || len(groups) > 1)
	default:
		if err := inv.printTemplate(format, single, all); err != nil {
			return err
		}
	}
	// Only the tables say so; -o name, jsonpath, custom-columns (its
	// header) and templates print what they print for an empty list.
	if len(all) == 0 && len(errs) == 0 && (format == "" || format == "wide") {
		ns, _ := inv.Namespace()
		if inv.Flags.Bool("all-namespaces") || (len(groups) > 0 && !groups[0].res.Namespaced) {
			fmt.Fprintln(inv.errOut(), "No resources found")
		} else {
			fmt.Fprintf(inv.errOut(), "No resources found in %s namespace.\n", ns)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

func isAll(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, t := range strings.Split(args[0], ",") {
		if t == "all" {
			return true
		}
	}
	return false
}

func appendFetched(groups []fetched, res *apiserver.Resource, obj api.Object) []fetched {
	if n := len(groups); n > 0 && groups[n-1].res == res {
		groups[n-1].objs = append(groups[n-1].objs, obj)
		return groups
	}
	return append(groups, fetched{res: res, objs: []api.Object{obj}})
}

// selectors parses -l and --field-selector.
func (inv *Invocation) selectors() (labels.Selector, fields.Selector, error) {
	var sel labels.Selector
	if s := inv.Flags.String("selector"); s != "" {
		var err error
		if sel, err = labels.Parse(s); err != nil {
			return nil, fields.Selector{}, err
		}
	}
	fsel, err := fields.Parse(inv.Flags.String("field-selector"))
	if err != nil {
		return nil, fields.Selector{}, err
	}
	return sel, fsel, nil
}

// list lists a resource in ns ("" for all) through the selectors, sorted
// by namespace then name as the API server returns them.
func (inv *Invocation) list(res *apiserver.Resource, ns string, sel labels.Selector, fsel fields.Selector) ([]api.Object, error) {
	if !fsel.Empty() {
		zero, _ := api.New(res.APIVersion(), res.Kind)
		if zero != nil {
			if err := apiserver.CheckFieldSelector(res, zero, fsel); err != nil {
				return nil, apierrors.NewBadRequest(fmt.Sprintf("Unable to find %q that match label selector %q, field selector %q: %v",
					groupVersionResource(res), selString(sel), fsel.String(), err))
			}
		}
	}
	filter := func(o api.Object) bool {
		if sel != nil && !sel.Matches(labels.Set(o.GetObjectMeta().Labels)) {
			return false
		}
		return fsel.Empty() || fsel.Matches(apiserver.FieldSet(o))
	}
	objs, _ := inv.Env.Client.List(res, ns, apiserver.ListOptions{Filter: filter})
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i].GetObjectMeta(), objs[j].GetObjectMeta()
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return objs, nil
}

func selString(s labels.Selector) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// groupVersionResource is "/v1, Resource=pods" or "apps/v1, Resource=deployments".
func groupVersionResource(res *apiserver.Resource) string {
	return fmt.Sprintf("%s/%s, Resource=%s", res.Group, res.Version, res.Name)
}

// printTables prints one table per resource type, a blank line between.
func (inv *Invocation) printTables(groups []fetched, withKind bool) {
	opts := printers.Options{
		Wide:          inv.outputFormat() == "wide",
		NoHeaders:     inv.Flags.Bool("no-headers"),
		WithNamespace: inv.Flags.Bool("all-namespaces"),
		ShowLabels:    inv.Flags.Bool("show-labels"),
		LabelColumns:  inv.Flags.Strings("label-columns"),
	}
	printed := false
	for _, g := range groups {
		if len(g.objs) == 0 {
			continue
		}
		if printed {
			fmt.Fprintln(inv.out())
		}
		o := opts
		if withKind {
			o.WithKind = kindName(g.res)
		}
		t := printers.TableFor(g.res.Kind, g.objs, inv.now())
		printers.Print(inv.out(), t, o)
		printed = true
	}
}
