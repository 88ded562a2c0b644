package validation

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/resource"
)

var quantityType = reflect.TypeOf(resource.Quantity{})

// Messages shared by many rules.
const (
	fieldImmutableErrorMsg = "field is immutable"
	isNegativeErrorMsg     = "must be greater than or equal to 0"
	isNotPositiveErrorMsg  = "must be greater than zero"
	isNotIntegerErrorMsg   = "must be an integer"

	totalAnnotationSizeLimitB = 256 * (1 << 10)
)

// NameFunc checks an object name; prefix is true for a generateName, whose
// trailing '-' is allowed.
type NameFunc func(name string, prefix bool) []string

func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// NameIsDNSSubdomain is the rule for most kinds' names.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel is the rule for Namespace names.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// NameIsDNS1035Label is the rule for Service names.
func NameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1035Label(name)
}

// ValidateNonnegativeField: value >= 0.
func ValidateNonnegativeField(value int64, fldPath *field.Path) field.ErrorList {
	if value < 0 {
		return field.ErrorList{field.Invalid(fldPath, value, isNegativeErrorMsg)}
	}
	return nil
}

// ValidateImmutableField: newVal must equal oldVal.
func ValidateImmutableField(newVal, oldVal any, fldPath *field.Path) field.ErrorList {
	if !api.SemanticEqual(oldVal, newVal) {
		return field.ErrorList{field.Invalid(fldPath, newVal, fieldImmutableErrorMsg)}
	}
	return nil
}

// ValidateLabelName checks one label key.
func ValidateLabelName(name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range IsQualifiedName(name) {
		errs = append(errs, field.Invalid(fldPath, name, msg))
	}
	return errs
}

// ValidateLabels checks keys and values; errors name the labels map itself.
func ValidateLabels(labels map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	var buf [8]string
	for _, k := range sortedKeys(labels, buf[:]) {
		errs = append(errs, ValidateLabelName(k, fldPath)...)
		for _, msg := range IsValidLabelValue(labels[k]) {
			errs = append(errs, field.Invalid(fldPath, labels[k], msg))
		}
	}
	return errs
}

// ValidateAnnotations checks keys (case-insensitively) and the total size.
func ValidateAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	total := 0
	var buf [8]string
	for _, k := range sortedKeys(annotations, buf[:]) {
		for _, msg := range IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(fldPath, k, msg))
		}
		total += len(k) + len(annotations[k])
	}
	if total > totalAnnotationSizeLimitB {
		errs = append(errs, field.TooLong(fldPath, "", totalAnnotationSizeLimitB))
	}
	return errs
}

// ValidateLabelSelector checks a metav1.LabelSelector.
func ValidateLabelSelector(ps *api.LabelSelector, fldPath *field.Path) field.ErrorList {
	if ps == nil {
		return nil
	}
	errs := ValidateLabels(ps.MatchLabels, fldPath.Child("matchLabels"))
	for i, expr := range ps.MatchExpressions {
		p := fldPath.Child("matchExpressions").Index(i)
		switch expr.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(expr.Values) == 0 {
				errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(expr.Values) > 0 {
				errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), expr.Operator, "not a valid selector operator"))
		}
		errs = append(errs, ValidateLabelName(expr.Key, p.Child("key"))...)
		for j, v := range expr.Values {
			for _, msg := range IsValidLabelValue(v) {
				errs = append(errs, field.Invalid(p.Child("values").Index(j), v, msg))
			}
		}
	}
	return errs
}

// parseGroupVersion splits "apps/v1"; ok is false for more than one '/'.
func parseGroupVersion(apiVersion string) (group, version string, ok bool) {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return "", apiVersion, true
	case 1:
		i := strings.IndexByte(apiVersion, '/')
		return apiVersion[:i], apiVersion[i+1:], true
	}
	return "", "", false
}

