package api

// kindTable lists every kind kubeplay serves, in discovery order (core
// first, then groups in upstream's priority order; within a group
// alphabetically). Binding, Scale and Eviction are subresource bodies.
var kindTable = []kindEntry{
	{GroupVersionKind{"", "v1", "Binding"}, func() Object { return &Binding{} }},
	{GroupVersionKind{"", "v1", "ConfigMap"}, func() Object { return &ConfigMap{} }},
	{GroupVersionKind{"", "v1", "Endpoints"}, func() Object { return &Endpoints{} }},
	{GroupVersionKind{"", "v1", "Event"}, func() Object { return &Event{} }},
	{GroupVersionKind{"", "v1", "Namespace"}, func() Object { return &Namespace{} }},
	{GroupVersionKind{"", "v1", "Node"}, func() Object { return &Node{} }},
	{GroupVersionKind{"", "v1", "PersistentVolumeClaim"}, func() Object { return &PersistentVolumeClaim{} }},
	{GroupVersionKind{"", "v1", "PersistentVolume"}, func() Object { return &PersistentVolume{} }},
	{GroupVersionKind{"", "v1", "Pod"}, func() Object { return &Pod{} }},
	{GroupVersionKind{"", "v1", "PodTemplate"}, func() Object { return &PodTemplate{} }},
	{GroupVersionKind{"", "v1", "ResourceQuota"}, func() Object { return &ResourceQuota{} }},
	{GroupVersionKind{"", "v1", "Secret"}, func() Object { return &Secret{} }},
	{GroupVersionKind{"", "v1", "ServiceAccount"}, func() Object { return &ServiceAccount{} }},
	{GroupVersionKind{"", "v1", "Service"}, func() Object { return &Service{} }},

	{GroupVersionKind{"apps", "v1", "ControllerRevision"}, func() Object { return &ControllerRevision{} }},
	{GroupVersionKind{"apps", "v1", "DaemonSet"}, func() Object { return &DaemonSet{} }},
	{GroupVersionKind{"apps", "v1", "Deployment"}, func() Object { return &Deployment{} }},
	{GroupVersionKind{"apps", "v1", "ReplicaSet"}, func() Object { return &ReplicaSet{} }},
	{GroupVersionKind{"apps", "v1", "StatefulSet"}, func() Object { return &StatefulSet{} }},

	{GroupVersionKind{"autoscaling", "v2", "HorizontalPodAutoscaler"}, func() Object { return &HorizontalPodAutoscaler{} }},
	{GroupVersionKind{"autoscaling", "v1", "HorizontalPodAutoscaler"}, func() Object { return &HorizontalPodAutoscalerV1{} }},
	{GroupVersionKind{"autoscaling", "v1", "Scale"}, func() Object { return &Scale{} }},

	{GroupVersionKind{"batch", "v1", "CronJob"}, func() Object { return &CronJob{} }},
	{GroupVersionKind{"batch", "v1", "Job"}, func() Object { return &Job{} }},

	{GroupVersionKind{"policy", "v1", "Eviction"}, func() Object { return &Eviction{} }},
	{GroupVersionKind{"policy", "v1", "PodDisruptionBudget"}, func() Object { return &PodDisruptionBudget{} }},

	{GroupVersionKind{"storage.k8s.io", "v1", "StorageClass"}, func() Object { return &StorageClass{} }},

	{GroupVersionKind{"coordination.k8s.io", "v1", "Lease"}, func() Object { return &Lease{} }},

	{GroupVersionKind{"metrics.k8s.io", "v1beta1", "NodeMetrics"}, func() Object { return &NodeMetrics{} }},
	{GroupVersionKind{"metrics.k8s.io", "v1beta1", "PodMetrics"}, func() Object { return &PodMetrics{} }},

	{GroupVersionKind{"discovery.k8s.io", "v1", "EndpointSlice"}, func() Object { return &EndpointSlice{} }},
}
