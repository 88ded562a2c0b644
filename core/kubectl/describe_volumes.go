package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"kubeplay/core/api"
)

// writeVolumes is describeVolumes: each volume's name and its source in
// upstream's words ("Projected (a volume that contains injected data from
// multiple sources)"). space is "  " inside a pod template.
func writeVolumes(w *describeWriter, vols []api.Volume, space string) {
	if len(vols) == 0 {
		w.write(0, "%sVolumes:\t<none>\n", space)
		return
	}
	w.write(0, "%sVolumes:\n", space)
	for i := range vols {
		v := &vols[i]
		nameIndent := ""
		if space != "" {
			nameIndent = " "
		}
		w.write(1, "%s%v:\n", nameIndent, v.Name)
		switch {
		case v.HostPath != nil:
			writeHostPathSource(w, v.HostPath)
		case v.EmptyDir != nil:
			size := "<unset>"
			if q := v.EmptyDir.SizeLimit; q != nil && q.Sign() > 0 {
				size = q.String()
			}
			w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n"+
				"    Medium:\t%v\n"+
				"    SizeLimit:\t%v\n", v.EmptyDir.Medium, size)
		case v.Secret != nil:
			w.write(2, "Type:\tSecret (a volume populated by a Secret)\n"+
				"    SecretName:\t%v\n"+
				"    Optional:\t%v\n", v.Secret.SecretName, v.Secret.Optional != nil && *v.Secret.Optional)
		case v.ConfigMap != nil:
			w.write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n"+
				"    Name:\t%v\n"+
				"    Optional:\t%v\n", v.ConfigMap.Name, v.ConfigMap.Optional != nil && *v.ConfigMap.Optional)
		case v.NFS != nil:
			writeNFSSource(w, v.NFS)
		case v.PersistentVolumeClaim != nil:
			w.write(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n"+
				"    ClaimName:\t%v\n"+
				"    ReadOnly:\t%v\n", v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
		case v.Ephemeral != nil:
			w.write(2, "Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n")
			if t := v.Ephemeral.VolumeClaimTemplate; t != nil {
				w.nest += 2
				writePVCFields(w, &api.PersistentVolumeClaim{ObjectMeta: t.ObjectMeta, Spec: t.Spec}, nil)
				w.nest -= 2
			}
		case v.DownwardAPI != nil:
			w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n")
			for _, item := range v.DownwardAPI.Items {
				if item.FieldRef != nil {
					w.write(3, "%v -> %v\n", item.FieldRef.FieldPath, item.Path)
				}
				if item.ResourceFieldRef != nil {
					w.write(3, "%v -> %v\n", item.ResourceFieldRef.Resource, item.Path)
				}
			}
		case v.Projected != nil:
			writeProjectedSource(w, v.Projected)
		case v.CSI != nil:
			writeCSISource(w, v.CSI)
		case v.Image != nil:
			w.write(2, "Type:\tImage (a container image or OCI artifact)\n"+
				"    Reference:\t%v\n"+
				"    PullPolicy:\t%v\n", v.Image.Reference, v.Image.PullPolicy)
		default:
			w.write(1, "<unknown>\n")
		}
	}
}

func writeHostPathSource(w *describeWriter, h *api.HostPathVolumeSource) {
	typ := "<none>"
	if h.Type != nil {
		typ = *h.Type
	}
	w.write(2, "Type:\tHostPath (bare host directory volume)\n"+
		"    Path:\t%v\n"+
		"    HostPathType:\t%v\n", h.Path, typ)
}

func writeNFSSource(w *describeWriter, n *api.NFSVolumeSource) {
	w.write(2, "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n"+
		"    Server:\t%v\n"+
		"    Path:\t%v\n"+
		"    ReadOnly:\t%v\n", n.Server, n.Path, n.ReadOnly)
}

// writeProjectedSource lists a projected volume's sources, as the
// kube-api-access volume every pod gets shows them.
func writeProjectedSource(w *describeWriter, p *api.ProjectedVolumeSource) {
	w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
	for _, s := range p.Sources {
		switch {
		case s.Secret != nil:
			w.write(2, "SecretName:\t%v\n"+
				"    SecretOptionalName:\t%v\n", s.Secret.Name, optionalPtr(s.Secret.Optional))
		case s.DownwardAPI != nil:
			w.write(2, "DownwardAPI:\ttrue\n")
		case s.ConfigMap != nil:
			w.write(2, "ConfigMapName:\t%v\n"+
				"    ConfigMapOptional:\t%v\n", s.ConfigMap.Name, optionalPtr(s.ConfigMap.Optional))
		case s.ServiceAccountToken != nil:
			var exp int64
			if s.ServiceAccountToken.ExpirationSeconds != nil {
				exp = *s.ServiceAccountToken.ExpirationSeconds
			}
			w.write(2, "TokenExpirationSeconds:\t%d\n", exp)
		}
	}
}

