package field

import (
	"errors"
	"testing"

	"kubeplay/core/api"
)

func TestErrorStrings(t *testing.T) {
	spec := NewPath("spec")
	cases := []struct {
		err  *Error
		want string
	}{
		{Invalid(spec.Child("template").Child("metadata").Child("labels"), map[string]string{"app": "two"}, "`selector` does not match template `labels`"),
			"spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"two\"}: `selector` does not match template `labels`"},
		{Required(NewPath("metadata", "name"), "name or generateName is required"), "metadata.name: Required value: name or generateName is required"},
		{Invalid(spec.Child("selector"), &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, "field is immutable"),
			`spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable`},
		{NotSupported(spec.Child("template").Child("spec").Child("restartPolicy"), "Never", []string{"Always"}),
			`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{Duplicate(spec.Child("containers").Index(1).Child("name"), "c"), `spec.containers[1].name: Duplicate value: "c"`},
		{Required(spec.Child("containers").Index(0).Child("image"), ""), "spec.containers[0].image: Required value"},
		{Invalid(spec.Child("replicas"), int64(-1), "must be greater than or equal to 0"), "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{Invalid(NewPath("metadata", "labels").Key("app"), nil, "x"), "metadata.labels[app]: Invalid value: null: x"},
		{Forbidden(spec, "not allowed"), "spec: Forbidden: not allowed"},
		{NotFound(spec.Child("containers").Index(0).Child("volumeMounts").Index(0).Child("name"), "data"), `spec.containers[0].volumeMounts[0].name: Not found: "data"`},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestToAggregate(t *testing.T) {
	if (ErrorList{}).ToAggregate() != nil {
		t.Fatal("empty list must aggregate to nil")
	}
	one := Required(NewPath("a"), "")
	two := Required(NewPath("b"), "")
	if got := (ErrorList{one, one, two}).ToAggregate().Error(); got != "[a: Required value, b: Required value]" {
		t.Fatalf("aggregate: %q", got)
	}
	var agg error = (ErrorList{one}).ToAggregate()
	if errors.Unwrap(agg) != nil || agg.Error() != "a: Required value" {
		t.Fatalf("single: %q", agg)
	}
}
