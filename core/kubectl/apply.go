package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"

	"kubeplay/core/api"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/apiserver/patch"
)

// lastAppliedAnnotation holds the manifest kubectl apply last sent; the next
// apply diffs against it to find the fields a user removed.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// changeCauseAnnotation is what --record writes.
const changeCauseAnnotation = "kubernetes.io/change-cause"

func runApply(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	if len(inv.Flags.Strings("filename")) == 0 && inv.Flags.String("kustomize") == "" {
		return fmt.Errorf("must specify one of -f and -k")
	}
	infos, errs := inv.manifests()
	for _, in := range infos {
		if err := inv.applyOne(in); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	return nil
}

// manifestJSON is the manifest as the user wrote it, plus the namespace
// kubectl resolved (and --record's annotation), as kubectl stores it in
// last-applied-configuration: its annotations without that one, and an
// empty annotations map when it has none (kubectl sets the map back
// after taking the annotation out, so `"annotations":{}` is always there).
func manifestJSON(in *info) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(in.Raw))
	d.UseNumber()
	var u map[string]any
	if err := d.Decode(&u); err != nil {
		return nil, err
	}
	meta, _ := u["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		u["metadata"] = meta
	}
	if in.Namespace != "" {
		meta["namespace"] = in.Namespace
	}
	ann, _ := meta["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		meta["annotations"] = ann
	}
	delete(ann, lastAppliedAnnotation)
	if v, ok := in.Object.GetObjectMeta().Annotations[changeCauseAnnotation]; ok {
		ann[changeCauseAnnotation] = v
	}
	return u, nil
}

func (inv *Invocation) validateStrict(in *info, verb string) error {
	if in.Strict == nil {
		return nil
	}
	switch inv.Flags.String("validate") {
	case "false", "ignore":
		return nil
	case "warn":
		for _, e := range in.Strict.Errors {
			fmt.Fprintf(inv.errOut(), "Warning: %s\n", e)
		}
		return nil
	}
	tm := in.Object.GetTypeMeta()
	return withSource(verb, in.Source, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v",
		tm.Kind, in.Resource.Version, tm.Kind, in.Strict)))
}

func (inv *Invocation) applyOne(in *info) error {
	if inv.recording() {
		setAnnotation(in.Object, changeCauseAnnotation, inv.changeCause())
	}
	u, err := manifestJSON(in)
	if err != nil {
		return err
	}
	meta, _ := u["metadata"].(map[string]any)
	lastApplied, err := json.Marshal(u)
	if err != nil {
		return err
	}
	setAnnotation(in.Object, lastAppliedAnnotation, string(lastApplied)+"\n")
	if meta != nil {
		ann, _ := meta["annotations"].(map[string]any)
		if ann == nil {
			ann = map[string]any{}
			meta["annotations"] = ann
		}
		ann[lastAppliedAnnotation] = string(lastApplied) + "\n"
	}
	modified, err := json.Marshal(u)
	if err != nil {
		return err
	}
	c := inv.Env.Client
	live, err := c.Get(in.Resource, in.Namespace, in.Name)
	if apierrors.IsNotFound(err) {
		if err := inv.validateStrict(in, "creating"); err != nil {
			return err
		}
		obj := in.Object
		if inv.dryRun() == "client" {
			// Nothing is sent: kubectl prints the manifest as it read it,
			// with the annotation, not a typed object.
			return inv.reportManifest(in.Resource, u, obj, "created")
		}
		obj, err = c.Create(in.Resource, in.Namespace, in.Object, apiserver.CreateOptions{DryRun: inv.dryRun() == "server"})
		if err != nil {
			return withSource("creating", in.Source, err)
		}
		return inv.reportOp(in.Resource, obj, "created")
	}
	if err != nil {
		return withSource("retrieving current configuration of:\nResource: \""+groupVersionResource(in.Resource)+"\", GroupVersionKind: \""+in.Resource.APIVersion()+", Kind="+in.Resource.Kind+"\"\nName: \""+in.Name+"\", Namespace: \""+in.Namespace+"\"\nfrom server for:", in.Source, err)
	}
	if err := inv.validateStrict(in, "patching"); err != nil {
		return err
	}
	current, err := json.Marshal(live)
	if err != nil {
		return err
	}
	original := []byte(live.GetObjectMeta().Annotations[lastAppliedAnnotation])
	if len(original) == 0 {
		fmt.Fprintf(inv.errOut(), "Warning: resource %s/%s is missing the %s annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n",
			in.Resource.Name, in.Name, lastAppliedAnnotation)
	}
	p, err := patch.CreateThreeWayMergePatch(original, modified, current, patch.KindSchema(in.Resource.Kind), true)
	if err != nil {
		return withSource("patching", in.Source, err)
	}
	if string(p) == "{}" {
		return inv.reportOp(in.Resource, live, "unchanged")
	}
	obj := live
	if inv.dryRun() != "client" {
		obj, err = c.Patch(in.Resource, in.Namespace, in.Name, apiserver.StrategicMergePatchType, p, apiserver.PatchOptions{DryRun: inv.dryRun() == "server"})
		if err != nil {
			return withSource("applying patch:\n"+string(p)+"\nto:\n"+in.Resource.Kind+" "+in.Name+"\nfor:", in.Source, err)
		}
	}
	return inv.reportOp(in.Resource, obj, "configured")
}

// reportOp prints `kind/name op` or the object in the -o format.
func (inv *Invocation) reportOp(res *apiserver.Resource, obj api.Object, op string) error {
	if f := inv.outputFormat(); f != "" {
		if ok, err := printObject(inv.out(), f, res, obj); ok || err != nil {
			return err
		}
		if isTemplateFormat(f) {
			return inv.printTemplate(f, true, []api.Object{obj})
		}
	}
	fmt.Fprintln(inv.out(), inv.operationMessage(res, obj.GetObjectMeta().Name, op))
	return nil
}

// reportManifest is reportOp for an object kubectl only read (a client
// dry run): -o yaml and -o json print the manifest map itself.
func (inv *Invocation) reportManifest(res *apiserver.Resource, u map[string]any, obj api.Object, op string) error {
	switch inv.outputFormat() {
	case "yaml":
		return writeYAML(inv.out(), u)
	case "json":
		return writeJSON(inv.out(), u)
	}
	return inv.reportOp(res, obj, op)
}

func setAnnotation(obj api.Object, key, value string) {
	m := obj.GetObjectMeta()
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[key] = value
}
