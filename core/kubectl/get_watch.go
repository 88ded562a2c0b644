package kubectl

import (
	"errors"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/apiserver"
	"kubeplay/core/printers"
)

// idleWatchEnd ends a non-interactive watch that saw no change for this
// long of virtual time (a session file cannot press Ctrl-C).
const idleWatchEnd = 30 * time.Second

func (inv *Invocation) watching() bool {
	return inv.Flags.Bool("watch") || inv.Flags.Bool("watch-only")
}

// watch is get -w: the current objects (unless --watch-only), then a row
// for every change, while virtual time passes, until interrupted.
func (inv *Invocation) watch(groups []fetched, args []string) error {
	if len(groups) != 1 {
		return errors.New("watch is only supported on individual resources and resource collections, but 0 resources were found")
	}
	g := groups[0]
	res := g.res
	opts := printers.Options{
		Wide:          inv.outputFormat() == "wide",
		NoHeaders:     inv.Flags.Bool("no-headers"),
		WithNamespace: inv.Flags.Bool("all-namespaces"),
		ShowLabels:    inv.Flags.Bool("show-labels"),
		LabelColumns:  inv.Flags.Strings("label-columns"),
	}
	ww := printers.NewWatchWriter(inv.out(), opts)
	if !inv.Flags.Bool("watch-only") {
		ww.Print(printers.TableFor(res.Kind, g.objs, inv.now()))
	}
	ns, _ := inv.Namespace()
	if inv.Flags.Bool("all-namespaces") || !res.Namespaced {
		ns = ""
	}
	names := map[string]bool{}
	rargs, _ := inv.resourceArgs(args)
	for _, ra := range rargs {
		for _, n := range ra.Names {
			names[n] = true
		}
	}
	sel, fsel, err := inv.selectors()
	if err != nil {
		return err
	}
	_, rv := inv.Env.Client.List(res, ns, apiserver.ListOptions{})
	// Each event is printed with the ages it had when it arrived, as the
	// real kubectl prints an event the moment it reads it.
	type arrival struct {
		obj api.Object
		at  time.Time
	}
	var pending []arrival
	stop, err := inv.Env.Client.Watch(res, ns, apiserver.ListOptions{ResourceVersion: rv}, func(ev apiserver.WatchEvent) {
		o := ev.Object
		m := o.GetObjectMeta()
		if len(names) > 0 && !names[m.Name] {
			return
		}
		if sel != nil && !sel.Matches(labels.Set(m.Labels)) {
			return
		}
		if !fsel.Empty() && !fsel.Matches(apiserver.FieldSet(o)) {
			return
		}
		pending = append(pending, arrival{o.DeepCopyObject(), inv.now()})
	})
	if err != nil {
		return err
	}
	defer stop()
	timeout := inv.Flags.Duration("request-timeout")
	start := inv.now()
	idle := time.Duration(0)
	for {
		if len(pending) > 0 {
			for _, a := range pending {
				ww.Print(printers.TableFor(res.Kind, []api.Object{a.obj}, a.at))
			}
			pending = nil
			idle = 0
		}
		if timeout > 0 && inv.now().Sub(start) >= timeout {
			return nil
		}
		if !inv.Env.Interactive && idle >= idleWatchEnd {
			return nil
		}
		if !inv.advance(time.Second) {
			for _, a := range pending {
				ww.Print(printers.TableFor(res.Kind, []api.Object{a.obj}, a.at))
			}
			return nil
		}
		idle += time.Second
	}
}
