package patch

import "kubeplay/core/api"

// The patch tags of upstream's k8s.io/api v1.32 types, for the types
// kubeplay serves. Only tagged fields and the paths down to them appear.

var objectMetaSchema = object(map[string]fieldMeta{
	"finalizers":      mergeSet(),
	"ownerReferences": mergeBy("uid", nil),
})

// conditionsStatus is the status of most kinds: conditions merged by type.
var conditionsStatus = object(map[string]fieldMeta{
	"conditions": mergeBy("type", nil),
})

// containerSchema also serves EphemeralContainer, which inlines the same
// fields (EphemeralContainerCommon).
var containerSchema = object(map[string]fieldMeta{
	"ports":         mergeBy("containerPort", nil),
	"env":           mergeBy("name", nil),
	"volumeMounts":  mergeBy("mountPath", nil),
	"volumeDevices": mergeBy("devicePath", nil),
})

var containerStatusSchema = object(map[string]fieldMeta{
	"volumeMounts":             mergeBy("mountPath", nil),
	"allocatedResourcesStatus": mergeBy("name", nil),
})

var podSpecSchema = object(map[string]fieldMeta{
	"volumes":                   mergeByRetainingKeys("name", nil),
	"initContainers":            mergeBy("name", containerSchema),
	"containers":                mergeBy("name", containerSchema),
	"ephemeralContainers":       mergeBy("name", containerSchema),
	"imagePullSecrets":          mergeBy("name", nil),
	"hostAliases":               mergeBy("ip", nil),
	"topologySpreadConstraints": mergeBy("topologyKey", nil),
	"schedulingGates":           mergeBy("name", nil),
	"resourceClaims":            mergeByRetainingKeys("name", nil),
})

var podStatusSchema = object(map[string]fieldMeta{
	"conditions":                 mergeBy("type", nil),
	"hostIPs":                    mergeBy("ip", nil),
	"podIPs":                     mergeBy("ip", nil),
	"resourceClaimStatuses":      mergeByRetainingKeys("name", nil),
	"initContainerStatuses":      nested(containerStatusSchema),
	"containerStatuses":          nested(containerStatusSchema),
	"ephemeralContainerStatuses": nested(containerStatusSchema),
})

var podTemplateSpecSchema = object(map[string]fieldMeta{
	"metadata": nested(objectMetaSchema),
	"spec":     nested(podSpecSchema),
})

// withTemplate is the spec of a workload: its pod template, plus extras.
func withTemplate(extra map[string]fieldMeta) *schemaType {
	fields := map[string]fieldMeta{"template": nested(podTemplateSpecSchema)}
	for k, v := range extra {
		fields[k] = v
	}
	return object(fields)
}

var pvcSchema = kind(nil, conditionsStatus)

var jobSpecSchema = withTemplate(nil)

// kind is a top-level object: metadata, and a spec and status if tagged.
func kind(spec, status *schemaType) *schemaType {
	fields := map[string]fieldMeta{"metadata": nested(objectMetaSchema)}
	if spec != nil {
		fields["spec"] = nested(spec)
	}
	if status != nil {
		fields["status"] = nested(status)
	}
	return object(fields)
}

// kindSchemas holds the kinds with tags beyond ObjectMeta's.
var kindSchemas = map[string]*schemaType{
	"Pod":         kind(podSpecSchema, podStatusSchema),
	"PodTemplate": object(map[string]fieldMeta{"metadata": nested(objectMetaSchema), "template": nested(podTemplateSpecSchema)}),
	"Node": kind(object(map[string]fieldMeta{"podCIDRs": mergeSet()}), object(map[string]fieldMeta{
		"conditions": mergeBy("type", nil),
		"addresses":  mergeBy("type", nil),
	})),
	"Namespace":             kind(nil, conditionsStatus),
	"PersistentVolumeClaim": pvcSchema,
	"Service":               kind(object(map[string]fieldMeta{"ports": mergeBy("port", nil)}), conditionsStatus),
	"ServiceAccount":        object(map[string]fieldMeta{"metadata": nested(objectMetaSchema), "secrets": mergeBy("name", nil)}),
	"Deployment":            kind(withTemplate(map[string]fieldMeta{"strategy": retainKeys(nil)}), conditionsStatus),
	"ReplicaSet":            kind(withTemplate(nil), conditionsStatus),
	"StatefulSet":           kind(withTemplate(map[string]fieldMeta{"volumeClaimTemplates": nested(pvcSchema)}), conditionsStatus),
	"DaemonSet":             kind(withTemplate(nil), conditionsStatus),
	"Job":                   kind(jobSpecSchema, conditionsStatus),
	"CronJob": kind(object(map[string]fieldMeta{"jobTemplate": nested(object(map[string]fieldMeta{
		"metadata": nested(objectMetaSchema),
		"spec":     nested(jobSpecSchema),
	}))}), nil),
	"HorizontalPodAutoscaler": kind(nil, conditionsStatus),
	"PodDisruptionBudget":     kind(object(map[string]fieldMeta{"selector": replaced()}), conditionsStatus),
}

// objectOnly is every other served kind: only ObjectMeta has tags.
var objectOnly = kind(nil, nil)

// KindSchema returns the strategic merge patch metadata of a kind, or the
// zero Schema for a kind kubeplay does not serve.
func KindSchema(kindName string) Schema {
	if t, ok := kindSchemas[kindName]; ok {
		return Schema{t}
	}
	for _, gvk := range api.Kinds() {
		if gvk.Kind == kindName {
			return Schema{objectOnly}
		}
	}
	return Schema{}
}
