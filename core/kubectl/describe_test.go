package kubectl_test

import (
	"regexp"
	"strings"
	"testing"

	"kubeplay/core/sim"
)

// describeSession is a one-node cluster and a terminal on it.
type describeSession struct {
	t    *testing.T
	term *sim.Terminal
}

func newDescribeSession(t *testing.T) *describeSession {
	t.Helper()
	c := sim.NewDefault(sim.Options{Seed: 1})
	t.Cleanup(c.Close)
	c.AddDefaultNode()
	return &describeSession{t: t, term: sim.NewTerminal(c)}
}

func (s *describeSession) run(script string) string { return s.term.Run(script) }

// expect fails unless script prints want once generated names are masked.
func (s *describeSession) expect(script, want string) {
	s.t.Helper()
	if got := maskGenerated(s.run(script)); got != want {
		s.t.Errorf("$ %s\ngot:\n%s\nwant:\n%s", script, got, want)
	}
}

// expectLines fails unless every want line appears, in order, in what
// script prints.
func (s *describeSession) expectLines(script string, want ...string) {
	s.t.Helper()
	got := maskGenerated(s.run(script))
	rest := got
	for _, w := range want {
		i := strings.Index(rest, w+"\n")
		if i < 0 {
			s.t.Errorf("$ %s\nmissing (in order) %q in:\n%s", script, w, got)
			return
		}
		rest = rest[i+len(w):]
	}
}

var apiAccessVolume = regexp.MustCompile(`kube-api-access-[a-z0-9]{5}`)

// maskGenerated hides the service account volume's random suffix.
func maskGenerated(s string) string {
	return apiAccessVolume.ReplaceAllString(s, "kube-api-access-XXXXX")
}

// fullPod uses every part of a pod spec describe prints. It is bound to a
// node that does not exist, so no kubelet gives it a status.
const fullPod = `kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: full
  labels: {app: full, tier: web}
  annotations: {note: hello}
spec:
  nodeName: ghost
  nodeSelector: {disk: ssd}
  tolerations:
  - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
  - operator: Exists
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}
  initContainers:
  - name: init
    image: busybox
    command: ["sh", "-c", "echo start"]
  containers:
  - name: app
    image: nginx:1.27
    command: ["/bin/sh", "-c"]
    args:
    - |-
      echo one
      echo two
    ports:
    - containerPort: 80
    - {containerPort: 53, hostPort: 5353, protocol: UDP}
    resources:
      limits: {cpu: 500m, memory: 128Mi}
      requests: {cpu: 250m, memory: 64Mi}
    livenessProbe:
      exec: {command: ["cat", "/tmp/healthy"]}
      initialDelaySeconds: 5
      periodSeconds: 5
    readinessProbe:
      httpGet: {path: /ready, port: 8443, scheme: HTTPS, host: example.com}
    startupProbe:
      tcpSocket: {port: http}
      failureThreshold: 30
    envFrom:
    - configMapRef: {name: settings}
      prefix: CFG_
    - secretRef: {name: creds, optional: true}
    env:
    - {name: PLAIN, value: plain value}
    - name: MULTI
      value: |-
        line one
        line two
    - name: POD_NAME
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: POD_IP
      valueFrom: {fieldRef: {fieldPath: status.podIP}}
    - name: MEM_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}
    - name: CPU_REQ
      valueFrom: {resourceFieldRef: {resource: requests.cpu, divisor: 1m}}
    - name: PASSWORD
      valueFrom: {secretKeyRef: {name: creds, key: password, optional: true}}
    - name: LEVEL
      valueFrom: {configMapKeyRef: {name: settings, key: level}}
    volumeMounts:
    - {name: cache, mountPath: /cache}
    - {name: config, mountPath: /etc/app/app.conf, subPath: app.conf, readOnly: true}
    - {name: data, mountPath: /data}
  volumes:
  - name: cache
    emptyDir: {medium: Memory, sizeLimit: 1Gi}
  - name: host
    hostPath: {path: /var/log, type: Directory}
  - name: config
    configMap: {name: settings}
  - name: secret
    secret: {secretName: creds, optional: true}
  - name: data
    persistentVolumeClaim: {claimName: data-claim}
  - name: info
    downwardAPI:
      items:
      - path: labels
        fieldRef: {fieldPath: metadata.labels}
      - path: cpu
        resourceFieldRef: {containerName: app, resource: limits.cpu}
  - name: nfs
    nfs: {server: nfs.example.com, path: /exports}
EOF`

