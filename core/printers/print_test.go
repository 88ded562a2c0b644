package printers

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/resource"
)

// now is the virtual clock every test prints at.
var now = time.Date(2026, 11, 22, 11, 30, 0, 0, time.UTC)

// ago is a creation time d before now.
func ago(d time.Duration) api.Time { return api.NewTime(now.Add(-d)) }

func render(t *testing.T, kind string, objs []api.Object, opts Options) string {
	t.Helper()
	var b strings.Builder
	if err := Print(&b, TableFor(kind, objs, now), opts); err != nil {
		t.Fatalf("Print: %v", err)
	}
	return b.String()
}

func checkGolden(t *testing.T, got, want string) {
	t.Helper()
	want = strings.TrimPrefix(want, "\n")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", strings.ReplaceAll(got, " ", "·"), strings.ReplaceAll(want, " ", "·"))
	}
}

func runningPod(name, ip, node string, age time.Duration) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(age)},
		Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "nginx-demo"}}},
		Status: api.PodStatus{
			Phase:      api.PodRunning,
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}},
			PodIPs:     []api.PodIP{{IP: ip}},
			ContainerStatuses: []api.ContainerStatus{{
				Name: "nginx-demo", Ready: true,
				State: api.ContainerState{Running: &api.ContainerStateRunning{}},
			}},
		},
	}
}

// From s2-scheduling.session: `kubectl get pod -o wide`.
func TestPrintPodsWideMatchesRealKubectl(t *testing.T) {
	var pods []api.Object
	for i, n := range []string{"7vrq6", "dsh7l", "dt6jf", "jq5dj", "wcnwn"} {
		ip := []string{"10.244.5.3", "10.244.5.5", "10.244.5.2", "10.244.5.4", "10.244.5.1"}[i]
		pods = append(pods, runningPod("nginx-deploy-6c7bd5b4cb-"+n, ip, "centos-7-56", 5*time.Second))
	}
	checkGolden(t, render(t, "Pod", pods, Options{Wide: true}), `
NAME                            READY   STATUS    RESTARTS   AGE   IP           NODE          NOMINATED NODE   READINESS GATES
nginx-deploy-6c7bd5b4cb-7vrq6   1/1     Running   0          5s    10.244.5.3   centos-7-56   <none>           <none>
nginx-deploy-6c7bd5b4cb-dsh7l   1/1     Running   0          5s    10.244.5.5   centos-7-56   <none>           <none>
nginx-deploy-6c7bd5b4cb-dt6jf   1/1     Running   0          5s    10.244.5.2   centos-7-56   <none>           <none>
nginx-deploy-6c7bd5b4cb-jq5dj   1/1     Running   0          5s    10.244.5.4   centos-7-56   <none>           <none>
nginx-deploy-6c7bd5b4cb-wcnwn   1/1     Running   0          5s    10.244.5.1   centos-7-56   <none>           <none>
`)
	// Without -o wide the Priority 1 columns drop out.
	checkGolden(t, render(t, "Pod", pods[:1], Options{}), `
NAME                            READY   STATUS    RESTARTS   AGE
nginx-deploy-6c7bd5b4cb-7vrq6   1/1     Running   0          5s
`)
}

func readyNode(name, role string, labels map[string]string) *api.Node {
	l := map[string]string{"node-role.kubernetes.io/" + role: ""}
	for k, v := range labels {
		l[k] = v
	}
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: l, CreationTimestamp: ago(7 * time.Second)},
		Status: api.NodeStatus{
			Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
			NodeInfo:   api.NodeSystemInfo{KubeletVersion: "v1.18.12"},
		},
	}
}

// From s2-scheduling.session: `kubectl get node -L ssd,cpu`, where empty
// label cells still pad the line.
func TestPrintLabelColumnsMatchRealKubectl(t *testing.T) {
	nodes := []api.Object{
		readyNode("centos-7-51", "master", nil),
		readyNode("centos-7-52", "master", nil),
		readyNode("centos-7-53", "master", nil),
		readyNode("centos-7-54", "worker", map[string]string{"ssd": "true", "cpu": "high"}),
		readyNode("centos-7-55", "worker", map[string]string{"ssd": "true"}),
		readyNode("centos-7-56", "worker", map[string]string{"cpu": "high"}),
	}
	checkGolden(t, render(t, "Node", nodes, Options{LabelColumns: []string{"ssd,cpu"}}), `
NAME          STATUS   ROLES    AGE   VERSION    SSD    CPU
centos-7-51   Ready    master   7s    v1.18.12          
centos-7-52   Ready    master   7s    v1.18.12          
centos-7-53   Ready    master   7s    v1.18.12          
centos-7-54   Ready    worker   7s    v1.18.12   true   high
centos-7-55   Ready    worker   7s    v1.18.12   true   
centos-7-56   Ready    worker   7s    v1.18.12          high
`)
}

