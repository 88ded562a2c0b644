package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
)

// imageUpdate is one CONTAINER=IMAGE argument ("*" means every container).
type imageUpdate struct{ container, image string }

// runSetImage is `kubectl set image`: change container images in pod
// templates by strategic merge patch; --record notes the command line.
func runSetImage(inv *Invocation) error {
	if err := inv.checkDryRun(); err != nil {
		return err
	}
	if err := inv.checkOutputFormat(printFormats...); err != nil {
		return err
	}
	resources, pairs, err := splitResourcesAndPairs(inv.Args, "image")
	if err != nil {
		return err
	}
	updates, err := parseImagePairs(pairs)
	if err != nil {
		return err
	}
	if inv.Flags.Bool("local") {
		if len(resources) > 0 {
			return errors.New("error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'")
		}
		return errors.New("--local is not available in kubeplay")
	}
	objs, _, errs, err := inv.loadLive(resources, liveOptions{all: inv.Flags.Bool("all")})
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	var invalid []error
	if inv.Flags.Bool("all") && inv.Flags.String("selector") != "" {
		invalid = append(invalid, errors.New("cannot set --all and --selector at the same time"))
	}
	if len(resources) == 0 && len(inv.Flags.Strings("filename")) == 0 {
		invalid = append(invalid, errors.New("one or more resources must be specified as <resource> <name> or <resource>/<name>"))
	}
	if len(updates) == 0 {
		invalid = append(invalid, errors.New("at least one image update is required"))
	} else if len(updates) > 1 && hasWildcard(updates) {
		invalid = append(invalid, errors.New("all containers are already specified by *, but saw more than one container_name=container_image pairs"))
	}
	if len(invalid) > 0 {
		return aggregate(invalid)
	}

	// Like upstream, every patch is computed before any is sent.
	var allErrs []error
	patches := make([][]byte, len(objs))
	for i, o := range objs {
		p, err := mutationPatch(o, func(obj api.Object) error {
			spec, ok := podSpecOf(obj)
			if !ok {
				return notPodTemplateError{o.res.Kind}
			}
			for _, u := range updates {
				inInit := setContainerImage(spec.InitContainers, u)
				inMain := setContainerImage(spec.Containers, u)
				if !inInit && !inMain {
					allErrs = append(allErrs, fmt.Errorf("error: unable to find container named %q", u.container))
				}
			}
			if inv.recording() {
				setAnnotation(obj, changeCauseAnnotation, inv.changeCause())
			}
			return nil
		})
		if err != nil {
			allErrs = append(allErrs, fmt.Errorf("error: %s/%s %v\n", o.res.Name, o.name(), err))
			continue
		}
		patches[i] = p
	}
	for i, o := range objs {
		p := patches[i]
		if emptyPatch(p) {
			continue
		}
		if inv.dryRun() == "client" {
			if err := inv.reportOp(o.res, o.obj, "image updated"); err != nil {
				allErrs = append(allErrs, err)
			}
			continue
		}
		obj, err := inv.sendPatch(o, p)
		if err != nil {
			allErrs = append(allErrs, fmt.Errorf("failed to patch image update to pod template: %v", messageOf(err)))
			continue
		}
		if err := inv.reportOp(o.res, obj, "image updated"); err != nil {
			allErrs = append(allErrs, err)
		}
	}
	if len(allErrs) > 0 {
		return aggregate(allErrs)
	}
	return nil
}

// parseImagePairs is cmdutil.ParsePairs for images: NAME=IMAGE only, a
// later pair for the same container replacing an earlier one.
func parseImagePairs(pairs []string) ([]imageUpdate, error) {
	var out []imageUpdate
	var invalid []string
	for _, p := range pairs {
		i := strings.Index(p, "=")
		if i <= 0 {
			invalid = append(invalid, p)
			continue
		}
		u := imageUpdate{container: p[:i], image: p[i+1:]}
		replaced := false
		for j := range out {
			if out[j].container == u.container {
				out[j], replaced = u, true
			}
		}
		if !replaced {
			out = append(out, u)
		}
	}
	if len(invalid) > 0 {
		return nil, fmt.Errorf("invalid image format: %s", strings.Join(invalid, ", "))
	}
	return out, nil
}

func hasWildcard(updates []imageUpdate) bool {
	for _, u := range updates {
		if u.container == "*" {
			return true
		}
	}
	return false
}

// setContainerImage sets the image of the named container (or of all, for
// "*") and reports whether one matched.
func setContainerImage(cs []api.Container, u imageUpdate) bool {
	found := false
	for i := range cs {
		if cs[i].Name == u.container || u.container == "*" {
			cs[i].Image = u.image
			found = true
		}
	}
	return found
}

// messageOf is how an API error reads inside another message: its status
// message, without kubectl's "Error from server" framing.
func messageOf(err error) string {
	if st, ok := err.(apiStatus); ok {
		return st.Status().Message
	}
	return err.Error()
}
