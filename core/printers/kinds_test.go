package printers

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

func meta(name string, age time.Duration) api.ObjectMeta {
	return api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(age)}
}

func qty(s string) *resource.Quantity { q := resource.MustParse(s); return &q }

// cellsOf renders one object's row, cells joined by "|".
func cellsOf(t *testing.T, kind string, obj api.Object) string {
	t.Helper()
	tbl := TableFor(kind, []api.Object{obj}, now)
	if len(tbl.Rows) != 1 {
		t.Fatalf("%s: %d rows", kind, len(tbl.Rows))
	}
	if len(tbl.Rows[0].Cells) != len(tbl.Columns) {
		t.Fatalf("%s: %d cells for %d columns", kind, len(tbl.Rows[0].Cells), len(tbl.Columns))
	}
	return strings.Join(tbl.Rows[0].Cells, "|")
}

// headers renders a kind's column names as -o wide prints them.
func headers(kind string) string {
	var out []string
	for _, c := range TableFor(kind, nil, now).Columns {
		name := strings.ToUpper(c.Name)
		if c.Priority != 0 {
			name += "*"
		}
		out = append(out, name)
	}
	return strings.Join(out, " ")
}

// The columns are upstream's, wide ones (marked *) included.
func TestColumnsPerKind(t *testing.T) {
	for kind, want := range map[string]string{
		"Pod":                     "NAME READY STATUS RESTARTS AGE IP* NODE* NOMINATED NODE* READINESS GATES*",
		"PodTemplate":             "NAME CONTAINERS IMAGES POD LABELS",
		"Namespace":               "NAME STATUS AGE",
		"Node":                    "NAME STATUS ROLES AGE VERSION INTERNAL-IP* EXTERNAL-IP* OS-IMAGE* KERNEL-VERSION* CONTAINER-RUNTIME*",
		"Service":                 "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE SELECTOR*",
		"Endpoints":               "NAME ENDPOINTS AGE",
		"EndpointSlice":           "NAME ADDRESSTYPE PORTS ENDPOINTS AGE",
		"ConfigMap":               "NAME DATA AGE",
		"Secret":                  "NAME TYPE DATA AGE",
		"ServiceAccount":          "NAME SECRETS AGE",
		"Event":                   "LAST SEEN TYPE REASON OBJECT SUBOBJECT* SOURCE* MESSAGE FIRST SEEN* COUNT* NAME*",
		"ResourceQuota":           "NAME AGE REQUEST LIMIT",
		"PersistentVolume":        "NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE VOLUMEMODE*",
		"PersistentVolumeClaim":   "NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE VOLUMEMODE*",
		"StorageClass":            "NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE",
		"ReplicaSet":              "NAME DESIRED CURRENT READY AGE CONTAINERS* IMAGES* SELECTOR*",
		"Deployment":              "NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS* IMAGES* SELECTOR*",
		"StatefulSet":             "NAME READY AGE CONTAINERS* IMAGES*",
		"DaemonSet":               "NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE CONTAINERS* IMAGES* SELECTOR*",
		"ControllerRevision":      "NAME CONTROLLER REVISION AGE",
		"Job":                     "NAME STATUS COMPLETIONS DURATION AGE CONTAINERS* IMAGES* SELECTOR*",
		"CronJob":                 "NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE CONTAINERS* IMAGES* SELECTOR*",
		"HorizontalPodAutoscaler": "NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE",
		"Lease":                   "NAME HOLDER AGE",
		"PodDisruptionBudget":     "NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE",
		"Binding":                 "NAME AGE",
		"Scale":                   "NAME AGE",
	} {
		if got := headers(kind); got != want {
			t.Errorf("%s columns:\n got %s\nwant %s", kind, got, want)
		}
	}
	// Every kind core/api serves is printable; those without a handler
	// fall back to NAME, AGE.
	for _, gvk := range api.Kinds() {
		if len(TableFor(gvk.Kind, nil, now).Columns) == 0 {
			t.Errorf("%s has no columns", gvk.Kind)
		}
	}
	if headers("deployment") != headers("Deployment") {
		t.Error("kind lookup should ignore case")
	}
}