// From s2-statefulset.session: `kubectl get pv -o wide`, with an empty
// REASON column.
func TestPrintPersistentVolumesWideMatchesRealKubectl(t *testing.T) {
	pv := func(name, claim string, age time.Duration) api.Object {
		fs := api.PersistentVolumeFilesystem
		return &api.PersistentVolume{
			ObjectMeta: api.ObjectMeta{Name: name, CreationTimestamp: ago(age)},
			Spec: api.PersistentVolumeSpec{
				Capacity:                      api.ResourceList{api.ResourceStorage: resource.MustParse("2Gi")},
				AccessModes:                   []string{api.ReadWriteOnce},
				PersistentVolumeReclaimPolicy: api.PersistentVolumeReclaimDelete,
				ClaimRef:                      &api.ObjectReference{Namespace: "apps", Name: claim},
				StorageClassName:              "managed-nfs-storage",
				VolumeMode:                    &fs,
			},
			Status: api.PersistentVolumeStatus{Phase: api.VolumeBound},
		}
	}
	objs := []api.Object{
		pv("pvc-b9d965eb-a435-4edd-8f7e-9630065d1e9c", "nginx-web-nginx-web-0", 11*time.Second),
		pv("pvc-f03110a8-5a0b-48a9-b270-a65b240abffa", "nginx-web-nginx-web-1", 9*time.Second),
	}
	checkGolden(t, render(t, "PersistentVolume", objs, Options{Wide: true}), `
NAME                                       CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS   CLAIM                        STORAGECLASS          VOLUMEATTRIBUTESCLASS   REASON   AGE   VOLUMEMODE
pvc-b9d965eb-a435-4edd-8f7e-9630065d1e9c   2Gi        RWO            Delete           Bound    apps/nginx-web-nginx-web-0   managed-nfs-storage   <unset>                          11s   Filesystem
pvc-f03110a8-5a0b-48a9-b270-a65b240abffa   2Gi        RWO            Delete           Bound    apps/nginx-web-nginx-web-1   managed-nfs-storage   <unset>                          9s    Filesystem
`)
}

// From s0-statefulset-daemonset-leases.session: `k get leases -A`.
func TestPrintAllNamespacesPutsNamespaceFirst(t *testing.T) {
	lease := func(ns, name, holder string, age time.Duration) api.Object {
		return &api.Lease{
			ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: ago(age)},
			Spec:       api.LeaseSpec{HolderIdentity: &holder},
		}
	}
	objs := []api.Object{
		lease("kube-node-lease", "mac-k8s", "vm_d104dc69-c20f-41a8-a943-4c8f9d825c6e", 23*time.Second),
		lease("kube-system", "kube-scheduler", "vm_a542b216-c9df-4722-8a6d-124e1e050638", 24*time.Second),
	}
	checkGolden(t, render(t, "Lease", objs, Options{WithNamespace: true}), `
NAMESPACE         NAME             HOLDER                                    AGE
kube-node-lease   mac-k8s          vm_d104dc69-c20f-41a8-a943-4c8f9d825c6e   23s
kube-system       kube-scheduler   vm_a542b216-c9df-4722-8a6d-124e1e050638   24s
`)
}

// From s1-finalizer-gc.session: `kubectl get rs,pods` names its rows by kind.
func TestPrintWithKindPrefixesNames(t *testing.T) {
	objs := []api.Object{runningPod("my-repset-snzsl", "10.244.0.1", "n", 6*time.Second)}
	checkGolden(t, render(t, "Pod", objs, Options{WithKind: "pod"}), `
NAME                  READY   STATUS    RESTARTS   AGE
pod/my-repset-snzsl   1/1     Running   0          6s
`)
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", CreationTimestamp: ago(time.Minute)}}
	checkGolden(t, render(t, "Deployment", []api.Object{d}, Options{WithKind: "deployment.apps"}), `
NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/web   0/1     0            0           60s
`)
}

