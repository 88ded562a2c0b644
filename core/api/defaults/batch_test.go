package defaults

import "testing"

func TestBatchDefaults(t *testing.T) { runCases(t, batchCases) }

var batchCases = []defaultCase{
	{
		name: "job: one completion, backoff 6, labels from the template, template restartPolicy Always",
		in: `
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    metadata:
      labels: {app: pi}
    spec:
      containers:
      - name: pi
        image: perl:5.34
        command: [perl, -e, print 1]
`,
		want: `
apiVersion: batch/v1
kind: Job
metadata:
  creationTimestamp: null
  labels:
    app: pi
  name: pi
spec:
  backoffLimit: 6
  completionMode: NonIndexed
  completions: 1
  parallelism: 1
  podReplacementPolicy: TerminatingOrFailed
  suspend: false
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: pi
    spec:
      containers:
      - command:
        - perl
        - -e
        - print 1
        image: perl:5.34
        imagePullPolicy: IfNotPresent
        name: pi
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
		name: "job: parallelism alone leaves completions unset",
		in: `
apiVersion: batch/v1
kind: Job
metadata:
  name: work
spec:
  parallelism: 2
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - name: w
        image: busybox:1.36
`,
		want: `
apiVersion: batch/v1
kind: Job
metadata:
  creationTimestamp: null
  name: work
spec:
  backoffLimit: 6
  completionMode: NonIndexed
  parallelism: 2
  podReplacementPolicy: TerminatingOrFailed
  suspend: false
  template:
    metadata:
      creationTimestamp: null
    spec:
      containers:
      - image: busybox:1.36
        imagePullPolicy: IfNotPresent
        name: w
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: OnFailure
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status: {}
`,
	},
	{
		name: "job: per-index backoff, pod failure policy, own labels kept",
		in: `
apiVersion: batch/v1
kind: Job
metadata:
  name: idx
  labels: {team: a}
spec:
  parallelism: 3
  completions: 3
  completionMode: Indexed
  backoffLimitPerIndex: 1
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions:
      - type: DisruptionTarget
  template:
    metadata:
      labels: {app: idx}
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox:1.36
`,
		want: `
apiVersion: batch/v1
kind: Job
metadata:
  creationTimestamp: null
  labels:
    team: a
  name: idx
spec:
  backoffLimit: 2147483647
  backoffLimitPerIndex: 1
  completionMode: Indexed
  completions: 3
  parallelism: 3
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions:
      - status: "True"
        type: DisruptionTarget
  podReplacementPolicy: Failed
  suspend: false
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: idx
    spec:
      containers:
      - image: busybox:1.36
        imagePullPolicy: IfNotPresent
        name: c
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Never
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status: {}
`,
	},
	{
		name: "cronjob: Allow, not suspended, history 3/1; the job template gets pod defaults only",
		in: `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "*/1 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: hello
            image: busybox:1.36
`,
		want: `
apiVersion: batch/v1
kind: CronJob
metadata:
  creationTimestamp: null
  name: hello
spec:
  concurrencyPolicy: Allow
  failedJobsHistoryLimit: 1
  jobTemplate:
    metadata:
      creationTimestamp: null
    spec:
      template:
        metadata:
          creationTimestamp: null
        spec:
          containers:
          - image: busybox:1.36
            imagePullPolicy: IfNotPresent
            name: hello
            resources: {}
            terminationMessagePath: /dev/termination-log
            terminationMessagePolicy: File
          dnsPolicy: ClusterFirst
          restartPolicy: OnFailure
          schedulerName: default-scheduler
          securityContext: {}
          terminationGracePeriodSeconds: 30
  schedule: '*/1 * * * *'
  successfulJobsHistoryLimit: 3
  suspend: false
status: {}
`,
	},
}
