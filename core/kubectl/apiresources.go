package kubectl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/apiserver"
	"kubeplay/core/printers"
)

func runAPIResources(inv *Invocation) error {
	format := inv.outputFormat()
	if format != "" && format != "wide" && format != "name" {
		return fmt.Errorf("--output %v is not available", inv.Flags.String("output"))
	}
	sortBy := inv.Flags.String("sort-by")
	if sortBy != "" && sortBy != "name" && sortBy != "kind" {
		return fmt.Errorf("--sort-by accepts only name or kind")
	}
	reg := inv.Env.Client.Registry()
	var list []*apiserver.Resource
	for _, res := range reg.All() {
		if inv.Flags.Changed("api-group") && res.Group != inv.Flags.String("api-group") {
			continue
		}
		if inv.Flags.Changed("namespaced") && res.Namespaced != inv.Flags.Bool("namespaced") {
			continue
		}
		if !hasAll(res.Verbs, inv.Flags.Strings("verbs")) || !hasAll(res.Categories, inv.Flags.Strings("categories")) {
			continue
		}
		list = append(list, res)
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		switch sortBy {
		case "name":
			return a.Name < b.Name
		case "kind":
			return a.Kind < b.Kind
		}
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		return a.Name < b.Name
	})
	if format == "name" {
		for _, res := range list {
			n := res.Name
			if res.Group != "" {
				n += "." + res.Group
			}
			fmt.Fprintln(inv.out(), n)
		}
		return nil
	}
	t := &printers.Table{Columns: []printers.Column{{Name: "Name"}, {Name: "Shortnames"}, {Name: "Apiversion"}, {Name: "Namespaced"}, {Name: "Kind"}}}
	if format == "wide" {
		t.Columns = append(t.Columns, printers.Column{Name: "Verbs"}, printers.Column{Name: "Categories"})
	}
	for _, res := range list {
		cells := []string{res.Name, strings.Join(res.ShortNames, ","), res.APIVersion(), strconv.FormatBool(res.Namespaced), res.Kind}
		if format == "wide" {
			cells = append(cells, strings.Join(res.Verbs, ","), strings.Join(res.Categories, ","))
		}
		t.Rows = append(t.Rows, printers.Row{Cells: cells})
	}
	return printers.Print(inv.out(), t, printers.Options{NoHeaders: inv.Flags.Bool("no-headers")})
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// runAPIVersions is `kubectl api-versions`: every group/version discovery
// serves, sorted.
func runAPIVersions(inv *Invocation) error {
	if len(inv.Args) > 0 {
		return usageErrorf(inv.Cmd, "unexpected arguments: %v", inv.Args)
	}
	for _, gv := range inv.Env.Client.Registry().GroupVersions() {
		fmt.Fprintln(inv.out(), gv)
	}
	return nil
}
