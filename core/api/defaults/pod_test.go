package defaults

import "testing"

func TestPodDefaults(t *testing.T) { runCases(t, podCases) }

var podCases = []defaultCase{
	{
		name: "minimal pod: image without a tag pulls Always",
		in: `
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx
`,
		want: `
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  name: web
spec:
  containers:
  - image: nginx
    imagePullPolicy: Always
    name: nginx
    resources: {}
    terminationMessagePath: /dev/termination-log
    terminationMessagePolicy: File
  dnsPolicy: ClusterFirst
  enableServiceLinks: true
  restartPolicy: Always
  schedulerName: default-scheduler
  securityContext: {}
  terminationGracePeriodSeconds: 30
status: {}
`,
	},
	{
		name: "every part of a pod spec that has defaults",
		in: `
apiVersion: v1
kind: Pod
metadata:
  name: full
spec:
  hostNetwork: true
  initContainers:
  - name: init
    image: busybox:latest
    resources:
      limits: {memory: 64Mi}
  containers:
  - name: app
    image: registry.example.com:5000/team/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    ports:
    - containerPort: 8080
    - containerPort: 53
      protocol: UDP
      hostPort: 5353
    env:
    - name: POD_NAME
      valueFrom:
        fieldRef: {fieldPath: metadata.name}
    resources:
      limits: {cpu: "0.0001", memory: 1.5Gi}
      requests: {cpu: 50m}
    livenessProbe:
      httpGet: {port: 8080}
    readinessProbe:
      tcpSocket: {port: http}
      periodSeconds: 5
    startupProbe:
      grpc: {port: 9090}
    lifecycle:
      preStop:
        httpGet: {port: 8080, path: /quit}
  volumes:
  - name: scratch
  - name: cfg
    configMap: {name: cfg}
  - name: sec
    secret: {secretName: s, defaultMode: 256}
  - name: host
    hostPath: {path: /var/log}
  - name: info
    downwardAPI:
      items:
      - path: labels
        fieldRef: {fieldPath: metadata.labels}
  - name: token
    projected:
      sources:
      - serviceAccountToken: {path: token}
      - downwardAPI:
          items:
          - path: ns
            fieldRef: {fieldPath: metadata.namespace}
  - name: eph
    ephemeral:
      volumeClaimTemplate:
        spec:
          accessModes: [ReadWriteOnce]
          resources:
            requests: {storage: 1Gi}
`,
		want: `
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  name: full
spec:
  containers:
  - env:
    - name: POD_NAME
      valueFrom:
        fieldRef:
          apiVersion: v1
          fieldPath: metadata.name
    image: registry.example.com:5000/team/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    imagePullPolicy: IfNotPresent
    lifecycle:
      preStop:
        httpGet:
          path: /quit
          port: 8080
          scheme: HTTP
    livenessProbe:
      failureThreshold: 3
      httpGet:
        path: /
        port: 8080
        scheme: HTTP
      periodSeconds: 10
      successThreshold: 1
      timeoutSeconds: 1
    name: app
    ports:
    - containerPort: 8080
      hostPort: 8080
      protocol: TCP
    - containerPort: 53
      hostPort: 5353
      protocol: UDP
    readinessProbe:
      failureThreshold: 3
      periodSeconds: 5
      successThreshold: 1
      tcpSocket:
        port: http
      timeoutSeconds: 1
    resources:
      limits:
        cpu: 1m
        memory: 1536Mi
      requests:
        cpu: 50m
        memory: 1536Mi
    startupProbe:
      failureThreshold: 3
      grpc:
        port: 9090
        service: ""
      periodSeconds: 10
      successThreshold: 1
      timeoutSeconds: 1
    terminationMessagePath: /dev/termination-log
    terminationMessagePolicy: File
  dnsPolicy: ClusterFirst
  enableServiceLinks: true
  hostNetwork: true
  initContainers:
  - image: busybox:latest
    imagePullPolicy: Always
    name: init
    resources:
      limits:
        memory: 64Mi
      requests:
        memory: 64Mi
    terminationMessagePath: /dev/termination-log
    terminationMessagePolicy: File
  restartPolicy: Always
  schedulerName: default-scheduler
  securityContext: {}
  terminationGracePeriodSeconds: 30
  volumes:
  - emptyDir: {}
    name: scratch
  - configMap:
      defaultMode: 420
      name: cfg
    name: cfg
  - name: sec
    secret:
      defaultMode: 256
      secretName: s
  - hostPath:
      path: /var/log
      type: ""
    name: host
  - downwardAPI:
      defaultMode: 420
      items:
      - fieldRef:
          apiVersion: v1
          fieldPath: metadata.labels
        path: labels
    name: info
  - name: token
    projected:
      defaultMode: 420
      sources:
      - serviceAccountToken:
          expirationSeconds: 3600
          path: token
      - downwardAPI:
          items:
          - fieldRef:
              apiVersion: v1
              fieldPath: metadata.namespace
            path: ns
  - ephemeral:
      volumeClaimTemplate:
        metadata:
          creationTimestamp: null
        spec:
          accessModes:
          - ReadWriteOnce
          resources:
            requests:
              storage: 1Gi
          volumeMode: Filesystem
    name: eph
status: {}
`,
	},
	{
		name: "what the user set is kept",
		in: `
apiVersion: v1
kind: Pod
metadata:
  name: kept
spec:
  restartPolicy: Never
  dnsPolicy: Default
  schedulerName: my-scheduler
  terminationGracePeriodSeconds: 0
  enableServiceLinks: false
  securityContext: {runAsUser: 1000}
  containers:
  - name: c
    image: nginx:latest
    imagePullPolicy: Never
    terminationMessagePath: /tmp/msg
    terminationMessagePolicy: FallbackToLogsOnError
    livenessProbe:
      exec: {command: [cat, /tmp/healthy]}
      timeoutSeconds: 5
      periodSeconds: 20
      successThreshold: 1
      failureThreshold: 6
`,
		want: `
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  name: kept
spec:
  containers:
  - image: nginx:latest
    imagePullPolicy: Never
    livenessProbe:
      exec:
        command:
        - cat
        - /tmp/healthy
      failureThreshold: 6
      periodSeconds: 20
      successThreshold: 1
      timeoutSeconds: 5
    name: c
    resources: {}
    terminationMessagePath: /tmp/msg
    terminationMessagePolicy: FallbackToLogsOnError
  dnsPolicy: Default
  enableServiceLinks: false
  restartPolicy: Never
  schedulerName: my-scheduler
  securityContext:
    runAsUser: 1000
  terminationGracePeriodSeconds: 0
status: {}
`,
	},
	{
		name: "a pod template: no Pod-only defaults (requests from limits, enableServiceLinks)",
		in: `
apiVersion: v1
kind: PodTemplate
metadata:
  name: tmpl
template:
  spec:
    containers:
    - name: app
      image: app:v1
      resources:
        limits: {cpu: 500m}
`,
		want: `
apiVersion: v1
kind: PodTemplate
metadata:
  creationTimestamp: null
  name: tmpl
template:
  metadata:
    creationTimestamp: null
  spec:
    containers:
    - image: app:v1
      imagePullPolicy: IfNotPresent
      name: app
      resources:
        limits:
          cpu: 500m
      terminationMessagePath: /dev/termination-log
      terminationMessagePolicy: File
    dnsPolicy: ClusterFirst
    restartPolicy: Always
    schedulerName: default-scheduler
    securityContext: {}
    terminationGracePeriodSeconds: 30
`,
	},
}