func TestNodeCells(t *testing.T) {
	n := &api.Node{ObjectMeta: meta("n1", time.Hour)}
	n.Namespace = ""
	if got, want := cellsOf(t, "Node", n), "n1|Unknown|<none>|60m||<none>|<none>|<unknown>|<unknown>|<unknown>"; got != want {
		t.Errorf("new node:\n got %s\nwant %s", got, want)
	}
	n.Labels = map[string]string{
		"node-role.kubernetes.io/worker":        "",
		"node-role.kubernetes.io/control-plane": "",
		"kubernetes.io/role":                    "master",
		"node-role.kubernetes.io/":              "", // no role name: ignored
	}
	n.Spec.Unschedulable = true
	n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}
	n.Status.Addresses = []api.NodeAddress{{Type: api.NodeHostName, Address: "n1"}, {Type: api.NodeInternalIP, Address: "172.18.0.2"}, {Type: api.NodeExternalIP, Address: "1.2.3.4"}}
	n.Status.NodeInfo = api.NodeSystemInfo{KubeletVersion: "v1.32.4", OSImage: "Debian GNU/Linux 12", KernelVersion: "6.1.0", ContainerRuntimeVersion: "containerd://1.7.24"}
	if got, want := cellsOf(t, "Node", n), "n1|NotReady,SchedulingDisabled|control-plane,master,worker|60m|v1.32.4|172.18.0.2|1.2.3.4|Debian GNU/Linux 12|6.1.0|containerd://1.7.24"; got != want {
		t.Errorf("cordoned node:\n got %s\nwant %s", got, want)
	}
	n.Status.Conditions[0].Status = api.ConditionTrue
	n.Spec.Unschedulable = false
	if got := strings.Split(cellsOf(t, "Node", n), "|")[1]; got != "Ready" {
		t.Errorf("STATUS = %q, want Ready", got)
	}
}

