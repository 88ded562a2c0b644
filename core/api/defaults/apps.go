package defaults

import (
	"kubeplay/core/api"
	"kubeplay/core/api/intstr"
)

// apps/v1 no longer copies template labels onto the object or selector
// (extensions/v1beta1 did); only Jobs still do that.

func defaultReplicaSet(rs *api.ReplicaSet) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptr[int32](1)
	}
	defaultPodTemplateSpec(&rs.Spec.Template)
}

func defaultDeployment(d *api.Deployment) {
	spec := &d.Spec
	if spec.Replicas == nil {
		spec.Replicas = ptr[int32](1)
	}
	s := &spec.Strategy
	if s.Type == "" {
		s.Type = api.RollingUpdateDeploymentStrategyType
	}
	if s.Type == api.RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptr(intstr.FromString("25%"))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptr(intstr.FromString("25%"))
		}
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptr[int32](10)
	}
	if spec.ProgressDeadlineSeconds == nil {
		spec.ProgressDeadlineSeconds = ptr[int32](600)
	}
	defaultPodTemplateSpec(&spec.Template)
}

func defaultStatefulSet(ss *api.StatefulSet) {
	spec := &ss.Spec
	if spec.PodManagementPolicy == "" {
		spec.PodManagementPolicy = api.OrderedReadyPodManagement
	}
	u := &spec.UpdateStrategy
	if u.Type == "" {
		u.Type = api.RollingUpdateStatefulSetStrategyType
		if u.RollingUpdate == nil {
			u.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{}
		}
	}
	// An explicit RollingUpdate without a rollingUpdate block stays without
	// one, as upstream leaves it.
	if u.Type == api.RollingUpdateStatefulSetStrategyType && u.RollingUpdate != nil && u.RollingUpdate.Partition == nil {
		u.RollingUpdate.Partition = ptr[int32](0)
	}
	// StatefulSetAutoDeletePVC is on by default in v1.32.
	if spec.PersistentVolumeClaimRetentionPolicy == nil {
		spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = api.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = api.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if spec.Replicas == nil {
		spec.Replicas = ptr[int32](1)
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptr[int32](10)
	}
	defaultPodTemplateSpec(&spec.Template)
	for i := range spec.VolumeClaimTemplates {
		defaultPersistentVolumeClaim(&spec.VolumeClaimTemplates[i])
	}
}

func defaultDaemonSet(ds *api.DaemonSet) {
	spec := &ds.Spec
	u := &spec.UpdateStrategy
	if u.Type == "" {
		u.Type = api.RollingUpdateDaemonSetStrategyType
	}
	if u.Type == api.RollingUpdateDaemonSetStrategyType {
		if u.RollingUpdate == nil {
			u.RollingUpdate = &api.RollingUpdateDaemonSet{}
		}
		if u.RollingUpdate.MaxUnavailable == nil {
			u.RollingUpdate.MaxUnavailable = ptr(intstr.FromInt(1))
		}
		if u.RollingUpdate.MaxSurge == nil {
			u.RollingUpdate.MaxSurge = ptr(intstr.FromInt(0))
		}
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptr[int32](10)
	}
	defaultPodTemplateSpec(&spec.Template)
}
