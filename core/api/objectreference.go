package api

// ObjectReference points at any object, optionally at a field inside it
// (events use fieldPath to name a container: "spec.containers{app}").
type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}

// LocalObjectReference names an object in the referrer's namespace.
type LocalObjectReference struct {
	Name string `json:"name,omitempty"`
}

// TypedLocalObjectReference names an object of a kind in the same namespace.
type TypedLocalObjectReference struct {
	APIGroup *string `json:"apiGroup"`
	Kind     string  `json:"kind"`
	Name     string  `json:"name"`
}

// TypedObjectReference is TypedLocalObjectReference that may cross namespaces.
type TypedObjectReference struct {
	APIGroup  *string `json:"apiGroup"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Namespace *string `json:"namespace,omitempty"`
}

// SecretReference names a secret in any namespace.
type SecretReference struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}