func TestServiceCells(t *testing.T) {
	svc := func(typ string, mut func(*api.Service)) *api.Service {
		s := &api.Service{ObjectMeta: meta("web", 5*time.Second)}
		s.Spec.Type = typ
		s.Spec.ClusterIP = "10.96.0.10"
		s.Spec.ClusterIPs = []string{"10.96.0.10"}
		s.Spec.Ports = []api.ServicePort{{Port: 80, Protocol: api.ProtocolTCP}}
		s.Spec.Selector = map[string]string{"app": "web"}
		if mut != nil {
			mut(s)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		svc  *api.Service
		want string
	}{
		{"cluster IP", svc(api.ServiceTypeClusterIP, nil), "web|ClusterIP|10.96.0.10|<none>|80/TCP|5s|app=web"},
		{"headless, no selector", svc(api.ServiceTypeClusterIP, func(s *api.Service) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs, s.Spec.Selector = "None", []string{"None"}, nil
		}), "web|ClusterIP|None|<none>|80/TCP|5s|<none>"},
		{"only clusterIP set", svc(api.ServiceTypeClusterIP, func(s *api.Service) { s.Spec.ClusterIPs = nil }),
			"web|ClusterIP|10.96.0.10|<none>|80/TCP|5s|app=web"},
		{"external IPs", svc(api.ServiceTypeClusterIP, func(s *api.Service) { s.Spec.ExternalIPs = []string{"1.1.1.1", "2.2.2.2"} }),
			"web|ClusterIP|10.96.0.10|1.1.1.1,2.2.2.2|80/TCP|5s|app=web"},
		{"node ports", svc(api.ServiceTypeNodePort, func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Port: 80, NodePort: 30080, Protocol: "TCP"}, {Port: 53, NodePort: 30053, Protocol: "UDP"}}
		}), "web|NodePort|10.96.0.10|<none>|80:30080/TCP,53:30053/UDP|5s|app=web"},
		{"load balancer pending", svc(api.ServiceTypeLoadBalancer, nil), "web|LoadBalancer|10.96.0.10|<pending>|80/TCP|5s|app=web"},
		{"load balancer ready", svc(api.ServiceTypeLoadBalancer, func(s *api.Service) {
			s.Status.LoadBalancer.Ingress = []api.LoadBalancerIngress{{IP: "203.0.113.9"}, {Hostname: "lb.example.com"}, {IP: "203.0.113.1"}}
			s.Spec.ExternalIPs = []string{"1.1.1.1"}
		}), "web|LoadBalancer|10.96.0.10|203.0.113.1,203.0.113.9,lb.example.com,1.1.1.1|80/TCP|5s|app=web"},
		{"external name", svc(api.ServiceTypeExternalName, func(s *api.Service) {
			s.Spec.ExternalName, s.Spec.ClusterIP, s.Spec.ClusterIPs, s.Spec.Ports = "db.example.com", "", nil, nil
		}), "web|ExternalName|<none>|db.example.com|<none>|5s|app=web"},
	} {
		if got := cellsOf(t, "Service", tc.svc); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestEndpointsCells(t *testing.T) {
	addrs := func(ips ...string) []api.EndpointAddress {
		var out []api.EndpointAddress
		for _, ip := range ips {
			out = append(out, api.EndpointAddress{IP: ip})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		subsets []api.EndpointSubset
		want    string
	}{
		{"no subsets", nil, "<none>"},
		{"two pods", []api.EndpointSubset{{Addresses: addrs("10.244.0.5", "10.244.0.6"), Ports: []api.EndpointPort{{Port: 80}}}},
			"10.244.0.5:80,10.244.0.6:80"},
		{"four pods", []api.EndpointSubset{{Addresses: addrs("10.244.0.5", "10.244.0.6", "10.244.0.7", "10.244.0.8"), Ports: []api.EndpointPort{{Port: 80}}}},
			"10.244.0.5:80,10.244.0.6:80,10.244.0.7:80 + 1 more..."},
		{"two ports each", []api.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2"), Ports: []api.EndpointPort{{Port: 80}, {Port: 443}}}},
			"10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more..."},
		{"headless without ports", []api.EndpointSubset{{Addresses: addrs("10.0.0.1")}}, "10.0.0.1"},
		{"IPv6", []api.EndpointSubset{{Addresses: addrs("fd00::1"), Ports: []api.EndpointPort{{Port: 80}}}}, "[fd00::1]:80"},
		{"only not-ready addresses", []api.EndpointSubset{{NotReadyAddresses: addrs("10.0.0.1"), Ports: []api.EndpointPort{{Port: 80}}}}, ""},
	} {
		ep := &api.Endpoints{ObjectMeta: meta("web", time.Minute), Subsets: tc.subsets}
		if got := strings.Split(cellsOf(t, "Endpoints", ep), "|")[1]; got != tc.want {
			t.Errorf("%s: ENDPOINTS = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestEndpointSliceCells(t *testing.T) {
	p80, name := int32(80), "http"
	es := &api.EndpointSlice{ObjectMeta: meta("web-abc12", time.Minute), AddressType: api.AddressTypeIPv4}
	if got, want := cellsOf(t, "EndpointSlice", es), "web-abc12|IPv4|<unset>|<unset>|60s"; got != want {
		t.Errorf("empty slice: %s, want %s", got, want)
	}
	es.Ports = []api.EndpointSlicePort{{Port: &p80}, {Name: &name}, {}, {Port: &p80}}
	for _, ip := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5"} {
		es.Endpoints = append(es.Endpoints, api.Endpoint{Addresses: []string{ip}})
	}
	if got, want := cellsOf(t, "EndpointSlice", es), "web-abc12|IPv4|80,http,* + 1 more...|10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...|60s"; got != want {
		t.Errorf("full slice:\n got %s\nwant %s", got, want)
	}
}

func TestSimpleCoreKindCells(t *testing.T) {
	ns := &api.Namespace{ObjectMeta: meta("demo", 4*time.Second), Status: api.NamespaceStatus{Phase: api.NamespaceTerminating}}
	cm := &api.ConfigMap{ObjectMeta: meta("cfg", time.Minute), Data: map[string]string{"a": "1", "b": "2"}, BinaryData: map[string][]byte{"c": nil}}
	sec := &api.Secret{ObjectMeta: meta("s", time.Minute), Type: api.SecretTypeOpaque,
		Data: map[string][]byte{"a": []byte("x")}, StringData: map[string]string{"a": "x", "b": "y"}}
	sa := &api.ServiceAccount{ObjectMeta: meta("default", 2*time.Hour)}
	holder := "node01"
	lease := &api.Lease{ObjectMeta: meta("node01", 30*time.Second), Spec: api.LeaseSpec{HolderIdentity: &holder}}
	noHolder := &api.Lease{ObjectMeta: meta("free", 30*time.Second)}
	minAvail := intstr.FromInt(2)
	maxUnavail := intstr.FromString("25%")
	pdb := &api.PodDisruptionBudget{ObjectMeta: meta("web", time.Minute), Spec: api.PodDisruptionBudgetSpec{MinAvailable: &minAvail},
		Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: 1}}
	pdb2 := &api.PodDisruptionBudget{ObjectMeta: meta("db", time.Minute), Spec: api.PodDisruptionBudgetSpec{MaxUnavailable: &maxUnavail}}
	quota := &api.ResourceQuota{ObjectMeta: meta("compute", time.Minute), Status: api.ResourceQuotaStatus{
		Hard: api.ResourceList{"pods": resource.MustParse("3"), "requests.cpu": resource.MustParse("2"), "limits.memory": resource.MustParse("2Gi"), "limits.cpu": resource.MustParse("4")},
		Used: api.ResourceList{"pods": resource.MustParse("3"), "requests.cpu": resource.MustParse("500m"), "limits.cpu": resource.MustParse("1")},
	}}
	for _, tc := range []struct {
		kind string
		obj  api.Object
		want string
	}{
		{"Namespace", ns, "demo|Terminating|4s"},
		{"ConfigMap", cm, "cfg|3|60s"},
		{"Secret", sec, "s|Opaque|2|60s"},
		{"ServiceAccount", sa, "default|0|120m"},
		{"Lease", lease, "node01|node01|30s"},
		{"Lease", noHolder, "free||30s"},
		{"PodDisruptionBudget", pdb, "web|2|N/A|1|60s"},
		{"PodDisruptionBudget", pdb2, "db|N/A|25%|0|60s"},
		{"ResourceQuota", quota, "compute|60s|pods: 3/3, requests.cpu: 500m/2|limits.cpu: 1/4, limits.memory: 0/2Gi"},
	} {
		if got := cellsOf(t, tc.kind, tc.obj); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.kind, got, tc.want)
		}
	}
}

func TestEventCells(t *testing.T) {
	core := &api.Event{
		ObjectMeta:     meta("web-1.17f3a", 10*time.Minute),
		InvolvedObject: api.ObjectReference{Kind: "Pod", Name: "web-1", FieldPath: "spec.containers{nginx}"},
		Reason:         "BackOff", Type: api.EventTypeWarning,
		Message:        "Back-off restarting failed container nginx in pod web-1_default(uid)\n",
		Source:         api.EventSource{Component: "kubelet", Host: "node01"},
		FirstTimestamp: ago(10 * time.Minute), LastTimestamp: ago(30 * time.Second), Count: 4,
	}
	if got, want := cellsOf(t, "Event", core),
		"30s|Warning|BackOff|pod/web-1|spec.containers{nginx}|kubelet, node01|Back-off restarting failed container nginx in pod web-1_default(uid)|10m|4|web-1.17f3a"; got != want {
		t.Errorf("core event:\n got %s\nwant %s", got, want)
	}
	// events.k8s.io events: eventTime and series, reporting controller as source.
	newAPI := &api.Event{
		ObjectMeta:          meta("sched.1", time.Minute),
		InvolvedObject:      api.ObjectReference{Kind: "Pod", Name: "web-2"},
		Reason:              "FailedScheduling",
		Type:                api.EventTypeWarning,
		Message:             "0/3 nodes are available",
		EventTime:           api.NewMicroTime(now.Add(-5 * time.Minute)),
		ReportingController: "default-scheduler",
	}
	if got, want := cellsOf(t, "Event", newAPI), "5m|Warning|FailedScheduling|pod/web-2||default-scheduler|0/3 nodes are available|5m|1|sched.1"; got != want {
		t.Errorf("singleton event:\n got %s\nwant %s", got, want)
	}
	newAPI.Series = &api.EventSeries{Count: 7, LastObservedTime: api.NewMicroTime(now.Add(-20 * time.Second))}
	newAPI.ReportingInstance = "default-scheduler-cp"
	if got, want := cellsOf(t, "Event", newAPI), "20s|Warning|FailedScheduling|pod/web-2||default-scheduler, default-scheduler-cp|0/3 nodes are available|5m|7|sched.1"; got != want {
		t.Errorf("series event:\n got %s\nwant %s", got, want)
	}
	noName := &api.Event{ObjectMeta: meta("x", time.Minute), InvolvedObject: api.ObjectReference{Kind: "Node"}}
	if got, want := cellsOf(t, "Event", noName), "<unknown>|||node||||<unknown>|1|x"; got != want {
		t.Errorf("bare event:\n got %s\nwant %s", got, want)
	}
}

func TestStorageCells(t *testing.T) {
	sc := "standard"
	fs := api.PersistentVolumeFilesystem
	pending := &api.PersistentVolumeClaim{ObjectMeta: meta("data", time.Minute)}
	pending.Spec.StorageClassName = &sc
	pending.Spec.AccessModes = []string{api.ReadWriteOnce}
	pending.Spec.Resources.Requests = api.ResourceList{api.ResourceStorage: resource.MustParse("1Gi")}
	pending.Status.Phase = api.ClaimPending
	if got, want := cellsOf(t, "PersistentVolumeClaim", pending), "data|Pending||||standard|<unset>|60s|<unset>"; got != want {
		t.Errorf("pending claim:\n got %s\nwant %s", got, want)
	}
	bound := pending.DeepCopyObject().(*api.PersistentVolumeClaim)
	bound.Spec.VolumeName = "pv-1"
	bound.Spec.VolumeMode = &fs
	bound.Status.Phase = api.ClaimBound
	bound.Status.AccessModes = []string{api.ReadWriteMany, api.ReadWriteOnce, api.ReadWriteOnce, api.ReadWriteOncePod, api.ReadOnlyMany}
	bound.Status.Capacity = api.ResourceList{api.ResourceStorage: resource.MustParse("2Gi")}
	bound.DeletionTimestamp = api.NewTimePtr(now)
	if got, want := cellsOf(t, "PersistentVolumeClaim", bound), "data|Terminating|pv-1|2Gi|RWO,ROX,RWX,RWOP|standard|<unset>|60s|Filesystem"; got != want {
		t.Errorf("bound claim:\n got %s\nwant %s", got, want)
	}
	beta := pending.DeepCopyObject().(*api.PersistentVolumeClaim)
	beta.Annotations = map[string]string{api.BetaStorageClassAnnotation: "slow"}
	if got := strings.Split(cellsOf(t, "PersistentVolumeClaim", beta), "|")[5]; got != "slow" {
		t.Errorf("beta annotation class = %q, want slow", got)
	}

	vac := "gold"
	pv := &api.PersistentVolume{ObjectMeta: meta("pv-1", time.Hour)}
	pv.Namespace = ""
	pv.Spec.PersistentVolumeReclaimPolicy = api.PersistentVolumeReclaimRetain
	pv.Spec.VolumeAttributesClassName = &vac
	pv.Status.Phase = api.VolumeReleased
	pv.Status.Reason = "Failed"
	if got, want := cellsOf(t, "PersistentVolume", pv), "pv-1|0||Retain|Released|||gold|Failed|60m|<unset>"; got != want {
		t.Errorf("bare volume:\n got %s\nwant %s", got, want)
	}

	def := &api.StorageClass{ObjectMeta: meta("standard", time.Hour), Provisioner: "rancher.io/local-path"}
	def.Annotations = map[string]string{api.IsDefaultStorageClassAnnotation: "true"}
	if got, want := cellsOf(t, "StorageClass", def), "standard (default)|rancher.io/local-path|Delete|Immediate|False|60m"; got != want {
		t.Errorf("default class:\n got %s\nwant %s", got, want)
	}
	retain, wait, yes := api.PersistentVolumeReclaimRetain, api.VolumeBindingWaitForFirstConsumer, true
	other := &api.StorageClass{ObjectMeta: meta("nfs", time.Hour), Provisioner: "nfs", ReclaimPolicy: &retain, VolumeBindingMode: &wait, AllowVolumeExpansion: &yes}
	other.Annotations = map[string]string{api.BetaIsDefaultStorageClassAnnotation: "false"}
	if got, want := cellsOf(t, "StorageClass", other), "nfs|nfs|Retain|WaitForFirstConsumer|True|60m"; got != want {
		t.Errorf("other class:\n got %s\nwant %s", got, want)
	}
}

func template(containers ...string) api.PodTemplateSpec {
	var t api.PodTemplateSpec
	for _, c := range containers {
		name, image, _ := strings.Cut(c, "=")
		t.Spec.Containers = append(t.Spec.Containers, api.Container{Name: name, Image: image})
	}
	return t
}

func TestAppsCells(t *testing.T) {
	five, three := int32(5), int32(3)
	sel := &api.LabelSelector{MatchLabels: map[string]string{"tier": "slb", "app": "nginx"}}

	rs := &api.ReplicaSet{ObjectMeta: meta("nginx-deploy-57c4d5584d", 11*time.Second)}
	rs.Spec = api.ReplicaSetSpec{Replicas: &five, Selector: sel, Template: template("nginx-pod=harbor.od.com/public/nginx:v1.12")}
	rs.Status = api.ReplicaSetStatus{Replicas: 5, ReadyReplicas: 4}

	d := &api.Deployment{ObjectMeta: meta("nginx-deploy", 11*time.Second)}
	d.Spec = api.DeploymentSpec{Replicas: &five, Selector: sel, Template: template("a=nginx", "b=busybox")}
	d.Status = api.DeploymentStatus{ReadyReplicas: 5, UpdatedReplicas: 5, AvailableReplicas: 5}
	noSel := &api.Deployment{ObjectMeta: meta("bare", time.Second)}

	sts := &api.StatefulSet{ObjectMeta: meta("nginx-sts", 5*time.Second)}
	sts.Spec = api.StatefulSetSpec{Replicas: &three, Template: template("nginx=nginx")}
	sts.Status.ReadyReplicas = 1

	ds := &api.DaemonSet{ObjectMeta: meta("nginx-ds", 5*time.Second)}
	ds.Spec = api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}}, Template: template("nginx=nginx")}
	ds.Status = api.DaemonSetStatus{DesiredNumberScheduled: 1, CurrentNumberScheduled: 1, NumberReady: 1, UpdatedNumberScheduled: 1, NumberAvailable: 1}
	dsSel := ds.DeepCopyObject().(*api.DaemonSet)
	dsSel.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd", "kubernetes.io/os": "linux"}

	yes := true
	cr := &api.ControllerRevision{ObjectMeta: meta("nginx-ds-5869d7778c", 6*time.Second), Revision: 1}
	cr.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "nginx-ds", Controller: &yes}}
	coreOwned := &api.ControllerRevision{ObjectMeta: meta("x", time.Second), Revision: 12}
	coreOwned.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "p", Controller: &yes}}
	orphan := &api.ControllerRevision{ObjectMeta: meta("y", time.Second), Revision: 2}

	for _, tc := range []struct {
		kind string
		obj  api.Object
		want string
	}{
		// From s2-deployment-rollouts.session.
		{"ReplicaSet", rs, "nginx-deploy-57c4d5584d|5|5|4|11s|nginx-pod|harbor.od.com/public/nginx:v1.12|app=nginx,tier=slb"},
		{"Deployment", d, "nginx-deploy|5/5|5|5|11s|a,b|nginx,busybox|app=nginx,tier=slb"},
		{"Deployment", noSel, "bare|0/1|0|0|1s|||"},
		{"StatefulSet", sts, "nginx-sts|1/3|5s|nginx|nginx"},
		// From s0-statefulset-daemonset-leases.session.
		{"DaemonSet", ds, "nginx-ds|1|1|1|1|1|<none>|5s|nginx|nginx|app=nginx"},
		{"DaemonSet", dsSel, "nginx-ds|1|1|1|1|1|disk=ssd,kubernetes.io/os=linux|5s|nginx|nginx|app=nginx"},
		{"ControllerRevision", cr, "nginx-ds-5869d7778c|daemonset.apps/nginx-ds|1|6s"},
		{"ControllerRevision", coreOwned, "x|pod/p|12|1s"},
		{"ControllerRevision", orphan, "y|<none>|2|1s"},
	} {
		if got := cellsOf(t, tc.kind, tc.obj); got != tc.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.kind, tc.obj.GetObjectMeta().Name, got, tc.want)
		}
	}
}