func TestDescribePodPrintsItsSpecAsKubectlDoes(t *testing.T) {
	s := newDescribeSession(t)
	s.run(fullPod)
	s.expect("kubectl describe pod full", `Name:             full
Namespace:        default
Priority:         0
Service Account:  default
Node:             ghost/
Labels:           app=full
                  tier=web
Annotations:      note: hello
Status:           Pending
IP:               
IPs:              <none>
Init Containers:
  init:
    Image:      busybox
    Port:       <none>
    Host Port:  <none>
    Command:
      sh
      -c
      echo start
    Environment:  <none>
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-XXXXX (ro)
Containers:
  app:
    Image:       nginx:1.27
    Ports:       80/TCP, 53/UDP
    Host Ports:  0/TCP, 5353/UDP
    Command:
      /bin/sh
      -c
    Args:
      echo one
      echo two
    Limits:
      cpu:     500m
      memory:  128Mi
    Requests:
      cpu:      250m
      memory:   64Mi
    Liveness:   exec [cat /tmp/healthy] delay=5s timeout=1s period=5s #success=1 #failure=3
    Readiness:  http-get https://example.com:8443/ready delay=0s timeout=1s period=10s #success=1 #failure=3
    Startup:    tcp-socket :http delay=0s timeout=1s period=10s #success=1 #failure=30
    Environment Variables from:
      settings  ConfigMap with prefix 'CFG_'  Optional: false
      creds     Secret                        Optional: true
    Environment:
      PLAIN:      plain value
      MULTI:      line one
                  line two
      POD_NAME:   full (v1:metadata.name)
      POD_IP:      (v1:status.podIP)
      MEM_LIMIT:  128 (limits.memory)
      CPU_REQ:    250 (requests.cpu)
      PASSWORD:   <set to the key 'password' in secret 'creds'>      Optional: true
      LEVEL:      <set to the key 'level' of config map 'settings'>  Optional: false
    Mounts:
      /cache from cache (rw)
      /data from data (rw)
      /etc/app/app.conf from config (ro,path="app.conf")
      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-XXXXX (ro)
Volumes:
  cache:
    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)
    Medium:     Memory
    SizeLimit:  1Gi
  host:
    Type:          HostPath (bare host directory volume)
    Path:          /var/log
    HostPathType:  Directory
  config:
    Type:      ConfigMap (a volume populated by a ConfigMap)
    Name:      settings
    Optional:  false
  secret:
    Type:        Secret (a volume populated by a Secret)
    SecretName:  creds
    Optional:    true
  data:
    Type:       PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)
    ClaimName:  data-claim
    ReadOnly:   false
  info:
    Type:  DownwardAPI (a volume populated by information about the pod)
    Items:
      metadata.labels -> labels
      limits.cpu -> cpu
  nfs:
    Type:      NFS (an NFS mount that lasts the lifetime of a pod)
    Server:    nfs.example.com
    Path:      /exports
    ReadOnly:  false
  kube-api-access-XXXXX:
    Type:                    Projected (a volume that contains injected data from multiple sources)
    TokenExpirationSeconds:  3607
    ConfigMapName:           kube-root-ca.crt
    ConfigMapOptional:       <nil>
    DownwardAPI:             true
QoS Class:                   Burstable
Node-Selectors:              disk=ssd
Tolerations:                 op=Exists
                             dedicated=web:NoSchedule
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 60s
Events:                      <none>
`)
}

