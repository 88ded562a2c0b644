package validation

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
)

// ValidateConfigMap checks keys, key clashes between data and binaryData,
// and the 1 MiB size limit.
func ValidateConfigMap(cm *api.ConfigMap) field.ErrorList {
	errs := ValidateObjectMeta(&cm.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	total := 0
	for _, k := range slices.Sorted(maps.Keys(cm.Data)) {
		p := field.NewPath("data").Key(k)
		for _, m := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(p, k, m))
		}
		if _, dup := cm.BinaryData[k]; dup {
			errs = append(errs, field.Invalid(p, k, "duplicate of key present in binaryData"))
		}
		total += len(cm.Data[k])
	}
	for _, k := range slices.Sorted(maps.Keys(cm.BinaryData)) {
		for _, m := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(k), k, m))
		}
		total += len(cm.BinaryData[k])
	}
	if total > api.MaxSecretSize {
		// The empty path names the whole object, as upstream's does.
		errs = append(errs, field.TooLong(field.NewPath(""), "", api.MaxSecretSize))
	}
	return errs
}

// ValidateConfigMapUpdate: an immutable ConfigMap keeps its data.
func ValidateConfigMapUpdate(cm, old *api.ConfigMap) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&cm.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	if old.Immutable != nil && *old.Immutable {
		if cm.Immutable == nil || !*cm.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), "field is immutable when `immutable` is set"))
		}
		if !reflect.DeepEqual(cm.Data, old.Data) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), "field is immutable when `immutable` is set"))
		}
		if !reflect.DeepEqual(cm.BinaryData, old.BinaryData) {
			errs = append(errs, field.Forbidden(field.NewPath("binaryData"), "field is immutable when `immutable` is set"))
		}
	}
	return append(errs, ValidateConfigMap(cm)...)
}

// SecretData is data with stringData merged in, as upstream's conversion
// does before validation.
func SecretData(s *api.Secret) map[string][]byte {
	if len(s.StringData) == 0 {
		return s.Data
	}
	out := make(map[string][]byte, len(s.Data)+len(s.StringData))
	for k, v := range s.Data {
		out[k] = v
	}
	for k, v := range s.StringData {
		out[k] = []byte(v)
	}
	return out
}

// ValidateSecret checks keys, size and the keys each secret type requires.
func ValidateSecret(s *api.Secret) field.ErrorList {
	errs := ValidateObjectMeta(&s.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
	dataPath := field.NewPath("data")
	data := SecretData(s)
	total := 0
	for _, k := range slices.Sorted(maps.Keys(data)) {
		for _, m := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(dataPath.Key(k), k, m))
		}
		total += len(data[k])
	}
	if total > api.MaxSecretSize {
		errs = append(errs, field.TooLong(dataPath, "", api.MaxSecretSize))
	}
	switch s.Type {
	case api.SecretTypeServiceAccountToken:
		if s.Annotations[api.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata").Child("annotations").Key(api.ServiceAccountNameKey), ""))
		}
	case api.SecretTypeDockercfg, api.SecretTypeDockerConfigJson:
		key := api.DockerConfigKey
		if s.Type == api.SecretTypeDockerConfigJson {
			key = api.DockerConfigJsonKey
		}
		b, ok := data[key]
		if !ok {
			errs = append(errs, field.Required(dataPath.Key(key), ""))
			break
		}
		if err := json.Unmarshal(b, &map[string]any{}); err != nil {
			errs = append(errs, field.Invalid(dataPath.Key(key), "<secret contents redacted>", err.Error()))
		}
	case api.SecretTypeBasicAuth:
		_, u := data[api.BasicAuthUsernameKey]
		_, p := data[api.BasicAuthPasswordKey]
		if !u && !p {
			errs = append(errs, field.Required(dataPath.Key(api.BasicAuthUsernameKey), ""))
			errs = append(errs, field.Required(dataPath.Key(api.BasicAuthPasswordKey), ""))
		}
	case api.SecretTypeSSHAuth:
		if len(data[api.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, field.Required(dataPath.Key(api.SSHAuthPrivateKey), ""))
		}
	case api.SecretTypeTLS:
		if _, ok := data[api.TLSCertKey]; !ok {
			errs = append(errs, field.Required(dataPath.Key(api.TLSCertKey), ""))
		}
		if _, ok := data[api.TLSPrivateKeyKey]; !ok {
			errs = append(errs, field.Required(dataPath.Key(api.TLSPrivateKeyKey), ""))
		}
	}
	return errs
}

// ValidateSecretUpdate: the type is fixed; an immutable Secret keeps its data.
func ValidateSecretUpdate(s, old *api.Secret) field.ErrorList {
	errs := ValidateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, ValidateImmutableField(secretType(s), secretType(old), field.NewPath("type"))...)
	if old.Immutable != nil && *old.Immutable {
		if s.Immutable == nil || !*s.Immutable {
			errs = append(errs, field.Forbidden(field.NewPath("immutable"), "field is immutable when `immutable` is set"))
		}
		if !reflect.DeepEqual(SecretData(s), SecretData(old)) {
			errs = append(errs, field.Forbidden(field.NewPath("data"), "field is immutable when `immutable` is set"))
		}
	}
	return append(errs, ValidateSecret(s)...)
}

// secretType is the type after defaulting (Opaque).
func secretType(s *api.Secret) string {
	if s.Type == "" {
		return api.SecretTypeOpaque
	}
	return s.Type
}

// ValidateServiceAccount checks a ServiceAccount.
func ValidateServiceAccount(sa *api.ServiceAccount) field.ErrorList {
	return ValidateObjectMeta(&sa.ObjectMeta, true, NameIsDNSSubdomain, field.NewPath("metadata"))
}