func TestBatchCells(t *testing.T) {
	five, three := int32(5), int32(3)
	uidSel := &api.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/controller-uid": "e1323ee4"}}
	job := func(name string, mut func(*api.Job)) *api.Job {
		j := &api.Job{ObjectMeta: meta(name, 15*time.Second)}
		j.Spec.Selector = uidSel
		j.Spec.Template = template("pi=perl")
		mut(j)
		return j
	}
	cond := func(t string) api.JobCondition { return api.JobCondition{Type: t, Status: api.ConditionTrue} }
	for _, tc := range []struct {
		name string
		job  *api.Job
		want string
	}{
		// From s0-s2-jobs.session: `k get job -owide`.
		{"complete", job("pi", func(j *api.Job) {
			j.Spec.Completions = &five
			j.Status = api.JobStatus{Succeeded: 5, StartTime: api.NewTimePtr(now.Add(-15 * time.Second)), CompletionTime: api.NewTimePtr(now.Add(-10 * time.Second)),
				Conditions: []api.JobCondition{cond(api.JobSuccessCriteriaMet), cond(api.JobComplete)}}
		}), "pi|Complete|5/5|5s|15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"running, duration so far", job("r", func(j *api.Job) {
			j.Status = api.JobStatus{Active: 1, StartTime: api.NewTimePtr(now.Add(-150 * time.Second))}
		}), "r|Running|0/1|2m30s|15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"not started, parallel", job("p", func(j *api.Job) { j.Spec.Parallelism = &three }),
			"p|Running|0/1 of 3||15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"failed", job("f", func(j *api.Job) {
			j.Status.Conditions = []api.JobCondition{cond(api.JobFailureTarget), cond(api.JobFailed)}
		}), "f|Failed|0/1||15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"failure pending", job("ft", func(j *api.Job) {
			j.Status.Conditions = []api.JobCondition{cond(api.JobFailureTarget)}
		}), "ft|FailureTarget|0/1||15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"suspended", job("s", func(j *api.Job) {
			j.Status.Conditions = []api.JobCondition{cond(api.JobSuspended)}
		}), "s|Suspended|0/1||15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"deleting a suspended job", job("d", func(j *api.Job) {
			j.DeletionTimestamp = api.NewTimePtr(now)
			j.Status.Conditions = []api.JobCondition{cond(api.JobSuspended)}
		}), "d|Terminating|0/1||15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
		{"condition no longer true", job("c", func(j *api.Job) {
			j.Status.Conditions = []api.JobCondition{{Type: api.JobSuspended, Status: api.ConditionFalse}}
		}), "c|Running|0/1||15s|pi|perl|batch.kubernetes.io/controller-uid=e1323ee4"},
	} {
		if got := cellsOf(t, "Job", tc.job); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}

	no := false
	tz := "Asia/Shanghai"
	cj := &api.CronJob{ObjectMeta: meta("hello", 250*time.Second)}
	cj.Spec = api.CronJobSpec{Schedule: "*/1 * * * *", Suspend: &no}
	cj.Spec.JobTemplate.Spec.Template = template("hello=busybox")
	// From s0-s2-jobs.session: `kubectl get cronjob -o wide`.
	if got, want := cellsOf(t, "CronJob", cj), "hello|*/1 * * * *|<none>|False|0|<none>|4m10s|hello|busybox|<none>"; got != want {
		t.Errorf("new cronjob:\n got %s\nwant %s", got, want)
	}
	cj.Spec.TimeZone = &tz
	cj.Spec.Suspend = nil
	cj.Status.LastScheduleTime = api.NewTimePtr(now.Add(-11 * time.Second))
	cj.Status.Active = []api.ObjectReference{{Name: "hello-1"}}
	if got, want := cellsOf(t, "CronJob", cj), "hello|*/1 * * * *|Asia/Shanghai|<unset>|1|11s|4m10s|hello|busybox|<none>"; got != want {
		t.Errorf("scheduled cronjob:\n got %s\nwant %s", got, want)
	}
}