// optionalPtr prints an optional flag as upstream's %v of a pointer does
// when unset ("<nil>"); a set flag shows its value.
func optionalPtr(b *bool) string {
	if b == nil {
		return "<nil>"
	}
	return fmt.Sprint(*b)
}

func writeCSISource(w *describeWriter, c *api.CSIVolumeSource) {
	w.write(2, "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n"+
		"    Driver:\t%v\n"+
		"    FSType:\t%v\n"+
		"    ReadOnly:\t%v\n", c.Driver, derefString(c.FSType), c.ReadOnly != nil && *c.ReadOnly)
	writeCSIAttributes(w, c.VolumeAttributes)
}

// writeCSIAttributes prints volume attributes "k=v", one a line, sorted.
func writeCSIAttributes(w *describeWriter, attrs map[string]string) {
	w.write(2, "VolumeAttributes:\t")
	if len(attrs) == 0 {
		w.line("<none>")
		return
	}
	for i, k := range slices.Sorted(maps.Keys(attrs)) {
		if i != 0 {
			w.write(2, "")
			w.write(2, "\t")
		}
		l := k + "=" + attrs[k]
		if len(l) > maxAnnotationLen {
			l = l[:maxAnnotationLen] + "..."
		}
		w.write(2, "%s\n", l)
	}
}

// writePVCFields is printPersistentVolumeClaim: the claim's class, volume,
// metadata and size; a real claim (since set, for how long it has been
// terminating) adds its name, status and finalizers.
func writePVCFields(w *describeWriter, pvc *api.PersistentVolumeClaim, since func(time.Time) string) {
	full := since != nil
	if full {
		w.write(0, "Name:\t%s\n", pvc.Name)
		w.write(0, "Namespace:\t%s\n", pvc.Namespace)
	}
	w.write(0, "StorageClass:\t%s\n", pvcClass(pvc))
	if full {
		if pvc.DeletionTimestamp != nil {
			w.write(0, "Status:\tTerminating (lasts %s)\n", since(pvc.DeletionTimestamp.Time))
		} else {
			w.write(0, "Status:\t%v\n", pvc.Status.Phase)
		}
	}
	w.write(0, "Volume:\t%s\n", pvc.Spec.VolumeName)
	w.writeLabels("", "Labels", pvc.Labels)
	w.writeAnnotations("Annotations", pvc.Annotations)
	if full {
		w.write(0, "Finalizers:\t%v\n", goStringList(pvc.Finalizers))
	}
	capacity, modes := "", ""
	if pvc.Spec.VolumeName != "" {
		modes = accessModesString(pvc.Status.AccessModes)
		q := pvc.Status.Capacity[api.ResourceStorage]
		capacity = q.String()
	}
	w.write(0, "Capacity:\t%s\n", capacity)
	w.write(0, "Access Modes:\t%s\n", modes)
	if pvc.Spec.VolumeMode != nil {
		w.write(0, "VolumeMode:\t%v\n", *pvc.Spec.VolumeMode)
	}
	if ds := pvc.Spec.DataSource; ds != nil {
		w.write(0, "DataSource:\n")
		if ds.APIGroup != nil {
			w.write(1, "APIGroup:\t%v\n", *ds.APIGroup)
		}
		w.write(1, "Kind:\t%v\n", ds.Kind)
		w.write(1, "Name:\t%v\n", ds.Name)
	}
}

// pvcClass is the claim's class: the beta annotation wins over the field.
func pvcClass(pvc *api.PersistentVolumeClaim) string {
	if c, ok := pvc.Annotations[api.BetaStorageClassAnnotation]; ok {
		return c
	}
	return derefString(pvc.Spec.StorageClassName)
}

// accessModesString is "RWO,ROX": each mode once, in upstream's order.
func accessModesString(modes []string) string {
	has := map[string]bool{}
	for _, m := range modes {
		has[m] = true
	}
	var out []string
	for _, m := range []struct{ mode, short string }{
		{api.ReadWriteOnce, "RWO"}, {api.ReadOnlyMany, "ROX"}, {api.ReadWriteMany, "RWX"}, {api.ReadWriteOncePod, "RWOP"},
	} {
		if has[m.mode] {
			out = append(out, m.short)
		}
	}
	return strings.Join(out, ",")
}

// goStringList is fmt's %v of a []string: "[a b]".
func goStringList(s []string) string {
	return fmt.Sprintf("%v", s)
}
