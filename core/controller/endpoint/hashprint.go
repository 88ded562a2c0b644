package endpoint

import (
	"strconv"
	"strings"

	"kubeplay/core/api"
)

// The printers below write the text upstream hashes to order ports and
// subsets: go-spew's "%#v" of the core/v1 types (type names in
// parentheses, strings unquoted, nil as <nil>, slice elements and pointer
// targets without their type). Only the shapes these types need are covered.

func hashPrintSubset(s api.EndpointSubset) string {
	var b strings.Builder
	b.WriteString("(v1.EndpointSubset){Addresses:")
	printAddresses(&b, s.Addresses)
	b.WriteString(" NotReadyAddresses:")
	printAddresses(&b, s.NotReadyAddresses)
	b.WriteString(" Ports:([]v1.EndpointPort)")
	if s.Ports == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteByte('[')
		for i, p := range s.Ports {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(hashPrintPort(p, false))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

func printAddresses(b *strings.Builder, addrs []api.EndpointAddress) {
	b.WriteString("([]v1.EndpointAddress)")
	if addrs == nil {
		b.WriteString("<nil>")
		return
	}
	b.WriteByte('[')
	for i, a := range addrs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("{IP:(string)" + a.IP + " Hostname:(string)" + a.Hostname + " NodeName:")
		printStringPtr(b, a.NodeName)
		b.WriteString(" TargetRef:(*v1.ObjectReference)")
		if r := a.TargetRef; r == nil {
			b.WriteString("<nil>")
		} else {
			b.WriteString("{Kind:(string)" + r.Kind + " Namespace:(string)" + r.Namespace + " Name:(string)" + r.Name +
				" UID:(types.UID)" + r.UID + " APIVersion:(string)" + r.APIVersion + " ResourceVersion:(string)" + r.ResourceVersion +
				" FieldPath:(string)" + r.FieldPath + "}")
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
}

// hashPrintPort prints one port; typed is false inside a slice, where
// spew leaves the element's type out.
func hashPrintPort(p api.EndpointPort, typed bool) string {
	var b strings.Builder
	if typed {
		b.WriteString("(v1.EndpointPort)")
	}
	b.WriteString("{Name:(string)" + p.Name + " Port:(int32)" + strconv.Itoa(int(p.Port)) + " Protocol:(v1.Protocol)" + string(p.Protocol) + " AppProtocol:")
	printStringPtr(&b, p.AppProtocol)
	b.WriteByte('}')
	return b.String()
}

func printStringPtr(b *strings.Builder, s *string) {
	b.WriteString("(*string)")
	if s == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(*s)
	}
}