// From s0-s2-jobs.session: `k get po --show-labels` puts LABELS last,
// sorted by key.
func TestPrintShowLabels(t *testing.T) {
	p := runningPod("pi-5h78g", "", "", 14*time.Second)
	p.Labels = map[string]string{"job-name": "pi", "batch.kubernetes.io/job-name": "pi"}
	bare := runningPod("bare", "", "", 14*time.Second)
	checkGolden(t, render(t, "Pod", []api.Object{p, bare}, Options{ShowLabels: true}), `
NAME       READY   STATUS    RESTARTS   AGE   LABELS
pi-5h78g   1/1     Running   0          14s   batch.kubernetes.io/job-name=pi,job-name=pi
bare       1/1     Running   0          14s   <none>
`)
}

func TestPrintLabelColumnHeaderIsLastKeySegment(t *testing.T) {
	p := runningPod("nginx-sts-0", "", "", 11*time.Second)
	p.Labels = map[string]string{"controller-revision-hash": "nginx-sts-6798d68dcd", "statefulset.kubernetes.io/pod-name": "nginx-sts-0"}
	checkGolden(t, render(t, "Pod", []api.Object{p}, Options{LabelColumns: []string{"controller-revision-hash", "statefulset.kubernetes.io/pod-name"}}), `
NAME          READY   STATUS    RESTARTS   AGE   CONTROLLER-REVISION-HASH   POD-NAME
nginx-sts-0   1/1     Running   0          11s   nginx-sts-6798d68dcd       nginx-sts-0
`)
}

func TestPrintNoHeadersAndEmptyTables(t *testing.T) {
	p := runningPod("a", "", "", time.Second)
	checkGolden(t, render(t, "Pod", []api.Object{p}, Options{NoHeaders: true}), `
a     1/1   Running   0     1s
`)
	if got := render(t, "Pod", nil, Options{}); got != "" {
		t.Errorf("empty table printed %q, want nothing", got)
	}
	if err := Print(&strings.Builder{}, nil, Options{}); err != nil {
		t.Errorf("nil table: %v", err)
	}
}

func TestPrintCellsAreCutAtLineBreaksAndEscaped(t *testing.T) {
	tbl := &Table{
		Columns: []Column{{Name: "Name"}, {Name: "Message"}},
		Rows: []Row{
			{Cells: []string{"a", "first line\nsecond line"}},
			{Cells: []string{"b", "red \x1b[31mtext"}},
			{Cells: []string{"c"}}, // short rows pad with blanks
		},
	}
	var b strings.Builder
	if err := Print(&b, tbl, Options{WithNamespace: true}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, b.String(), `
NAMESPACE   NAME   MESSAGE
            a      first line...
            b      red ^[[31mtext
            c      
`)
}

func TestTableForUnknownKindIsNameAndAge(t *testing.T) {
	b := &api.Binding{ObjectMeta: api.ObjectMeta{Name: "x", CreationTimestamp: ago(3 * time.Minute)}}
	checkGolden(t, render(t, "Binding", []api.Object{b}, Options{}), `
NAME   AGE
x      3m
`)
}

func TestTableForMismatchedObjectKeepsNameAndAge(t *testing.T) {
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg", CreationTimestamp: ago(time.Hour)}}
	tbl := TableFor("Pod", []api.Object{cm, nil}, now)
	if len(tbl.Rows) != 1 {
		t.Fatalf("rows = %d, want 1 (nil objects skipped)", len(tbl.Rows))
	}
	want := []string{"cfg", "", "", "", "60m", "", "", "", ""}
	if got := tbl.Rows[0].Cells; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("cells = %q, want %q", got, want)
	}
}

// Whatever a cell holds, Print writes one line per row plus the header.
func FuzzPrintOneLinePerRow(f *testing.F) {
	f.Add("web", "line\nbreak", "app=web", true)
	f.Add("", "\x1b[2J\r\f", "a,b", false)
	f.Add("\t\xff\xfe", "多字节", "", true)
	f.Fuzz(func(t *testing.T, name, msg, label string, wide bool) {
		p := runningPod(name, "", "", time.Second)
		p.Status.Message = msg
		p.Status.Reason = msg
		p.Labels = map[string]string{"k": label}
		var b strings.Builder
		opts := Options{Wide: wide, ShowLabels: true, WithNamespace: true, WithKind: "pod", LabelColumns: []string{label, "k"}}
		if err := Print(&b, TableFor("Pod", []api.Object{p, p}, now), opts); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "\n"); n != 3 {
			t.Fatalf("%d lines, want 3:\n%s", n, b.String())
		}
	})
}