func TestDescribePodShowsRunningStateIPsAndEvents(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl run web --image=nginx")
	s.run("sleep 30")
	// The pod IP under IPs: aligns with Controlled By, as upstream's
	// tabwriter does it.
	s.expectLines("kubectl describe pod web",
		"Node:             node01/172.18.0.2",
		"Start Time:       Sun, 22 Nov 2026 11:29:00 +0000",
		"Labels:           run=web",
		"Status:           Running",
		"IP:               10.244.0.2",
		"IPs:",
		"  IP:  10.244.0.2",
		"Containers:",
		"  web:",
		"    Image:          nginx",
		"    State:          Running",
		"      Started:      Sun, 22 Nov 2026 11:29:04 +0000",
		"    Ready:          True",
		"    Restart Count:  0",
		"Conditions:",
		"  Type                        Status",
		"  Ready                       True ",
		"Events:",
		"  Type    Reason     Age   From               Message",
		"  ----    ------     ----  ----               -------",
		"  Normal  Scheduled  30s   default-scheduler  Successfully assigned default/web to node01",
		`  Normal  Pulling    29s   kubelet            Pulling image "nginx"`,
	)
}

func TestDescribePodShowsLastTerminationAndRepeatedEvents(t *testing.T) {
	s := newDescribeSession(t)
	s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: crash
spec:
  containers:
  - name: main
    image: busybox
    command: ["sh", "-c", "exit 3"]
EOF`)
	s.run("sleep 60")
	out := s.run("kubectl describe pod crash")
	for _, re := range []string{
		`(?m)^    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    3\n      Started:      Sun, 22 Nov 2026 11:\d\d:\d\d \+0000\n      Finished:     Sun, 22 Nov 2026 11:\d\d:\d\d \+0000\n    Ready:          False\n    Restart Count:  [1-9]\n`,
		`(?m)^  Warning  BackOff    \d+s \(x\d+ over \d+s\)  kubelet            Back-off restarting failed container main in pod crash_default\(`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("no match for %s in:\n%s", re, out)
		}
	}
}

func TestDescribeTerminatingPodShowsGracePeriod(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl run sleeper --image=busybox -- sleep 3600")
	s.run("sleep 10")
	s.run("kubectl delete pod sleeper --wait=false")
	s.run("sleep 3")
	// The deletion timestamp lies in the future, which upstream's age
	// rounding calls <invalid>.
	s.expectLines("kubectl describe pod sleeper",
		"Status:                    Terminating (lasts <invalid>)",
		"Termination Grace Period:  30s",
	)
}

func TestDescribeDeploymentShowsStrategyTemplateAndReplicaSets(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl create deployment web --image=nginx --replicas=2")
	s.run("sleep 30")
	s.run("kubectl set image deployment/web nginx=nginx:1.27")
	s.run("sleep 30")
	got := s.run("kubectl describe deployment web")
	hash := regexp.MustCompile(`web-[a-z0-9]+`)
	want := `Name:                   web
Namespace:              default
CreationTimestamp:      Sun, 22 Nov 2026 11:29:00 +0000
Labels:                 app=web
Annotations:            deployment.kubernetes.io/revision: 2
Selector:               app=web
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=web
  Containers:
   nginx:
    Image:         nginx:1.27
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  web-RS (0/0 replicas created)
NewReplicaSet:   web-RS (2/2 replicas created)
Events:
  Type    Reason             Age   From                   Message
  ----    ------             ----  ----                   -------
  Normal  ScalingReplicaSet  60s   deployment-controller  Scaled up replica set web-RS from 0 to 2
`
	if g := hash.ReplaceAllString(got, "web-RS"); !strings.HasPrefix(g, want) {
		t.Errorf("got:\n%s\nwant it to start with:\n%s", g, want)
	}
}

func TestDescribeNodeShowsLeaseCapacityAndPodShares(t *testing.T) {
	s := newDescribeSession(t)
	s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: hungry
spec:
  containers:
  - name: main
    image: nginx
    resources:
      requests: {cpu: 500m, memory: 256Mi}
      limits: {cpu: "1", memory: 512Mi}
EOF`)
	s.run("sleep 10")
	out := s.run("kubectl describe node node01")
	for _, re := range []string{
		`(?m)^Name:               node01\nRoles:              <none>\nLabels:             beta.kubernetes.io/arch=amd64\n`,
		`(?m)^CreationTimestamp:  Sun, 22 Nov 2026 11:29:00 \+0000\nTaints:             <none>\nUnschedulable:      false\nLease:\n  HolderIdentity:  node01\n  AcquireTime:     <unset>\n  RenewTime:       Sun, 22 Nov 2026 11:29:\d\d \+0000\nConditions:\n  Type  +Status  LastHeartbeatTime  +LastTransitionTime  +Reason  +Message\n`,
		`(?m)^Addresses:\n  InternalIP:  172.18.0.2\n`,
		`(?m)^Capacity:\n  cpu:  +2\n`,
		`(?m)^System Info:\n  Machine ID:  +\S+\n`,
		`(?m)^Non-terminated Pods:  +\(\d+ in total\)\n  Namespace  +Name  +CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n  ---------  +----  +------------  ----------  ---------------  -------------  ---\n`,
		`(?m)^  default  +hungry  +500m \(25%\)  +1 \(50%\)  +256Mi \(3%\)  +512Mi \(6%\)  +10s\n`,
		`(?m)^Allocated resources:\n  \(Total limits may be over 100 percent, i\.e\., overcommitted\.\)\n  Resource  +Requests  +Limits\n  --------  +--------  +------\n  cpu  +\d+m \(\d+%\)  +\S+ \(\d+%\)\n  memory  +\S+ \(\d+%\)  +\S+ \(\d+%\)\n  ephemeral-storage  +0 \(0%\)  +0 \(0%\)\n`,
		`(?m)^Events:\n  Type    Reason  +Age   From  +Message\n`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("no match for %s in:\n%s", re, out)
		}
	}
}

