package patch

import (
	"sync"

	"kubeplay/core/api"
)

// The patch tags of upstream's k8s.io/api v1.32 types, for the types
// kubeplay serves. Only tagged fields and the paths down to them appear.

// kindSchemas holds the kinds with tags beyond ObjectMeta's, and
// objectOnly every other served kind (only ObjectMeta has tags). They are
// built on first use: a page start need not run their 28 KB of wasm.
var kindSchemas = sync.OnceValues(buildKindSchemas)

func buildKindSchemas() (map[string]*schemaType, *schemaType) {
	objectMeta := object(map[string]fieldMeta{
		"finalizers":      mergeSet(),
		"ownerReferences": mergeBy("uid", nil),
	})
	// kind is a top-level object: metadata, and a spec and status if tagged.
	kind := func(spec, status *schemaType) *schemaType {
		fields := map[string]fieldMeta{"metadata": nested(objectMeta)}
		if spec != nil {
			fields["spec"] = nested(spec)
		}
		if status != nil {
			fields["status"] = nested(status)
		}
		return object(fields)
	}
	// conditionsStatus is the status of most kinds: conditions merged by type.
	conditionsStatus := object(map[string]fieldMeta{
		"conditions": mergeBy("type", nil),
	})
	podSpec, podStatus, podTemplateSpec := podSchemas(objectMeta)
	// withTemplate is the spec of a workload: its pod template, plus extras.
	withTemplate := func(extra map[string]fieldMeta) *schemaType {
		fields := map[string]fieldMeta{"template": nested(podTemplateSpec)}
		for k, v := range extra {
			fields[k] = v
		}
		return object(fields)
	}
	pvc := kind(nil, conditionsStatus)
	jobSpec := withTemplate(nil)
	kinds := map[string]*schemaType{
		"Pod":         kind(podSpec, podStatus),
		"PodTemplate": object(map[string]fieldMeta{"metadata": nested(objectMeta), "template": nested(podTemplateSpec)}),
		"Node": kind(object(map[string]fieldMeta{"podCIDRs": mergeSet()}), object(map[string]fieldMeta{
			"conditions": mergeBy("type", nil),
			"addresses":  mergeBy("type", nil),
		})),
		"Namespace":             kind(nil, conditionsStatus),
		"PersistentVolumeClaim": pvc,
		"Service":               kind(object(map[string]fieldMeta{"ports": mergeBy("port", nil)}), conditionsStatus),
		"ServiceAccount":        object(map[string]fieldMeta{"metadata": nested(objectMeta), "secrets": mergeBy("name", nil)}),
		"Deployment":            kind(withTemplate(map[string]fieldMeta{"strategy": retainKeys(nil)}), conditionsStatus),
		"ReplicaSet":            kind(withTemplate(nil), conditionsStatus),
		"StatefulSet":           kind(withTemplate(map[string]fieldMeta{"volumeClaimTemplates": nested(pvc)}), conditionsStatus),
		"DaemonSet":             kind(withTemplate(nil), conditionsStatus),
		"Job":                   kind(jobSpec, conditionsStatus),
		"CronJob": kind(object(map[string]fieldMeta{"jobTemplate": nested(object(map[string]fieldMeta{
			"metadata": nested(objectMeta),
			"spec":     nested(jobSpec),
		}))}), nil),
		"HorizontalPodAutoscaler": kind(nil, conditionsStatus),
		"PodDisruptionBudget":     kind(object(map[string]fieldMeta{"selector": replaced()}), conditionsStatus),
	}
	return kinds, kind(nil, nil)
}

// podSchemas builds the pod's spec, status and template, which several
// kinds share. A function of its own: in one function with the kinds, the
// page's start (which patches its node's status) had V8 compile it a
// second time, with its optimizing tier, though it runs once (see
// docs/PERFORMANCE.md, "V8's second tier").
func podSchemas(objectMeta *schemaType) (podSpec, podStatus, podTemplateSpec *schemaType) {
	// container also serves EphemeralContainer, which inlines the same
	// fields (EphemeralContainerCommon).
	container := object(map[string]fieldMeta{
		"ports":         mergeBy("containerPort", nil),
		"env":           mergeBy("name", nil),
		"volumeMounts":  mergeBy("mountPath", nil),
		"volumeDevices": mergeBy("devicePath", nil),
	})
	containerStatus := object(map[string]fieldMeta{
		"volumeMounts":             mergeBy("mountPath", nil),
		"allocatedResourcesStatus": mergeBy("name", nil),
	})
	podSpec = object(map[string]fieldMeta{
		"volumes":                   mergeByRetainingKeys("name", nil),
		"initContainers":            mergeBy("name", container),
		"containers":                mergeBy("name", container),
		"ephemeralContainers":       mergeBy("name", container),
		"imagePullSecrets":          mergeBy("name", nil),
		"hostAliases":               mergeBy("ip", nil),
		"topologySpreadConstraints": mergeBy("topologyKey", nil),
		"schedulingGates":           mergeBy("name", nil),
		"resourceClaims":            mergeByRetainingKeys("name", nil),
	})
	podStatus = object(map[string]fieldMeta{
		"conditions":                 mergeBy("type", nil),
		"hostIPs":                    mergeBy("ip", nil),
		"podIPs":                     mergeBy("ip", nil),
		"resourceClaimStatuses":      mergeByRetainingKeys("name", nil),
		"initContainerStatuses":      nested(containerStatus),
		"containerStatuses":          nested(containerStatus),
		"ephemeralContainerStatuses": nested(containerStatus),
	})
	podTemplateSpec = object(map[string]fieldMeta{
		"metadata": nested(objectMeta),
		"spec":     nested(podSpec),
	})
	return podSpec, podStatus, podTemplateSpec
}

// KindSchema returns the strategic merge patch metadata of a kind, or the
// zero Schema for a kind kubeplay does not serve.
func KindSchema(kindName string) Schema {
	kinds, objectOnly := kindSchemas()
	if t, ok := kinds[kindName]; ok {
		return Schema{t}
	}
	for _, gvk := range api.Kinds() {
		if gvk.Kind == kindName {
			return Schema{objectOnly}
		}
	}
	return Schema{}
}
