package sim

import (
	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

// kubeadm's addons: CoreDNS (a Deployment behind the kube-dns Service at
// 10.96.0.10) and kube-proxy (a DaemonSet on every node), with their
// ConfigMaps and service accounts, as `kubeadm init` v1.32 creates them.

const corefile = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`

func (c *Cluster) installAddons() {
	cl := c.Client("kubeadm")
	k8sApp := func(v string) map[string]string { return map[string]string{"k8s-app": v} }
	mustCreate(cl, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "coredns", Namespace: "kube-system"}})
	mustCreate(cl, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "kube-proxy", Namespace: "kube-system"}})
	mustCreate(cl, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "coredns", Namespace: "kube-system"}, Data: map[string]string{"Corefile": corefile}})
	mustCreate(cl, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "kube-proxy", Namespace: "kube-system", Labels: map[string]string{"app": "kube-proxy"}},
		Data: map[string]string{"config.conf": "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nclusterCIDR: 10.244.0.0/16\nmode: iptables\n",
			"kubeconfig.conf": "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://kubeplay-control-plane:6443\n  name: default\n"}})

	udp, tcp := api.Protocol("UDP"), api.Protocol("TCP")
	mustCreate(cl, &api.Service{
		ObjectMeta: api.ObjectMeta{Name: "kube-dns", Namespace: "kube-system",
			Labels:      map[string]string{"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"},
			Annotations: map[string]string{"prometheus.io/port": "9153", "prometheus.io/scrape": "true"}},
		Spec: api.ServiceSpec{ClusterIP: "10.96.0.10", Selector: k8sApp("kube-dns"), Ports: []api.ServicePort{
			{Name: "dns", Port: 53, Protocol: udp, TargetPort: intstr.FromInt(53)},
			{Name: "dns-tcp", Port: 53, Protocol: tcp, TargetPort: intstr.FromInt(53)},
			{Name: "metrics", Port: 9153, Protocol: tcp, TargetPort: intstr.FromInt(9153)},
		}},
	})

	two := int32(2)
	maxUnavailable := intstr.FromInt(1)
	readOnly := true
	mustCreate(cl, &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "coredns", Namespace: "kube-system", Labels: k8sApp("kube-dns")},
		Spec: api.DeploymentSpec{
			Replicas: &two,
			Selector: &api.LabelSelector{MatchLabels: k8sApp("kube-dns")},
			Strategy: api.DeploymentStrategy{Type: "RollingUpdate", RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: &maxUnavailable}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: k8sApp("kube-dns")},
				Spec: api.PodSpec{
					PriorityClassName:  "system-cluster-critical",
					ServiceAccountName: "coredns",
					DNSPolicy:          api.DNSDefault,
					NodeSelector:       map[string]string{"kubernetes.io/os": "linux"},
					Affinity: &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{
						Weight: 100, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname",
							LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "k8s-app", Operator: "In", Values: []string{"kube-dns"}}}}},
					}}}},
					Tolerations: []api.Toleration{
						{Key: "CriticalAddonsOnly", Operator: api.TolerationOpExists},
						{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule},
					},
					Containers: []api.Container{{
						Name: "coredns", Image: "registry.k8s.io/coredns/coredns:v1.11.3", ImagePullPolicy: api.PullIfNotPresent,
						Args: []string{"-conf", "/etc/coredns/Corefile"},
						Resources: api.ResourceRequirements{
							Limits:   api.ResourceList{"memory": resource.MustParse("170Mi")},
							Requests: api.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("70Mi")},
						},
						VolumeMounts: []api.VolumeMount{{Name: "config-volume", MountPath: "/etc/coredns", ReadOnly: readOnly}},
						Ports: []api.ContainerPort{
							{Name: "dns", ContainerPort: 53, Protocol: udp},
							{Name: "dns-tcp", ContainerPort: 53, Protocol: tcp},
							{Name: "metrics", ContainerPort: 9153, Protocol: tcp},
						},
						LivenessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/health", Port: intstr.FromInt(8080), Scheme: "HTTP"}},
							InitialDelaySeconds: 60, TimeoutSeconds: 5, SuccessThreshold: 1, FailureThreshold: 5},
						ReadinessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/ready", Port: intstr.FromInt(8181), Scheme: "HTTP"}}},
					}},
					Volumes: []api.Volume{{Name: "config-volume", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{
						LocalObjectReference: api.LocalObjectReference{Name: "coredns"}, Items: []api.KeyToPath{{Key: "Corefile", Path: "Corefile"}}}}}},
				},
			},
		},
	})

	fileOrCreate := api.HostPathType("FileOrCreate")
	mustCreate(cl, &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "kube-proxy", Namespace: "kube-system", Labels: k8sApp("kube-proxy")},
		Spec: api.DaemonSetSpec{
			Selector:       &api.LabelSelector{MatchLabels: k8sApp("kube-proxy")},
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: "RollingUpdate", RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &maxUnavailable}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: k8sApp("kube-proxy")},
				Spec: api.PodSpec{
					PriorityClassName:  "system-node-critical",
					ServiceAccountName: "kube-proxy",
					HostNetwork:        true,
					NodeSelector:       map[string]string{"kubernetes.io/os": "linux"},
					Tolerations:        []api.Toleration{{Operator: api.TolerationOpExists}},
					Containers: []api.Container{{
						Name: "kube-proxy", Image: "registry.k8s.io/kube-proxy:v1.32.4", ImagePullPolicy: api.PullIfNotPresent,
						Command: []string{"/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf", "--hostname-override=$(NODE_NAME)"},
						Env:     []api.EnvVar{{Name: "NODE_NAME", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.nodeName"}}}},
						VolumeMounts: []api.VolumeMount{
							{Name: "kube-proxy", MountPath: "/var/lib/kube-proxy"},
							{Name: "xtables-lock", MountPath: "/run/xtables.lock"},
							{Name: "lib-modules", MountPath: "/lib/modules", ReadOnly: true},
						},
					}},
					Volumes: []api.Volume{
						{Name: "kube-proxy", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{LocalObjectReference: api.LocalObjectReference{Name: "kube-proxy"}}}},
						{Name: "xtables-lock", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/run/xtables.lock", Type: &fileOrCreate}}},
						{Name: "lib-modules", VolumeSource: api.VolumeSource{HostPath: &api.HostPathVolumeSource{Path: "/lib/modules"}}},
					},
				},
			},
		},
	})
}