func TestDescribeServiceListsReadyEndpointsPerPort(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl create deployment web --image=nginx --replicas=4")
	s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: web
  labels: {app: web}
spec:
  ipFamilyPolicy: SingleStack
  ipFamilies: [IPv4]
  selector: {app: web}
  ports:
  - {port: 80, targetPort: 8080}
EOF`)
	s.run("sleep 30")
	out := s.run("kubectl describe service web")
	want := regexp.MustCompile(`(?m)^Name:                     web
Namespace:                default
Labels:                   app=web
Annotations:              <none>
Selector:                 app=web
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       (10\.\d+\.\d+\.\d+)
IPs:                      (10\.\d+\.\d+\.\d+)
Port:                     <unset>  80/TCP
TargetPort:               8080/TCP
Endpoints:                10\.244\.0\.\d+:8080,10\.244\.0\.\d+:8080,10\.244\.0\.\d+:8080 \+ 1 more\.\.\.
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>
$`)
	if !want.MatchString(out) {
		t.Errorf("got:\n%s", out)
	}
}

func TestDescribeConfigMapSecretAndNamespace(t *testing.T) {
	s := newDescribeSession(t)
	s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: debug
  motd: |-
    hello
    world
EOF`)
	s.expect("kubectl describe configmap settings", `Name:         settings
Namespace:    default
Labels:       <none>
Annotations:  <none>

Data
====
level:
----
debug

motd:
----
hello
world


BinaryData
====

Events:  <none>
`)
	s.run("kubectl create secret generic creds --from-literal=password=s3cret --from-literal=user=admin")
	// A secret's values are never shown, and it has no Events section.
	s.expect("kubectl describe secret creds", `Name:         creds
Namespace:    default
Labels:       <none>
Annotations:  <none>

Type:  Opaque

Data
====
password:  6 bytes
user:      5 bytes
`)
	s.expect("kubectl describe namespace default", `Name:         default
Labels:       kubernetes.io/metadata.name=default
Annotations:  <none>
Status:       Active

No resource quota.
`)
	s.expect("kubectl describe serviceaccount default", `Name:                default
Namespace:           default
Labels:              <none>
Annotations:         <none>
Image pull secrets:  <none>
Mountable secrets:   <none>
Tokens:              <none>
Events:              <none>
`)
}

