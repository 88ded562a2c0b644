package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/validation"
	"kubeplay/core/client"
)

// envRefString is how `set env --list` names where a variable comes from.
func envRefString(from *api.EnvVarSource) string {
	switch {
	case from.ConfigMapKeyRef != nil:
		return fmt.Sprintf("configmap %s, key %s", from.ConfigMapKeyRef.Name, from.ConfigMapKeyRef.Key)
	case from.SecretKeyRef != nil:
		return fmt.Sprintf("secret %s, key %s", from.SecretKeyRef.Name, from.SecretKeyRef.Key)
	case from.FieldRef != nil:
		return "field path " + from.FieldRef.FieldPath
	case from.ResourceFieldRef != nil:
		prefix := ""
		if from.ResourceFieldRef.ContainerName != "" {
			prefix = from.ResourceFieldRef.ContainerName + "/"
		}
		return "resource field " + prefix + from.ResourceFieldRef.Resource
	}
	return "invalid valueFrom"
}

// resolveEnvRef is `set env --list --resolve`: the value a reference
// stands for, read as kubectl reads it. ConfigMaps and Secrets come from
// the command's namespace; field paths are the listed object's own (a
// Deployment's name, not a pod's); resource fields are the container's.
func resolveEnvRef(c client.Interface, ns string, from *api.EnvVarSource, obj api.Object, ctr *api.Container) (string, error) {
	switch {
	case from.SecretKeyRef != nil:
		s, err := client.Get[*api.Secret](c, ns, from.SecretKeyRef.Name)
		if err != nil {
			return "", err
		}
		if v, ok := s.Data[from.SecretKeyRef.Key]; ok {
			return string(v), nil
		}
		return "", fmt.Errorf("key %s not found in secret %s", from.SecretKeyRef.Key, from.SecretKeyRef.Name)
	case from.ConfigMapKeyRef != nil:
		cm, err := client.Get[*api.ConfigMap](c, ns, from.ConfigMapKeyRef.Name)
		if err != nil {
			return "", err
		}
		if v, ok := cm.Data[from.ConfigMapKeyRef.Key]; ok {
			return v, nil
		}
		return "", fmt.Errorf("key %s not found in config map %s", from.ConfigMapKeyRef.Key, from.ConfigMapKeyRef.Name)
	case from.FieldRef != nil:
		return objectFieldValue(obj.GetObjectMeta(), from.FieldRef.FieldPath)
	case from.ResourceFieldRef != nil:
		if v := containerResourceValue(from.ResourceFieldRef, ctr); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("Unsupported container resource : %v", from.ResourceFieldRef.Resource)
	}
	return "", fmt.Errorf("invalid valueFrom")
}

// objectFieldValue reads the metadata field paths kubectl can resolve:
// name, namespace, uid, labels and annotations (whole, or one key as
// metadata.labels['KEY']).
func objectFieldValue(m *api.ObjectMeta, path string) (string, error) {
	if base, key, ok := subscripted(path); ok {
		switch base {
		case "metadata.annotations":
			if errs := validation.IsQualifiedName(strings.ToLower(key)); len(errs) > 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", path, strings.Join(errs, ";"))
			}
			return m.Annotations[key], nil
		case "metadata.labels":
			if errs := validation.IsQualifiedName(key); len(errs) > 0 {
				return "", fmt.Errorf("invalid key subscript in %s: %s", path, strings.Join(errs, ";"))
			}
			return m.Labels[key], nil
		}
		return "", fmt.Errorf("fieldPath %q does not support subscript", path)
	}
	switch path {
	case "metadata.annotations":
		return quotedPairs(m.Annotations), nil
	case "metadata.labels":
		return quotedPairs(m.Labels), nil
	case "metadata.name":
		return m.Name, nil
	case "metadata.namespace":
		return m.Namespace, nil
	case "metadata.uid":
		return m.UID, nil
	}
	return "", fmt.Errorf("unsupported fieldPath: %v", path)
}

// subscripted splits "metadata.labels['app']" into its path and key.
func subscripted(path string) (base, key string, ok bool) {
	rest, found := strings.CutSuffix(path, "']")
	if !found {
		return "", "", false
	}
	base, key, found = strings.Cut(rest, "['")
	if !found || base == "" {
		return "", "", false
	}
	return base, key, true
}

// quotedPairs is a map as key="value" lines in key order.
func quotedPairs(m map[string]string) string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k + "=" + strconv.Quote(m[k]))
	}
	return b.String()
}
