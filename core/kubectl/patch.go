package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"

	"kubeplay/core/api/codec"
	"kubeplay/core/apiserver"
)

// patchTypes maps --type to the request's content type.
var patchTypes = map[string]string{
	"json":      apiserver.JSONPatchType,
	"merge":     apiserver.MergePatchType,
	"strategic": apiserver.StrategicMergePatchType,
}

func runPatch(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	pt, ok := patchTypes[inv.Flags.String("type")]
	if !ok {
		return fmt.Errorf("--type must be one of [\"json\" \"merge\" \"strategic\"], not %q", inv.Flags.String("type"))
	}
	text := inv.Flags.String("patch")
	if f := inv.Flags.String("patch-file"); f != "" {
		if text != "" {
			return errors.New("--patch and --patch-file are mutually exclusive")
		}
		abs := f
		if !path.IsAbs(abs) {
			abs = path.Join(inv.Env.Cwd, f)
		}
		if inv.Env.FS == nil {
			return fmt.Errorf("unable to read patch file: open %s: no such file or directory", f)
		}
		b, err := inv.Env.FS.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("unable to read patch file: open %s: no such file or directory", f)
		}
		text = string(b)
	}
	if text == "" {
		return usageErrorf(inv.Cmd, "Must specify --patch or --patch-file containing the contents of the patch")
	}
	data, err := codec.YAMLToJSON([]byte(text))
	if err != nil {
		return fmt.Errorf("unable to parse %q: %v", text, err)
	}
	if !json.Valid(data) {
		return fmt.Errorf("unable to parse %q: invalid JSON", text)
	}
	var targets []deleteTarget
	var errs []error
	if len(inv.Flags.Strings("filename")) > 0 {
		infos, ferrs := inv.manifests()
		errs = append(errs, ferrs...)
		for _, in := range infos {
			targets = append(targets, deleteTarget{res: in.Resource, namespace: in.Namespace, name: in.Name, source: in.Source})
		}
	} else {
		rargs, err := inv.resourceArgs(inv.Args)
		if err != nil {
			return err
		}
		if len(rargs) == 0 {
			return usageErrorf(inv.Cmd, "You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'")
		}
		ns, _ := inv.Namespace()
		for _, ra := range rargs {
			if len(ra.Names) == 0 {
				return errors.New("resource(s) were provided, but no name was specified")
			}
			for _, n := range ra.Names {
				targets = append(targets, deleteTarget{res: ra.Resource, namespace: ns, name: n})
			}
		}
	}
	c := inv.Env.Client
	for _, t := range targets {
		before, err := c.Get(t.res, t.namespace, t.name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		obj, err := c.Patch(t.res, t.namespace, t.name, pt, data, apiserver.PatchOptions{
			DryRun:      inv.dryRun() != "",
			Subresource: inv.Flags.String("subresource"),
		})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		op := "patched"
		if obj.GetObjectMeta().ResourceVersion == before.GetObjectMeta().ResourceVersion {
			op = "patched (no change)"
		}
		if err := inv.reportOp(t.res, obj, op); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}
