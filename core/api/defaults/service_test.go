package defaults

import "testing"

func TestServiceDefaults(t *testing.T) { runCases(t, serviceCases) }

var serviceCases = []defaultCase{
	{
		name: "ClusterIP: protocol, targetPort from port, affinity None, internal policy Cluster",
		in: `
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
  - name: metrics
    port: 9090
    targetPort: metrics
`,
		want: `
apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  name: web
spec:
  internalTrafficPolicy: Cluster
  ports:
  - port: 80
    protocol: TCP
    targetPort: 80
  - name: metrics
    port: 9090
    protocol: TCP
    targetPort: metrics
  selector:
    app: web
  sessionAffinity: None
  type: ClusterIP
status:
  loadBalancer: {}
`,
	},
	{
		name: "NodePort with ClientIP affinity",
		in: `
apiVersion: v1
kind: Service
metadata:
  name: np
spec:
  type: NodePort
  sessionAffinity: ClientIP
  ports:
  - port: 53
    protocol: UDP
    targetPort: 5353
`,
		want: `
apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  name: np
spec:
  externalTrafficPolicy: Cluster
  internalTrafficPolicy: Cluster
  ports:
  - port: 53
    protocol: UDP
    targetPort: 5353
  sessionAffinity: ClientIP
  sessionAffinityConfig:
    clientIP:
      timeoutSeconds: 10800
  type: NodePort
status:
  loadBalancer: {}
`,
	},
	{
		name: "LoadBalancer: node ports allocated, ingress ipMode VIP; affinity config dropped with affinity None",
		in: `
apiVersion: v1
kind: Service
metadata:
  name: lb
spec:
  type: LoadBalancer
  sessionAffinityConfig:
    clientIP: {timeoutSeconds: 60}
  ports:
  - port: 443
status:
  loadBalancer:
    ingress:
    - ip: 192.0.2.10
    - hostname: lb.example.com
`,
		want: `
apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  name: lb
spec:
  allocateLoadBalancerNodePorts: true
  externalTrafficPolicy: Cluster
  internalTrafficPolicy: Cluster
  ports:
  - port: 443
    protocol: TCP
    targetPort: 443
  sessionAffinity: None
  type: LoadBalancer
status:
  loadBalancer:
    ingress:
    - ip: 192.0.2.10
      ipMode: VIP
    - hostname: lb.example.com
`,
	},
	{
		name: "ExternalName: no traffic policies",
		in: `
apiVersion: v1
kind: Service
metadata:
  name: ext
spec:
  type: ExternalName
  externalName: example.com
`,
		want: `
apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  name: ext
spec:
  externalName: example.com
  sessionAffinity: None
  type: ExternalName
status:
  loadBalancer: {}
`,
	},
	{
		name: "ClusterIP with external IPs is externally accessible",
		in: `
apiVersion: v1
kind: Service
metadata:
  name: eip
spec:
  externalIPs: [198.51.100.7]
  ports:
  - port: 80
`,
		want: `
apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  name: eip
spec:
  externalIPs:
  - 198.51.100.7
  externalTrafficPolicy: Cluster
  internalTrafficPolicy: Cluster
  ports:
  - port: 80
    protocol: TCP
    targetPort: 80
  sessionAffinity: None
  type: ClusterIP
status:
  loadBalancer: {}
`,
	},
	{
		name: "endpoints: port protocol TCP",
		in: `
apiVersion: v1
kind: Endpoints
metadata:
  name: web
subsets:
- addresses:
  - ip: 10.244.0.5
  ports:
  - port: 80
  - port: 53
    protocol: UDP
`,
		want: `
apiVersion: v1
kind: Endpoints
metadata:
  creationTimestamp: null
  name: web
subsets:
- addresses:
  - ip: 10.244.0.5
  ports:
  - port: 80
    protocol: TCP
  - port: 53
    protocol: UDP
`,
	},
	{
		name: "endpointslice: port name and protocol",
		in: `
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: web-abc
addressType: IPv4
endpoints:
- addresses: [10.244.0.5]
ports:
- port: 80
`,
		want: `
addressType: IPv4
apiVersion: discovery.k8s.io/v1
endpoints:
- addresses:
  - 10.244.0.5
  conditions: {}
kind: EndpointSlice
metadata:
  creationTimestamp: null
  name: web-abc
ports:
- name: ""
  port: 80
  protocol: TCP
`,
	},
}