func TestDescribeJobAndCronJob(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl create job once --image=busybox -- true")
	s.run("sleep 20")
	s.expectLines("kubectl describe job once",
		"Parallelism:      1",
		"Completions:      1",
		"Completion Mode:  NonIndexed",
		"Suspend:          false",
		"Backoff Limit:    6",
		"Start Time:       Sun, 22 Nov 2026 11:29:00 +0000",
		"Pods Statuses:    0 Active (0 Ready) / 1 Succeeded / 0 Failed",
		"Pod Template:",
		"    Command:",
		"      true",
		"  Normal  Completed         18s   job-controller  Job completed",
	)
	s.run("kubectl create cronjob tick --image=busybox --schedule='*/5 * * * *' -- true")
	s.expect("kubectl describe cronjob tick", `Name:                          tick
Namespace:                     default
Labels:                        <none>
Annotations:                   <none>
Schedule:                      */5 * * * *
Concurrency Policy:            Allow
Suspend:                       False
Successful Job History Limit:  3
Failed Job History Limit:      1
Starting Deadline Seconds:     <unset>
Selector:                      <unset>
Parallelism:                   <unset>
Completions:                   <unset>
Pod Template:
  Labels:  <none>
  Containers:
   tick:
    Image:      busybox
    Port:       <none>
    Host Port:  <none>
    Command:
      true
    Environment:     <none>
    Mounts:          <none>
  Volumes:           <none>
  Node-Selectors:    <none>
  Tolerations:       <none>
Last Schedule Time:  <unset>
Active Jobs:         <none>
Events:              <none>
`)
}

func TestDescribeStatefulSetClaimsAndVolumes(t *testing.T) {
	s := newDescribeSession(t)
	s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv1
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: manual
  hostPath: {path: /mnt/data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: claim1
spec:
  storageClassName: manual
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: nginx}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 2Gi}}
EOF`)
	s.run("sleep 20")
	s.expect("kubectl describe pv pv1", `Name:            pv1
Labels:          <none>
Annotations:     pv.kubernetes.io/bound-by-controller: yes
Finalizers:      [kubernetes.io/pv-protection]
StorageClass:    manual
Status:          Bound
Claim:           default/claim1
Reclaim Policy:  Retain
Access Modes:    RWO
VolumeMode:      Filesystem
Capacity:        1Gi
Node Affinity:   <none>
Message:         
Source:
    Type:          HostPath (bare host directory volume)
    Path:          /mnt/data
    HostPathType:  
Events:            <none>
`)
	s.expect("kubectl describe pvc claim1", `Name:          claim1
Namespace:     default
StorageClass:  manual
Status:        Bound
Volume:        pv1
Labels:        <none>
Annotations:   pv.kubernetes.io/bind-completed: yes
               pv.kubernetes.io/bound-by-controller: yes
Finalizers:    [kubernetes.io/pvc-protection]
Capacity:      1Gi
Access Modes:  RWO
VolumeMode:    Filesystem
Used By:       <none>
Events:        <none>
`)
	s.expectLines("kubectl describe statefulset db",
		"Replicas:           1 desired | 1 total",
		"Update Strategy:    RollingUpdate",
		"  Partition:        0",
		"Volume Claims:",
		"  Name:          data",
		"  StorageClass:  ",
		"  Labels:        <none>",
		"  Annotations:   <none>",
		"  Capacity:      2Gi",
		"  Access Modes:  [ReadWriteOnce]",
	)
	s.expectLines("kubectl describe pvc data-db-0", "Used By:       db-0")
}

func TestDescribeHorizontalPodAutoscalerMetrics(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl create deployment web --image=nginx")
	s.run("kubectl autoscale deployment web --min=2 --max=5 --cpu-percent=80")
	s.expectLines("kubectl describe hpa web",
		"Reference:                                             Deployment/web",
		"Metrics:                                               ( current / target )",
		"  resource cpu on pods  (as a percentage of request):  <unknown> / 80%",
		"Min replicas:                                          2",
		"Max replicas:                                          5",
	)
}

// Kinds without a describer of their own print every field of the object.
func TestDescribeLeaseUsesTheGenericDescriber(t *testing.T) {
	s := newDescribeSession(t)
	s.run(`kubectl apply -f - <<EOF
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: leader
  labels: {app: demo}
