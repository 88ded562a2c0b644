package externalprovisioner

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"kubeplay/core/api"
)

// nfsSubdir is kubernetes-sigs/nfs-subdir-external-provisioner: every
// volume is a new directory on one NFS export, which the pod mounts as
// its /persistentvolumes; the PersistentVolume points at that directory.
type nfsSubdir struct {
	server, path string
}

// newNFSSubdir reads the program's environment; without its server, path
// or name the real program exits at once.
func newNFSSubdir(env map[string]string) (string, Provisioner) {
	if env["NFS_SERVER"] == "" || env["NFS_PATH"] == "" || env["PROVISIONER_NAME"] == "" {
		return "", nil
	}
	return env["PROVISIONER_NAME"], &nfsSubdir{server: env["NFS_SERVER"], path: env["NFS_PATH"]}
}

// pathPatternField is a ${.PVC.name}, ${.PVC.namespace},
// ${.PVC.labels.KEY} or ${.PVC.annotations.KEY} in a class's pathPattern.
var pathPatternField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{\.PVC\.((labels|annotations)\.(.*?)|.*?)\}`) })

// Provision names the directory NAMESPACE-CLAIM-VOLUME under the export
// (or the class's pathPattern, filled from the claim) and describes it as
// an NFS volume with the claim's size and access modes.
func (p *nfsSubdir) Provision(o ProvisionOptions) (*api.PersistentVolume, error) {
	claim := o.Claim
	if claim.Spec.Selector != nil {
		return nil, errors.New("claim Selector is not supported")
	}
	dir := path.Join(p.path, strings.Join([]string{claim.Namespace, claim.Name, o.PVName}, "-"))
	if pattern, ok := o.Class.Parameters["pathPattern"]; ok {
		custom := pathPatternField().ReplaceAllStringFunc(pattern, func(m string) string {
			f := pathPatternField().FindStringSubmatch(m)
			switch f[2] {
			case "labels":
				return claim.Labels[f[3]]
			case "annotations":
				return claim.Annotations[f[3]]
			}
			return map[string]string{"name": claim.Name, "namespace": claim.Namespace}[f[1]]
		})
		if custom != "" {
			dir = path.Join(p.path, custom)
		}
	}
	policy := api.PersistentVolumeReclaimPolicy(api.PersistentVolumeReclaimDelete)
	if o.Class.ReclaimPolicy != nil {
		policy = *o.Class.ReclaimPolicy
	}
	return &api.PersistentVolume{
		ObjectMeta: api.ObjectMeta{Name: o.PVName},
		Spec: api.PersistentVolumeSpec{
			PersistentVolumeReclaimPolicy: policy,
			AccessModes:                   claim.Spec.AccessModes,
			MountOptions:                  o.Class.MountOptions,
			Capacity:                      api.ResourceList{"storage": claim.Spec.Resources.Requests["storage"]},
			PersistentVolumeSource:        api.PersistentVolumeSource{NFS: &api.NFSVolumeSource{Server: p.server, Path: dir}},
		},
	}, nil
}

// Delete removes the volume's directory, or archives it: the class's
// onDelete ("delete", "retain") or archiveOnDelete ("false" deletes)
// decide. The export is outside the simulation, so there is nothing to do
// but accept.
func (p *nfsSubdir) Delete(pv *api.PersistentVolume, class *api.StorageClass) error {
	if pv.Spec.NFS == nil {
		return errors.New("volume is not an NFS volume")
	}
	switch {
	case pv.Spec.StorageClassName == "":
		return errors.New("volume has no storage class")
	case class == nil:
		return fmt.Errorf("storageclasses.storage.k8s.io %q not found", pv.Spec.StorageClassName)
	}
	return nil
}
