package defaults

import "testing"

func TestStorageDefaults(t *testing.T) { runCases(t, storageCases) }

var storageCases = []defaultCase{
	{
		name: "persistentvolume: Retain, Filesystem, Pending, hostPath type",
		in: `
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv1
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /data/pv1}
`,
		want: `
apiVersion: v1
kind: PersistentVolume
metadata:
  creationTimestamp: null
  name: pv1
spec:
  accessModes:
  - ReadWriteOnce
  capacity:
    storage: 1Gi
  hostPath:
    path: /data/pv1
    type: ""
  persistentVolumeReclaimPolicy: Retain
  volumeMode: Filesystem
status:
  phase: Pending
`,
	},
	{
		name: "persistentvolumeclaim: Filesystem, Pending",
		in: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests: {storage: 500Mi}
`,
		want: `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  creationTimestamp: null
  name: data
spec:
  accessModes:
  - ReadWriteOnce
  resources:
    requests:
      storage: 500Mi
  volumeMode: Filesystem
status:
  phase: Pending
`,
	},
	{
		name: "storageclass: Delete, Immediate",
		in: `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
provisioner: kubeplay.io/hostpath
`,
		want: `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  creationTimestamp: null
  name: standard
provisioner: kubeplay.io/hostpath
reclaimPolicy: Delete
volumeBindingMode: Immediate
`,
	},
}