spec:
  holderIdentity: pod-1
  leaseDurationSeconds: 15
EOF`)
	out := regexp.MustCompile(`[0-9a-f-]{36}|Resource Version: +\d+`).ReplaceAllString(s.run("kubectl describe lease leader"), "X")
	want := `Name:         leader
Namespace:    default
Labels:       app=demo
Annotations:  <none>
API Version:  coordination.k8s.io/v1
Kind:         Lease
Metadata:
  Creation Timestamp:  2026-11-22T11:29:00Z
  X
  UID:                 X
Spec:
  Holder Identity:         pod-1
  Lease Duration Seconds:  15
Events:                    <none>
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestDescribeArgumentsAndErrorsAsUpstream(t *testing.T) {
	s := newDescribeSession(t)
	s.run("kubectl create configmap alpha --from-literal=k=v")
	s.run("kubectl create configmap alphabet --from-literal=k=v")
	for _, c := range []struct{ cmd, want string }{
		{"kubectl describe", "error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n"},
		{"kubectl describe pod nope", "Error from server (NotFound): pods \"nope\" not found\n"},
		{"kubectl describe pod/nope", "Error from server (NotFound): pods \"nope\" not found\n"},
		{"kubectl describe nosuchkind x", "error: the server doesn't have a resource type \"nosuchkind\"\n"},
		{"kubectl describe pods x -l app=web", "error: name cannot be provided when a selector is specified\n"},
		{"kubectl describe pod/x -l app=web", "error: selectors and the all flag cannot be used when passing resource/name arguments\n"},
		{"kubectl describe pods", "No resources found in default namespace.\n"},
		{"kubectl describe pods -n kube-public", "No resources found in kube-public namespace.\n"},
		{"kubectl describe pods -A -l app=none", "No resources found\n"},
		{"kubectl describe cm zzz", "Error from server (NotFound): configmaps \"zzz\" not found\n"},
		{"kubectl describe pod x -A", "error: a resource cannot be retrieved by name across all namespaces\n"},
		// Two TYPE/NAME arguments with one missing take upstream's prefix
		// path, which describes neither.
		{"kubectl describe cm/alpha cm/nope", "Error from server (NotFound): configmaps \"nope\" not found\n"},
		{"kubectl describe cm,secret nope", "Error from server (NotFound): configmaps \"nope\" not found\nError from server (NotFound): secrets \"nope\" not found\n"},
	} {
		if got := s.run(c.cmd); got != c.want {
			t.Errorf("$ %s\ngot:  %q\nwant: %q", c.cmd, got, c.want)
		}
	}
	one := s.run("kubectl describe cm alpha --show-events=false")
	// A name that matches nothing exactly describes every object it
	// prefixes, each followed by a blank line.
	if got, want := s.run("kubectl describe cm alph --show-events=false"), one+"\n"+strings.Replace(one, "alpha", "alphabet", 1)+"\n"; got != want {
		t.Errorf("prefix match:\ngot:\n%s\nwant:\n%s", got, want)
	}
	// Several objects are separated by two blank lines; a missing one is
	// reported after the others are described.
	both := s.run("kubectl describe cm alpha nope alphabet --show-events=false")
	if want := one + "\n\n" + strings.Replace(one, "alpha", "alphabet", 1) + "Error from server (NotFound): configmaps \"nope\" not found\n"; both != want {
		t.Errorf("several:\ngot:\n%s\nwant:\n%s", both, want)
	}
	// -f describes the live objects its manifests name.
	fromFile := s.run(`kubectl describe --show-events=false -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: alpha
EOF`)
	if fromFile != one {
		t.Errorf("-f:\ngot:\n%s\nwant:\n%s", fromFile, one)
	}
	if strings.Contains(one, "Events:") {
		t.Errorf("--show-events=false still printed events:\n%s", one)
	}
}