// ValidateOwnerReferences checks each reference and that at most one is the controller.
func ValidateOwnerReferences(refs []api.OwnerReference, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	firstController := ""
	for _, ref := range refs {
		group, version, _ := parseGroupVersion(ref.APIVersion)
		if version == "" {
			errs = append(errs, field.Invalid(fldPath.Child("apiVersion"), ref.APIVersion, "version must not be empty"))
		}
		if ref.Kind == "" {
			errs = append(errs, field.Invalid(fldPath.Child("kind"), ref.Kind, "kind must not be empty"))
		}
		if ref.Name == "" {
			errs = append(errs, field.Invalid(fldPath.Child("name"), ref.Name, "name must not be empty"))
		}
		if ref.UID == "" {
			errs = append(errs, field.Invalid(fldPath.Child("uid"), ref.UID, "uid must not be empty"))
		}
		if group == "" && version == "v1" && ref.Kind == "Event" {
			errs = append(errs, field.Invalid(fldPath, ownerRefValue(ref), "/v1, Kind=Event is disallowed from being an owner"))
		}
		if ref.Controller != nil && *ref.Controller {
			cur := ref.Kind + "/" + ref.Name
			if firstController != "" {
				errs = append(errs, field.Invalid(fldPath, ownerRefsValue(refs),
					fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", firstController, cur)))
			} else {
				firstController = cur
			}
		}
	}
	return errs
}

// ownerRefValue prints a reference without pointer addresses.
type ownerRefValue api.OwnerReference

func (r ownerRefValue) String() string {
	return fmt.Sprintf("v1.OwnerReference{APIVersion:%q, Kind:%q, Name:%q, UID:%q}", r.APIVersion, r.Kind, r.Name, r.UID)
}

// ownerRefsValue prints the list without pointer addresses.
type ownerRefsValue []api.OwnerReference

func (l ownerRefsValue) String() string {
	parts := make([]string, len(l))
	for i, r := range l {
		parts[i] = strings.TrimPrefix(ownerRefValue(r).String(), "v1.OwnerReference")
	}
	return "[]v1.OwnerReference{" + strings.Join(parts, ", ") + "}"
}

var standardFinalizers = map[string]bool{
	api.FinalizerKubernetes:       true,
	api.FinalizerOrphanDependents: true,
	api.FinalizerDeleteDependents: true,
}

// ValidateFinalizers checks names and the orphan/foreground conflict.
func ValidateFinalizers(finalizers []string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	orphan, foreground := false, false
	for _, f := range finalizers {
		for _, msg := range IsQualifiedName(f) {
			errs = append(errs, field.Invalid(fldPath, f, msg))
		}
		orphan = orphan || f == api.FinalizerOrphanDependents
		foreground = foreground || f == api.FinalizerDeleteDependents
	}
	if orphan && foreground {
		errs = append(errs, field.Invalid(fldPath, finalizers, "finalizer orphan and foregroundDeletion cannot be both set"))
	}
	return errs
}

// validateKubeFinalizerName: a name without '/' must be a standard one.
func validateKubeFinalizerName(name string, fldPath *field.Path) field.ErrorList {
	if !strings.Contains(name, "/") && !standardFinalizers[name] {
		return field.ErrorList{field.Invalid(fldPath, name, "name is neither a standard finalizer name nor is it fully qualified")}
	}
	return nil
}

// ValidateObjectMeta checks metadata on create.
func ValidateObjectMeta(meta *api.ObjectMeta, requiresNamespace bool, nameFn NameFunc, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if meta.GenerateName != "" {
		for _, msg := range nameFn(meta.GenerateName, true) {
			errs = append(errs, field.Invalid(fldPath.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.Name, false) {
			errs = append(errs, field.Invalid(fldPath.Child("name"), meta.Name, msg))
		}
	}
	if requiresNamespace {
		if meta.Namespace == "" {
			errs = append(errs, field.Required(fldPath.Child("namespace"), ""))
		} else {
			for _, msg := range NameIsDNSLabel(meta.Namespace, false) {
				errs = append(errs, field.Invalid(fldPath.Child("namespace"), meta.Namespace, msg))
			}
		}
	} else if meta.Namespace != "" {
		errs = append(errs, field.Forbidden(fldPath.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, ValidateNonnegativeField(meta.Generation, fldPath.Child("generation"))...)
	errs = append(errs, ValidateLabels(meta.Labels, fldPath.Child("labels"))...)
	errs = append(errs, ValidateAnnotations(meta.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, ValidateOwnerReferences(meta.OwnerReferences, fldPath.Child("ownerReferences"))...)
	errs = append(errs, ValidateFinalizers(meta.Finalizers, fldPath.Child("finalizers"))...)
	for i, f := range meta.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, fldPath.Child("finalizers").Index(i))...)
	}
	return errs
}

// ValidateObjectMetaUpdate checks metadata on update: identity fields are
// immutable and a terminating object takes no new finalizers.
func ValidateObjectMetaUpdate(newMeta, oldMeta *api.ObjectMeta, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if oldMeta.DeletionTimestamp != nil {
		old := map[string]bool{}
		for _, f := range oldMeta.Finalizers {
			old[f] = true
		}
		var extra []string
		for _, f := range newMeta.Finalizers {
			if !old[f] {
				extra = append(extra, f)
				old[f] = true
			}
		}
		if len(extra) > 0 {
			sort.Strings(extra)
			errs = append(errs, field.Forbidden(fldPath.Child("finalizers"),
				fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", extra)))
		}
	}
	if newMeta.Generation < oldMeta.Generation {
		errs = append(errs, field.Invalid(fldPath.Child("generation"), newMeta.Generation, "must not be decremented"))
	}
	// Compared as strings first: handing them to ValidateImmutableField
	// boxes them, and every update of every object comes through here.
	if newMeta.Name != oldMeta.Name {
		errs = append(errs, ValidateImmutableField(newMeta.Name, oldMeta.Name, fldPath.Child("name"))...)
	}
	if newMeta.Namespace != oldMeta.Namespace {
		errs = append(errs, ValidateImmutableField(newMeta.Namespace, oldMeta.Namespace, fldPath.Child("namespace"))...)
	}
	if newMeta.UID != oldMeta.UID {
		errs = append(errs, ValidateImmutableField(newMeta.UID, oldMeta.UID, fldPath.Child("uid"))...)
	}
	if !newMeta.CreationTimestamp.Equal(oldMeta.CreationTimestamp.Time) {
		errs = append(errs, field.Invalid(fldPath.Child("creationTimestamp"), newMeta.CreationTimestamp, fieldImmutableErrorMsg))
	}
	if (newMeta.DeletionTimestamp == nil) != (oldMeta.DeletionTimestamp == nil) ||
		newMeta.DeletionTimestamp != nil && !newMeta.DeletionTimestamp.Equal(oldMeta.DeletionTimestamp.Time) {
		errs = append(errs, field.Invalid(fldPath.Child("deletionTimestamp"), newMeta.DeletionTimestamp, fieldImmutableErrorMsg))
	}
	errs = append(errs, ValidateImmutableField(newMeta.DeletionGracePeriodSeconds, oldMeta.DeletionGracePeriodSeconds, fldPath.Child("deletionGracePeriodSeconds"))...)
	errs = append(errs, ValidateLabels(newMeta.Labels, fldPath.Child("labels"))...)
	errs = append(errs, ValidateAnnotations(newMeta.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, ValidateOwnerReferences(newMeta.OwnerReferences, fldPath.Child("ownerReferences"))...)
	for i, f := range newMeta.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, fldPath.Child("finalizers").Index(i))...)
	}
	return errs
}
