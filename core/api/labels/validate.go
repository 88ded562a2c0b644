package labels

import (
	"fmt"
	"strings"

	"kubeplay/core/api/namefmt"
)

// Label keys and values follow upstream's qualified-name and label-value
// rules; the messages are upstream's.
const (
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg    = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
)

// IsQualifiedName returns why value is not a valid label key, if it is not.
func IsQualifiedName(value string) []string {
	var errs []string
	var name string
	switch strings.Count(value, "/") {
	case 0:
		name = value
	case 1:
		var prefix string
		prefix, name, _ = strings.Cut(value, "/")
		if len(prefix) == 0 {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			if len(prefix) > 253 {
				errs = append(errs, "prefix part must be no more than 253 characters")
			}
			if !namefmt.DNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+dns1123SubdomainMsg+" (e.g. 'example.com', regex used for validation is '"+dns1123SubdomainFmt+"')")
			}
		}
	default:
		return append(errs, "a qualified name "+qualifiedNameErrMsg+" with an optional DNS subdomain prefix and '/' (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '"+qualifiedNameFmt+"') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if len(name) == 0 {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part must be no more than 63 characters")
	}
	if len(name) > 0 && !namefmt.QualifiedName(name) {
		errs = append(errs, "name part "+qualifiedNameErrMsg+" (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '"+qualifiedNameFmt+"')")
	}
	return errs
}

// IsValidLabelValue returns why value is not a valid label value, if it is not.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > 63 {
		errs = append(errs, "must be no more than 63 characters")
	}
	if !namefmt.LabelValue(value) {
		errs = append(errs, labelValueErrMsg+" (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '"+labelValueFmt+"')")
	}
	return errs
}

func validateLabelKey(k string) error {
	if errs := IsQualifiedName(k); len(errs) > 0 {
		return fmt.Errorf("key: Invalid value: %q: %s", k, strings.Join(errs, "; "))
	}
	return nil
}

func validateLabelValue(k, v string) error {
	if errs := IsValidLabelValue(v); len(errs) > 0 {
		return fmt.Errorf("values[0][%s]: Invalid value: %q: %s", k, v, strings.Join(errs, "; "))
	}
	return nil
}
