package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
)

// errLocalResources is the builder's refusal of resource arguments with
// --local.
var errLocalResources = errors.New("error: you must specify resources by --filename when --local is set.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'")

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
	local := inv.Flags.Bool("local")
	if local && len(resources) > 0 {
		return errLocalResources
	}
	objs, err := inv.setTargets(resources, local, inv.Flags.Bool("all"))
	if err != nil {
		return err
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
	if local && inv.dryRun() == "server" {
		invalid = append(invalid, errors.New("cannot specify --local and --dry-run=server - did you mean --dry-run=client?"))
	}
	if len(invalid) > 0 {
		return aggregate(invalid)
	}
	c := &templateChange{done: "image updated", failed: "failed to patch image update to pod template: ", local: local}
	c.mutate = func(_ liveObject, spec *api.PodSpec) error {
		for _, u := range updates {
			inInit := setContainerImage(spec.InitContainers, u)
			inMain := setContainerImage(spec.Containers, u)
			if !inInit && !inMain {
				c.noted = append(c.noted, fmt.Errorf("error: unable to find container named %q", u.container))
			}
		}
		return nil
	}
	return inv.changePodTemplates(objs, c)
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
