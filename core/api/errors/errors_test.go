package errors

import (
	"fmt"
	"testing"

	"kubeplay/core/api/field"
)

func TestMessages(t *testing.T) {
	deploy := GroupResource{Group: "apps", Resource: "deployments"}
	cases := []struct {
		err  error
		code int32
		want string
	}{
		{NewNotFound(deploy, "x"), 404, `deployments.apps "x" not found`},
		{NewNotFound(GroupResource{Resource: "namespaces"}, "demo"), 404, `namespaces "demo" not found`},
		{NewAlreadyExists(GroupResource{Resource: "pods"}, "p"), 409, `pods "p" already exists`},
		{NewConflict(deploy, "web", fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again")), 409,
			`Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`},
		{NewInvalid(GroupKind{Group: "apps", Kind: "Deployment"}, "bad", field.ErrorList{field.Invalid(field.NewPath("spec", "template", "metadata", "labels"), map[string]string{"app": "two"}, "`selector` does not match template `labels`")}), 422,
			"Deployment.apps \"bad\" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"two\"}: `selector` does not match template `labels`"},
		{NewForbidden(GroupResource{Resource: "pods"}, "x", fmt.Errorf("unable to create new content in namespace demo because it is being terminated")), 403,
			`pods "x" is forbidden: unable to create new content in namespace demo because it is being terminated`},
		{NewForbidden(GroupResource{Resource: "namespaces"}, "default", fmt.Errorf("this namespace may not be deleted")), 403, `namespaces "default" is forbidden: this namespace may not be deleted`},
		{NewInternalError(fmt.Errorf("boom")), 500, "Internal error occurred: boom"},
	}
	for _, c := range cases {
		if c.err.Error() != c.want {
			t.Errorf("got  %s\nwant %s", c.err, c.want)
		}
		if CodeForError(c.err) != c.code {
			t.Errorf("%s: code %d, want %d", c.want, CodeForError(c.err), c.code)
		}
	}
	inv := NewInvalid(GroupKind{Kind: "Pod"}, "p", field.ErrorList{field.Required(field.NewPath("spec", "containers"), "")}).(*StatusError)
	if c := inv.ErrStatus.Details.Causes; len(c) != 1 || c[0].Field != "spec.containers" || c[0].Message != "Required value" || c[0].Type != "FieldValueRequired" {
		t.Errorf("causes: %+v", c)
	}
	if !IsNotFound(fmt.Errorf("wrapped: %w", NewNotFound(deploy, "x"))) || IsNotFound(fmt.Errorf("plain")) {
		t.Error("IsNotFound")
	}
}
