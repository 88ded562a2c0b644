package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

func runCordon(inv *Invocation) error {
	nodes, err := inv.drainNodes()
	if err != nil {
		return err
	}
	inv.cordonNodes(nodes, true)
	return nil
}

func runUncordon(inv *Invocation) error {
	nodes, err := inv.drainNodes()
	if err != nil {
		return err
	}
	inv.cordonNodes(nodes, false)
	return nil
}

// drainNodes reads the nodes cordon, uncordon and drain act on: NODE…
// (or node/NODE…) or -l, as upstream's builder without ContinueOnError, so
// the first node that cannot be read ends the command.
func (inv *Invocation) drainNodes() ([]liveObject, error) {
	if err := inv.checkDryRun(); err != nil {
		return nil, err
	}
	selector := inv.Flags.String("selector")
	if len(inv.Args) == 0 && !inv.Flags.Changed("selector") {
		return nil, usageErrorf(inv.Cmd, "USAGE: %s NODE [flags]", inv.Cmd.Name)
	}
	if len(inv.Args) > 0 && selector != "" {
		return nil, usageErrorf(inv.Cmd, "error: cannot specify both a node name and a --selector option")
	}
	reg := inv.Env.Client.Registry()
	nodesRes, _ := reg.Resolve("nodes")
	var out []liveObject
	if len(inv.Args) == 0 {
		sel, fsel, err := inv.selectors()
		if err != nil {
			return nil, err
		}
		list, err := inv.list(nodesRes, "", sel, fsel)
		if err != nil {
			return nil, err
		}
		for _, o := range list {
			out = append(out, liveObject{res: nodesRes, obj: o.DeepCopyObject()})
		}
		return out, nil
	}
	for _, a := range inv.Args {
		res, name := nodesRes, a
		if i := strings.Index(a, "/"); i >= 0 {
			if i == 0 || i == len(a)-1 {
				return nil, errors.New("arguments in resource/name form must have a single resource and name")
			}
			r, err := inv.resolveType(a[:i])
			if err != nil {
				return nil, err
			}
			res, name = r, a[i+1:]
		}
		ns := ""
		if res.Namespaced {
			ns, _ = inv.Namespace()
		}
		obj, err := inv.Env.Client.Get(res, ns, name)
		if err != nil {
			return nil, err
		}
		if res != nodesRes {
			return nil, fmt.Errorf("error: expected resource of type node, got \"%s/%s, Resource=%s\"", res.Group, res.Version, res.Name)
		}
		out = append(out, liveObject{res: res, obj: obj.DeepCopyObject()})
	}
	return out, nil
}

// cordonNodes sets spec.unschedulable on each node (desired true for
// cordon), reporting "already cordoned" where nothing changes; a failed
// patch is reported and the others go on.
func (inv *Invocation) cordonNodes(nodes []liveObject, desired bool) {
	verb := "cordon"
	if !desired {
		verb = "uncordon"
	}
	for _, o := range nodes {
		node := o.obj.(*api.Node)
		if node.Spec.Unschedulable == desired {
			fmt.Fprintln(inv.out(), inv.operationMessage(o.res, o.name(), "already "+verb+"ed"))
			continue
		}
		if inv.dryRun() != "client" {
			p := `{"spec":{"unschedulable":true}}`
			if !desired {
				p = `{"spec":{"unschedulable":null}}`
			}
			_, err := inv.Env.Client.Patch(o.res, "", o.name(), apiserver.StrategicMergePatchType, []byte(p),
				apiserver.PatchOptions{DryRun: inv.dryRun() == "server"})
			if err != nil {
				fmt.Fprintf(inv.errOut(), "error: unable to %s node %q: %v\n", verb, o.name(), messageOf(err))
				continue
			}
		}
		node.Spec.Unschedulable = desired
		fmt.Fprintln(inv.out(), inv.operationMessage(o.res, o.name(), verb+"ed"))
	}
}
