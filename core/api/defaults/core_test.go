package defaults

import "testing"

func TestCoreDefaults(t *testing.T) { runCases(t, coreCases) }

var coreCases = []defaultCase{
	{
		name: "namespace: name label and phase Active",
		in: `
apiVersion: v1
kind: Namespace
metadata:
  name: demo
`,
		want: `
apiVersion: v1
kind: Namespace
metadata:
  creationTimestamp: null
  labels:
    kubernetes.io/metadata.name: demo
  name: demo
spec: {}
status:
  phase: Active
`,
	},
	{
		name: "node: allocatable from capacity",
		in: `
apiVersion: v1
kind: Node
metadata:
  name: node-1
status:
  capacity: {cpu: "2", memory: 4Gi, pods: "110"}
`,
		want: `
apiVersion: v1
kind: Node
metadata:
  creationTimestamp: null
  name: node-1
spec: {}
status:
  allocatable:
    cpu: "2"
    memory: 4Gi
    pods: "110"
  capacity:
    cpu: "2"
    memory: 4Gi
    pods: "110"
  daemonEndpoints:
    kubeletEndpoint:
      Port: 0
  nodeInfo:
    architecture: ""
    bootID: ""
    containerRuntimeVersion: ""
    kernelVersion: ""
    kubeProxyVersion: ""
    kubeletVersion: ""
    machineID: ""
    operatingSystem: ""
    osImage: ""
    systemUUID: ""
`,
	},
	{
		name: "secret: Opaque",
		in: `
apiVersion: v1
kind: Secret
metadata:
  name: s
stringData: {password: hunter2}
`,
		want: `
apiVersion: v1
kind: Secret
metadata:
  creationTimestamp: null
  name: s
stringData:
  password: hunter2
type: Opaque
`,
	},
	{
		name: "configmap: nothing",
		in: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
`,
		want: `
apiVersion: v1
kind: ConfigMap
metadata:
  creationTimestamp: null
  name: cfg
`,
	},
	{
		name: "resourcequota: quantities rounded up to milli-units",
		in: `
apiVersion: v1
kind: ResourceQuota
metadata:
  name: q
spec:
  hard: {requests.cpu: "0.5", limits.memory: 1.5Gi, pods: "10"}
`,
		want: `
apiVersion: v1
kind: ResourceQuota
metadata:
  creationTimestamp: null
  name: q
spec:
  hard:
    limits.memory: 1536Mi
    pods: "10"
    requests.cpu: 500m
status: {}
`,
	},
}
