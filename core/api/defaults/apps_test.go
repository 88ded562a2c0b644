package defaults

import "testing"

func TestAppsDefaults(t *testing.T) { runCases(t, appsCases) }

var appsCases = []defaultCase{
	{
		name: "deployment: replicas, RollingUpdate 25%/25%, history and deadline",
		in: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  name: web
spec:
  progressDeadlineSeconds: 600
  replicas: 1
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: web
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.25
        imagePullPolicy: IfNotPresent
        name: nginx
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status: {}
`,
	},
	{
		name: "deployment: Recreate gets no rollingUpdate",
		in: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  replicas: 3
  strategy: {type: Recreate}
  selector:
    matchLabels: {app: d}
  template:
    metadata:
      labels: {app: d}
    spec:
      containers:
      - name: c
        image: nginx:1.25
`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  name: d
spec:
  progressDeadlineSeconds: 600
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: d
  strategy:
    type: Recreate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: d
    spec:
      containers:
      - image: nginx:1.25
        imagePullPolicy: IfNotPresent
        name: c
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status: {}
`,
	},
	{
		name: "deployment: a partial rollingUpdate is completed",
		in: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  strategy:
    rollingUpdate: {maxSurge: 1}
  selector:
    matchLabels: {app: d}
  template:
    metadata:
      labels: {app: d}
    spec:
      containers:
      - name: c
        image: nginx:1.25
`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  creationTimestamp: null
  name: d
spec:
  progressDeadlineSeconds: 600
  replicas: 1
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: d
  strategy:
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: d
    spec:
      containers:
      - image: nginx:1.25
        imagePullPolicy: IfNotPresent
        name: c
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status: {}
`,
	},
	{
		name: "replicaset: replicas 1; object labels are not copied from the template",
		in: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: rs
spec:
  selector:
    matchLabels: {app: rs}
  template:
    metadata:
      labels: {app: rs}
    spec:
      containers:
      - name: c
        image: nginx:latest
`,
		want: `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  creationTimestamp: null
  name: rs
spec:
  replicas: 1
  selector:
    matchLabels:
      app: rs
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: rs
    spec:
      containers:
      - image: nginx:latest
        imagePullPolicy: Always
        name: c
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status:
  replicas: 0
`,
	},
	{
		name: "statefulset: policies, partition 0, retention Retain/Retain, claim templates",
		in: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests: {storage: 1Gi}
`,
		want: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  creationTimestamp: null
  name: web
spec:
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Retain
    whenScaled: Retain
  podManagementPolicy: OrderedReady
  replicas: 1
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: web
  serviceName: web
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.25
        imagePullPolicy: IfNotPresent
        name: nginx
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
  updateStrategy:
    rollingUpdate:
      partition: 0
    type: RollingUpdate
  volumeClaimTemplates:
  - metadata:
      creationTimestamp: null
      name: www
    spec:
      accessModes:
      - ReadWriteOnce
      resources:
        requests:
          storage: 1Gi
      volumeMode: Filesystem
    status:
      phase: Pending
status:
  availableReplicas: 0
  replicas: 0
`,
	},
	{
		name: "statefulset: OnDelete has no partition; a half-set retention policy is completed",
		in: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  replicas: 3
  podManagementPolicy: Parallel
  updateStrategy: {type: OnDelete}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`,
		want: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  creationTimestamp: null
  name: web
spec:
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Delete
    whenScaled: Retain
  podManagementPolicy: Parallel
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: web
  serviceName: web
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.25
        imagePullPolicy: IfNotPresent
        name: nginx
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
  updateStrategy:
    type: OnDelete
status:
  availableReplicas: 0
  replicas: 0
`,
	},
	{
		name: "statefulset: RollingUpdate written without a rollingUpdate block keeps none",
		in: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: web
  updateStrategy: {type: RollingUpdate}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`,
		want: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  creationTimestamp: null
  name: web
spec:
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Retain
    whenScaled: Retain
  podManagementPolicy: OrderedReady
  replicas: 1
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: web
  serviceName: web
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.25
        imagePullPolicy: IfNotPresent
        name: nginx
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
  updateStrategy:
    type: RollingUpdate
status:
  availableReplicas: 0
  replicas: 0
`,
	},
	{
		name: "daemonset: RollingUpdate maxUnavailable 1 maxSurge 0",
		in: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: agent:1
`,
		want: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  creationTimestamp: null
  name: agent
spec:
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: agent
    spec:
      containers:
      - image: agent:1
        imagePullPolicy: IfNotPresent
        name: agent
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
  updateStrategy:
    rollingUpdate:
      maxSurge: 0
      maxUnavailable: 1
    type: RollingUpdate
status:
  currentNumberScheduled: 0
  desiredNumberScheduled: 0
  numberMisscheduled: 0
  numberReady: 0
`,
	},
	{
		name: "daemonset: OnDelete",
		in: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  updateStrategy: {type: OnDelete}
  revisionHistoryLimit: 2
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: agent:1
`,
		want: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  creationTimestamp: null
  name: agent
spec:
  revisionHistoryLimit: 2
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: agent
    spec:
      containers:
      - image: agent:1
        imagePullPolicy: IfNotPresent
        name: agent
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
  updateStrategy:
    type: OnDelete
status:
  currentNumberScheduled: 0
  desiredNumberScheduled: 0
  numberMisscheduled: 0
  numberReady: 0
`,
	},
}
