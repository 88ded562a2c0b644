package kubelet

import (
	"fmt"
	"path"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/kubelet/runtime"
	"kubeplay/core/vfs"
)

// VolumeStore holds the data of persistent volumes: it outlives pods and
// nodes, so a StatefulSet pod finds its files again wherever it lands.
type VolumeStore struct {
	byClaim map[string]*vfs.FS // namespace/claim (or PV name) → data
}

// NewVolumeStore returns an empty store.
func NewVolumeStore() *VolumeStore { return &VolumeStore{byClaim: map[string]*vfs.FS{}} }

func (s *VolumeStore) get(key string) *vfs.FS {
	fs, ok := s.byClaim[key]
	if !ok {
		fs = vfs.New()
		s.byClaim[key] = fs
	}
	return fs
}

// Forget drops a volume's data (its PV was deleted).
func (s *VolumeStore) Forget(key string) { delete(s.byClaim, key) }

// setupVolumes prepares a pod's volumes before its sandbox is ready. A
// missing configMap or secret (not optional) or an unbound claim holds the
// pod in ContainerCreating with a FailedMount event, and is retried.
func (k *Kubelet) setupVolumes(ps *podState) error {
	pod := ps.pod
	for _, v := range pod.Spec.Volumes {
		if _, done := ps.volume(v.Name); done {
			continue
		}
		mv, err := k.setupVolume(ps, v)
		if err != nil {
			msg := fmt.Sprintf("MountVolume.SetUp failed for volume %q : %s", v.Name, err)
			if ps.volumeErr != msg {
				k.event(pod, "Warning", "FailedMount", msg)
				ps.volumeErr = msg
			}
			k.enqueueAfter(ps.key, 2*sandboxDelay)
			return err
		}
		mv.name = v.Name
		ps.volumes = append(ps.volumes, *mv)
	}
	ps.volumeErr = ""
	return nil
}

func (k *Kubelet) setupVolume(ps *podState, v api.Volume) (*mountedVolume, error) {
	pod := ps.pod
	newFS := func() *vfs.FS {
		fs := vfs.New()
		fs.Now = k.clock.Now
		return fs
	}
	switch {
	case v.EmptyDir != nil:
		return &mountedVolume{fs: newFS(), path: "/"}, nil
	case v.HostPath != nil:
		p := path.Clean("/" + v.HostPath.Path)
		if !k.hostFS.Exists(p) {
			if t := v.HostPath.Type; t != nil && (*t == "Directory" || *t == "File" || *t == "Socket") {
				return nil, fmt.Errorf("hostPath type check failed: %s is not a %s", v.HostPath.Path, map[string]string{"Directory": "directory", "File": "file", "Socket": "socket"}[string(*t)])
			}
			if t := v.HostPath.Type; t != nil && *t == "FileOrCreate" {
				_ = k.hostFS.MkdirAll(path.Dir(p), 0o755)
				_ = k.hostFS.WriteFile(p, nil, 0o644)
			} else {
				_ = k.hostFS.MkdirAll(p, 0o755)
			}
		}
		return &mountedVolume{fs: k.hostFS, path: p}, nil
	case v.ConfigMap != nil:
		fs := newFS()
		cm, err := client.Get[*api.ConfigMap](k.client, pod.Namespace, v.ConfigMap.Name)
		if err != nil {
			if v.ConfigMap.Optional != nil && *v.ConfigMap.Optional {
				return &mountedVolume{fs: fs, path: "/"}, nil
			}
			return nil, fmt.Errorf("configmap %q not found", v.ConfigMap.Name)
		}
		data := configMapContent(cm)
		for key, val := range cm.BinaryData {
			data[key] = content{data: val}
		}
		files, err := projectKeys(nil, data, v.ConfigMap.Items)
		if err != nil {
			return nil, err
		}
		seedProjection(fs, files)
		return &mountedVolume{fs: fs, path: "/", ro: true}, nil
	case v.Secret != nil:
		fs := newFS()
		s, err := client.Get[*api.Secret](k.client, pod.Namespace, v.Secret.SecretName)
		if err != nil {
			if v.Secret.Optional != nil && *v.Secret.Optional {
				return &mountedVolume{fs: fs, path: "/"}, nil
			}
			return nil, fmt.Errorf("secret %q not found", v.Secret.SecretName)
		}
		files, err := projectKeys(nil, secretContent(s), v.Secret.Items)
		if err != nil {
			return nil, err
		}
		seedProjection(fs, files)
		return &mountedVolume{fs: fs, path: "/", ro: true}, nil
	case v.DownwardAPI != nil:
		fs := newFS()
		var files []projectedFile
		for _, item := range v.DownwardAPI.Items {
			if item.FieldRef == nil {
				continue
			}
			val, err := podFieldValue(pod, ps, item.FieldRef.FieldPath, k.opts.NodeIP)
			if err != nil {
				return nil, err
			}
			files = append(files, projectedFile{path: path.Join("/", item.Path), content: content{text: val}, perm: 0o644, mkdir: true})
		}
		seedProjection(fs, files)
		return &mountedVolume{fs: fs, path: "/", ro: true}, nil
	case v.Projected != nil:
		fs := newFS()
		var files []projectedFile
		for _, src := range v.Projected.Sources {
			switch {
			case src.ConfigMap != nil:
				cm, err := client.Get[*api.ConfigMap](k.client, pod.Namespace, src.ConfigMap.Name)
				if err == nil {
					files, _ = projectKeys(files, configMapContent(cm), src.ConfigMap.Items)
				}
			case src.Secret != nil:
				s, err := client.Get[*api.Secret](k.client, pod.Namespace, src.Secret.Name)
				if err == nil {
					files, _ = projectKeys(files, secretContent(s), src.Secret.Items)
				}
			case src.ServiceAccountToken != nil:
				// No directories made: a token path with some is not written.
				p := path.Join("/", src.ServiceAccountToken.Path)
				files = append(files, projectedFile{path: p, content: content{text: serviceAccountToken(pod)}, perm: 0o600})
			case src.DownwardAPI != nil:
				for _, item := range src.DownwardAPI.Items {
					if item.FieldRef == nil {
						continue
					}
					val, _ := podFieldValue(pod, ps, item.FieldRef.FieldPath, k.opts.NodeIP)
					files = append(files, projectedFile{path: path.Join("/", item.Path), content: content{text: val}, perm: 0o644, mkdir: true})
				}
			}
		}
		seedProjection(fs, files)
		return &mountedVolume{fs: fs, path: "/", ro: true}, nil
	case v.PersistentVolumeClaim != nil:
		claim, err := client.Get[*api.PersistentVolumeClaim](k.client, pod.Namespace, v.PersistentVolumeClaim.ClaimName)
		if err != nil {
			return nil, fmt.Errorf("persistentvolumeclaim %q not found", v.PersistentVolumeClaim.ClaimName)
		}
		if claim.Spec.VolumeName == "" {
			return nil, fmt.Errorf("PVC %s/%s is not bound", pod.Namespace, claim.Name)
		}
		key := "pv/" + claim.Spec.VolumeName
		return &mountedVolume{fs: k.volumes.get(key), path: "/", ro: v.PersistentVolumeClaim.ReadOnly}, nil
	}
	// Other kinds (nfs, csi, ephemeral, image) mount an empty directory.
	return &mountedVolume{fs: newFS(), path: "/"}, nil
}

