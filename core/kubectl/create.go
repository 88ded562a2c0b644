package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/apiserver"
)

func runCreate(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	if len(inv.Flags.Strings("filename")) == 0 && inv.Flags.String("kustomize") == "" {
		if len(inv.Args) > 0 {
			return usageErrorf(inv.Cmd, "unknown command %q", strings.Join(inv.Args, " "))
		}
		return errors.New("must specify one of -f and -k")
	}
	infos, errs := inv.manifests()
	for _, in := range infos {
		if err := inv.createOne(in); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

func (inv *Invocation) createOne(in *info) error {
	if err := inv.validateStrict(in, "creating"); err != nil {
		return err
	}
	if inv.recording() {
		setAnnotation(in.Object, changeCauseAnnotation, inv.changeCause())
	}
	if inv.Flags.Bool("save-config") {
		u, err := manifestJSON(in)
		if err != nil {
			return err
		}
		js, _ := jsonMarshal(u)
		setAnnotation(in.Object, lastAppliedAnnotation, string(js)+"\n")
	}
	obj := in.Object
	if inv.dryRun() != "client" {
		var err error
		obj, err = inv.Env.Client.Create(in.Resource, in.Namespace, in.Object, apiserver.CreateOptions{DryRun: inv.dryRun() == "server"})
		if err != nil {
			return withSource("creating", in.Source, err)
		}
	}
	return inv.reportOp(in.Resource, obj, "created")
}

// createGenerated is the tail of every `kubectl create <kind> NAME`
// generator: --dry-run, -o, then the create itself; failures are worded
// `failed to create <what>: …` where kubectl words them so.
func (inv *Invocation) createGenerated(obj api.Object, what string, wrap bool) error {
	return inv.createGeneratedOp(obj, what, wrap, "created")
}

// createGeneratedOp is createGenerated reporting op ("exposed" for expose).
func (inv *Invocation) createGeneratedOp(obj api.Object, what string, wrap bool, op string) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	tm := obj.GetTypeMeta()
	res, ok := inv.Env.Client.Registry().ForKind(tm.APIVersion, tm.Kind)
	if !ok {
		return fmt.Errorf("no matches for kind %q", tm.Kind)
	}
	m := obj.GetObjectMeta()
	if res.Namespaced {
		m.Namespace, _ = inv.Namespace()
	}
	if inv.recording() {
		setAnnotation(obj, changeCauseAnnotation, inv.changeCause())
	}
	if inv.dryRun() != "client" {
		created, err := inv.Env.Client.Create(res, m.Namespace, obj, apiserver.CreateOptions{DryRun: inv.dryRun() == "server"})
		if err != nil {
			if wrap {
				return fmt.Errorf("failed to create %s: %v", what, err)
			}
			return err
		}
		obj = created
	} else if res.Namespaced && inv.outputFormat() != "" {
		// A client-side dry run prints what would be sent.
		m.Namespace = ""
		if ns, explicit := inv.Namespace(); explicit {
			m.Namespace = ns
		}
	}
	return inv.reportOp(res, obj, op)
}

// exactlyOneName is the check every create generator makes on its NAME.
func (inv *Invocation) exactlyOneName() (string, error) {
	args := inv.Args
	if d := inv.Flags.ArgsLenAtDash(); d >= 0 {
		args = args[:d] // the words after -- are the container's command
	}
	if len(args) != 1 {
		return "", usageErrorf(inv.Cmd, "exactly one NAME is required, got %d", len(args))
	}
	return args[0], nil
}

// requireFlag is cobra's `required flag(s) "image" not set`.
func (inv *Invocation) requireFlag(name string) error {
	if !inv.Flags.Changed(name) {
		return fmt.Errorf("required flag(s) %q not set", name)
	}
	return nil
}
