package kubectl

import (
	"errors"
	"fmt"
	"time"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
)

// deleteTarget is one object delete will remove.
type deleteTarget struct {
	res       *apiserver.Resource
	namespace string
	name      string
	source    string
	uid       string
}

func runDelete(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	opts, err := inv.deleteOptions()
	if err != nil {
		return err
	}
	var targets []deleteTarget
	var errs []error
	found := 0
	ignoreNotFound := inv.Flags.Bool("ignore-not-found")
	if len(inv.Flags.Strings("filename")) > 0 {
		if len(inv.Args) > 0 {
			return errors.New("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
		}
		infos, ferrs := inv.manifests()
		errs = append(errs, ferrs...)
		for _, in := range infos {
			targets = append(targets, deleteTarget{res: in.Resource, namespace: in.Namespace, name: in.Name, source: in.Source})
		}
	} else {
		if len(inv.Args) == 0 {
			return errors.New("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
		}
		rargs, err := inv.resourceArgs(inv.Args)
		if err != nil {
			return err
		}
		sel, fsel, err := inv.selectors()
		if err != nil {
			return err
		}
		all := inv.Flags.Bool("all")
		ns, _ := inv.Namespace()
		if inv.Flags.Bool("all-namespaces") {
			ns = ""
		}
		for _, ra := range rargs {
			if len(ra.Names) > 0 {
				if all || sel != nil {
					return errors.New("name cannot be provided when a selector is specified")
				}
				for _, n := range ra.Names {
					targets = append(targets, deleteTarget{res: ra.Resource, namespace: ns, name: n})
				}
				continue
			}
			if !all && sel == nil && fsel.Empty() {
				return errors.New("resource(s) were provided, but no name was specified")
			}
			objs, err := inv.list(ra.Resource, ns, sel, fsel)
			if err != nil {
				return err
			}
			for _, o := range objs {
				m := o.GetObjectMeta()
				targets = append(targets, deleteTarget{res: ra.Resource, namespace: m.Namespace, name: m.Name})
			}
		}
	}
	if opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds == 0 && inv.Flags.Bool("force") {
		fmt.Fprintln(inv.errOut(), "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.")
	}
	c := inv.Env.Client
	var waitFor []deleteTarget
	for _, t := range targets {
		if inv.dryRun() == "client" {
			if _, err := c.Get(t.res, t.namespace, t.name); err != nil {
				if !(ignoreNotFound && apierrors.IsNotFound(err)) {
					errs = append(errs, withSource("deleting", t.source, err))
				}
				continue
			}
		} else {
			o := opts
			o.DryRun = nil
			if inv.dryRun() == "server" {
				o.DryRun = []string{"All"}
			}
			r, err := c.Delete(t.res, t.namespace, t.name, o)
			if err != nil {
				if !(ignoreNotFound && apierrors.IsNotFound(err)) {
					errs = append(errs, withSource("deleting", t.source, err))
				}
				continue
			}
			if r.Object != nil {
				t.uid = string(r.Object.GetObjectMeta().UID)
			}
			if !r.Gone && inv.dryRun() == "" {
				waitFor = append(waitFor, t)
			}
		}
		found++
		op := "deleted"
		if opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds == 0 {
			op = "force deleted"
		}
		msg := fmt.Sprintf("%s %q %s", kindName(t.res), t.name, op)
		switch inv.dryRun() {
		case "client":
			msg += " (dry run)"
		case "server":
			msg += " (server dry run)"
		}
		fmt.Fprintln(inv.out(), msg)
	}
	if found == 0 && len(errs) == 0 && len(targets) == 0 {
		fmt.Fprintln(inv.out(), "No resources found")
	}
	if inv.Flags.String("wait") != "false" && len(waitFor) > 0 {
		if err := inv.waitForDeletion(waitFor); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

// deleteOptions reads --grace-period, --now, --force and --cascade.
func (inv *Invocation) deleteOptions() (api.DeleteOptions, error) {
	var opts api.DeleteOptions
	grace := inv.Flags.Int("grace-period")
	if inv.Flags.Bool("now") {
		if grace >= 0 && inv.Flags.Changed("grace-period") {
			return opts, errors.New("--now and --grace-period cannot be specified together")
		}
		grace = 1
	}
	if inv.Flags.Bool("force") && grace < 0 {
		grace = 0
	}
	if grace == 0 && !inv.Flags.Bool("force") {
		// kubectl turns an explicit 0 into the smallest graceful period.
		grace = 1
	}
	if grace >= 0 {
		opts.GracePeriodSeconds = &grace
	}
	var policy string
	switch c := inv.Flags.String("cascade"); c {
	case "background", "true", "":
		policy = api.DeletePropagationBackground
		if c == "true" {
			fmt.Fprintln(inv.errOut(), "warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.")
		}
	case "foreground":
		policy = api.DeletePropagationForeground
	case "orphan", "false":
		policy = api.DeletePropagationOrphan
		if c == "false" {
			fmt.Fprintln(inv.errOut(), "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.")
		}
	default:
		return opts, fmt.Errorf("invalid cascade value (%v). Must be \"background\", \"foreground\", or \"orphan\"", c)
	}
	opts.PropagationPolicy = &policy
	return opts, nil
}

// waitForDeletion lets virtual time pass until every target is gone (or
// replaced by an object with another uid), as kubectl delete --wait does.
func (inv *Invocation) waitForDeletion(targets []deleteTarget) error {
	limit := inv.Flags.Duration("timeout")
	if limit <= 0 {
		limit = 7 * 24 * time.Hour
	}
	c := inv.Env.Client
	var waited time.Duration
	for {
		pending := targets[:0]
		for _, t := range targets {
			o, err := c.Get(t.res, t.namespace, t.name)
			if err == nil && (t.uid == "" || string(o.GetObjectMeta().UID) == t.uid) {
				pending = append(pending, t)
			}
		}
		targets = pending
		if len(targets) == 0 {
			return nil
		}
		if waited >= limit {
			t := targets[0]
			return fmt.Errorf("timed out waiting for the condition on %s/%s", t.res.Name, t.name)
		}
		if !inv.advance(time.Second) {
			return nil
		}
		waited += time.Second
	}
}