// configMapContent is a configMap's text keys as file contents.
func configMapContent(cm *api.ConfigMap) map[string]content {
	data := make(map[string]content, len(cm.Data))
	for key, val := range cm.Data {
		data[key] = content{text: val}
	}
	return data
}

// secretContent is a secret's keys as file contents.
func secretContent(s *api.Secret) map[string]content {
	data := make(map[string]content, len(s.Data))
	for key, val := range s.Data {
		data[key] = content{data: val}
	}
	return data
}

// serviceAccountToken is a stand-in JWT: three base64url parts naming
// the pod's service account.
func serviceAccountToken(pod *api.Pod) string {
	return "eyJhbGciOiJSUzI1NiIsImtpZCI6Imt1YmVwbGF5In0." + base64URL(`{"sub":"system:serviceaccount:`+pod.Namespace+":"+pod.Spec.ServiceAccountName+`"}`) + ".c2lnbmF0dXJl"
}

func base64URL(s string) string {
	const enc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	var out []byte
	b := []byte(s)
	for i := 0; i < len(b); i += 3 {
		var n uint32
		rem := len(b) - i
		for j := 0; j < 3; j++ {
			n <<= 8
			if j < rem {
				n |= uint32(b[i+j])
			}
		}
		chars := 4
		if rem == 1 {
			chars = 2
		} else if rem == 2 {
			chars = 3
		}
		for j := 0; j < chars; j++ {
			out = append(out, enc[(n>>(18-6*j))&63])
		}
	}
	return string(out)
}

// containerMounts lists the container's volumeMounts for the runtime to
// make (as the kubelet's CRI config does), with the volumeMount each came
// from: a subPath is made in its volume first.
func (k *Kubelet) containerMounts(ps *podState, c *containerState) ([]runtime.Mount, []*api.VolumeMount) {
	var mounts []runtime.Mount
	var from []*api.VolumeMount
	for i := range c.spec.VolumeMounts {
		m := &c.spec.VolumeMounts[i]
		mv, ok := ps.volume(m.Name)
		if !ok {
			continue
		}
		src := path.Join(mv.path, m.SubPath)
		if m.SubPath != "" && !mv.fs.Exists(src) {
			_ = mv.fs.MkdirAll(src, 0o755)
		}
		rm := runtime.Mount{Target: path.Clean("/" + m.MountPath), FS: mv.fs, Path: src}
		// A volume's root is a directory; asking would fill a seeded volume.
		if src != "/" && mv.fs.Exists(src) && !mv.fs.IsDir(src) {
			// a file mounted on a file (subPath of a configMap key)
			rm.File = true
			rm.Data, _ = mv.fs.ReadFile(src)
		}
		mounts, from = append(mounts, rm), append(from, m)
	}
	return mounts, from
}

// mountError words a mount the runtime could not make as the kubelet does.
func mountError(err *runtime.MountError, from []*api.VolumeMount) error {
	m := from[err.Mount]
	return fmt.Errorf("failed to mount volume %q at %s: %v", m.Name, m.MountPath, err.Err)
}
