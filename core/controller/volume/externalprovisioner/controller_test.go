package externalprovisioner_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/sim"
)

const provisioner = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nfs-client-provisioner
  namespace: kube-system
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nfs-client-provisioner
  template:
    metadata:
      labels:
        app: nfs-client-provisioner
    spec:
      containers:
      - name: nfs-client-provisioner
        image: registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2
        env:
        - name: PROVISIONER_NAME
          value: k8s-sigs.io/nfs-subdir-external-provisioner
        - name: NFS_SERVER
          value: 10.4.7.200
        - name: NFS_PATH
          value: /data/nfs-volume
`

const classAndClaim = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: managed-nfs-storage
provisioner: k8s-sigs.io/nfs-subdir-external-provisioner
parameters:
  archiveOnDelete: "false"
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  storageClassName: managed-nfs-storage
  accessModes: ["ReadWriteMany"]
  resources:
    requests:
      storage: 2Gi
`

func run(t *testing.T, term *sim.Terminal, script string) string {
	t.Helper()
	out := term.Run(script)
	if strings.Contains(out, "rror") {
		t.Fatalf("%s\n%s", script, out)
	}
	return out
}

// The provisioner works only while its pod runs: a claim waits for it,
// then gets a volume named pvc-<claim uid> on a directory of the export
// named NAMESPACE-CLAIM-VOLUME; the volume goes when the claim does.
func TestNFSSubdirProvisioner(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 3})
	c.AddDefaultNode()
	t.Cleanup(c.Close)
	term := sim.NewTerminal(c)
	cl := c.Client("test")

	run(t, term, "kubectl apply -f - <<'EOF'\n"+classAndClaim+"EOF\n")
	c.Advance(5 * time.Second)
	claim, err := client.Get[*api.PersistentVolumeClaim](cl, "default", "data")
	if err != nil {
		t.Fatal(err)
	}
	if claim.Status.Phase != api.ClaimPending {
		t.Fatalf("without a provisioner pod the claim is %s", claim.Status.Phase)
	}
	if out := run(t, term, "kubectl get events --field-selector reason=ExternalProvisioning -o custom-columns=MSG:.message --no-headers"); !strings.Contains(out, "external provisioner 'k8s-sigs.io/nfs-subdir-external-provisioner'") {
		t.Fatalf("events: %s", out)
	}

	run(t, term, "kubectl apply -f - <<'EOF'\n"+provisioner+"EOF\n")
	c.Advance(10 * time.Second)
	claim, _ = client.Get[*api.PersistentVolumeClaim](cl, "default", "data")
	pvName := "pvc-" + string(claim.UID)
	if claim.Status.Phase != api.ClaimBound || claim.Spec.VolumeName != pvName {
		t.Fatalf("claim %s bound to %q, want Bound to %s", claim.Status.Phase, claim.Spec.VolumeName, pvName)
	}
	pv, err := client.Get[*api.PersistentVolume](cl, "", pvName)
	if err != nil {
		t.Fatal(err)
	}
	if nfs := pv.Spec.NFS; nfs == nil || nfs.Server != "10.4.7.200" || nfs.Path != "/data/nfs-volume/default-data-"+pvName {
		t.Fatalf("volume source %+v", pv.Spec.PersistentVolumeSource)
	}
	storage := pv.Spec.Capacity["storage"]
	if pv.Annotations["pv.kubernetes.io/provisioned-by"] != "k8s-sigs.io/nfs-subdir-external-provisioner" || pv.Spec.StorageClassName != "managed-nfs-storage" ||
		pv.Spec.PersistentVolumeReclaimPolicy != api.PersistentVolumeReclaimDelete || storage.String() != "2Gi" ||
		len(pv.Spec.AccessModes) != 1 || pv.Spec.AccessModes[0] != "ReadWriteMany" {
		t.Fatalf("volume %+v %+v", pv.Annotations, pv.Spec)
	}
	out := run(t, term, "kubectl get events --field-selector involvedObject.name=data -o custom-columns=REASON:.reason,FROM:.source.component,MSG:.message --no-headers")
	for _, want := range []string{
		`Provisioning            k8s-sigs.io/nfs-subdir-external-provisioner_nfs-client-provisioner-`,
		`External provisioner is provisioning volume for claim "default/data"`,
		"ProvisioningSucceeded   k8s-sigs.io/nfs-subdir-external-provisioner_nfs-client-provisioner-",
		"Successfully provisioned volume " + pvName,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("events lack %q:\n%s", want, out)
		}
	}

	run(t, term, "kubectl delete pvc data")
	c.Advance(2 * time.Second)
	if _, err := client.Get[*api.PersistentVolume](cl, "", pvName); err == nil {
		t.Fatal("the released volume was not deleted")
	}
}

// A pod whose claim the provisioner has not bound yet waits in the
// scheduler (VolumeBinding), and is scheduled once the claim is bound.
func TestPodWaitsForItsClaim(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 3})
	c.AddDefaultNode()
	t.Cleanup(c.Close)
	term := sim.NewTerminal(c)
	run(t, term, "kubectl apply -f - <<'EOF'\n"+classAndClaim+`---
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    volumeMounts:
    - name: data
      mountPath: /usr/share/nginx/html
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
EOF
`)
	c.Advance(20 * time.Second)
	out := run(t, term, "kubectl get events --field-selector involvedObject.name=web,reason=FailedScheduling -o custom-columns=MSG:.message --no-headers")
	if want := "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."; strings.TrimSpace(out) != want {
		t.Fatalf("FailedScheduling: %q, want %q", out, want)
	}
	run(t, term, "kubectl apply -f - <<'EOF'\n"+provisioner+"EOF\n")
	c.Advance(20 * time.Second)
	p, _ := client.Get[*api.Pod](c.Client("test"), "default", "web")
	if !api.IsPodReady(p) {
		t.Fatalf("pod %s on %q, not ready", p.Status.Phase, p.Spec.NodeName)
	}
}