func TestHPACells(t *testing.T) {
	ten, eighty, fifty := int32(10), int32(80), int32(50)
	cpu := func(target *int32) api.MetricSpec {
		return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: target}}}
	}
	h := &api.HorizontalPodAutoscaler{ObjectMeta: meta("app-deployment", 20*time.Second)}
	h.Spec = api.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: api.CrossVersionObjectReference{Kind: "Deployment", Name: "app-deployment", APIVersion: "apps/v1"},
		MinReplicas:    &ten, MaxReplicas: 15, Metrics: []api.MetricSpec{cpu(&eighty)},
	}
	h.Status.CurrentReplicas = 5
	// From s3-deployment-update-history.session: no metrics yet.
	if got, want := cellsOf(t, "HorizontalPodAutoscaler", h), "app-deployment|Deployment/app-deployment|cpu: <unknown>/80%|10|15|5|20s"; got != want {
		t.Errorf("no metrics:\n got %s\nwant %s", got, want)
	}

	v1 := &api.HorizontalPodAutoscalerV1{ObjectMeta: meta("app", time.Minute)}
	v1.Spec = api.HorizontalPodAutoscalerSpecV1{ScaleTargetRef: h.Spec.ScaleTargetRef, MaxReplicas: 4, TargetCPUUtilizationPercentage: &eighty}
	v1.Status = api.HorizontalPodAutoscalerStatusV1{CurrentReplicas: 2, CurrentCPUUtilizationPercentage: &fifty}
	if got, want := cellsOf(t, "HorizontalPodAutoscaler", v1), "app|Deployment/app-deployment|cpu: 50%/80%|<unset>|4|2|60s"; got != want {
		t.Errorf("v1 object:\n got %s\nwant %s", got, want)
	}
	v1.Annotations = map[string]string{api.HPAConditionsAnnotation: "not json"}
	if got, want := cellsOf(t, "HorizontalPodAutoscaler", v1), "app|Deployment/app-deployment|cpu: 50%/80%|<unset>|4|2|60s"; got != want {
		t.Errorf("v1 object with a bad annotation:\n got %s\nwant %s", got, want)
	}

	for _, tc := range []struct {
		name     string
		specs    []api.MetricSpec
		statuses []api.MetricStatus
		want     string
	}{
		{"no metrics", nil, nil, "<none>"},
		{"utilization measured", []api.MetricSpec{cpu(&eighty)},
			[]api.MetricStatus{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: "cpu", Current: api.MetricValueStatus{AverageUtilization: &fifty}}}},
			"cpu: 50%/80%"},
		{"no utilization target", []api.MetricSpec{cpu(nil)}, nil, "cpu: <unknown>/<auto>"},
		{"average value", []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: "memory",
			Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: qty("200Mi")}}}},
			[]api.MetricStatus{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: "memory", Current: api.MetricValueStatus{AverageValue: qty("100Mi")}}}},
			"memory: 100Mi/200Mi"},
		{"container resource", []api.MetricSpec{{Type: api.ContainerResourceMetricSourceType, ContainerResource: &api.ContainerResourceMetricSource{Name: "cpu", Container: "app",
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: &fifty}}}}, nil, "cpu: <unknown>/50%"},
		{"pods metric", []api.MetricSpec{{Type: api.PodsMetricSourceType, Pods: &api.PodsMetricSource{Metric: api.MetricIdentifier{Name: "qps"},
			Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: qty("1k")}}}},
			[]api.MetricStatus{{Type: api.PodsMetricSourceType, Pods: &api.PodsMetricStatus{Current: api.MetricValueStatus{AverageValue: qty("500")}}}},
			"500/1k"},
		{"object metric by value and average", []api.MetricSpec{
			{Type: api.ObjectMetricSourceType, Object: &api.ObjectMetricSource{Target: api.MetricTarget{Type: api.ValueMetricType, Value: qty("10")}}},
			{Type: api.ObjectMetricSourceType, Object: &api.ObjectMetricSource{Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: qty("5")}}},
		}, nil, "<unknown>/10, <unknown>/5 (avg)"},
		{"external metrics, more than two", []api.MetricSpec{
			{Type: api.ExternalMetricSourceType, External: &api.ExternalMetricSource{Target: api.MetricTarget{Type: api.ValueMetricType, Value: qty("3")}}},
			{Type: api.ExternalMetricSourceType, External: &api.ExternalMetricSource{Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: qty("4")}}},
			cpu(&eighty),
		}, []api.MetricStatus{{Type: api.ExternalMetricSourceType, External: &api.ExternalMetricStatus{Current: api.MetricValueStatus{Value: qty("1")}}}},
			"1/3, <unknown>/4 (avg) + 1 more..."},
		{"unknown or incomplete sources", []api.MetricSpec{{Type: "Magic"}, {Type: api.PodsMetricSourceType}}, nil, "<unknown type>, <unknown type>"},
	} {
		if got := hpaTargets(tc.specs, tc.statuses); got != tc.want {
			t.Errorf("%s: TARGETS = %q, want %q", tc.name, got, tc.want)
		}
	}
}
