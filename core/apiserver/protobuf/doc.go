// Package protobuf turns Kubernetes protobuf request bodies into JSON, so
// that a server speaking JSON can accept what typed clients (kubectl create
// of most kinds, autoscale, create token, auth can-i, drain's deletes...)
// send as application/vnd.kubernetes.protobuf.
//
// It decodes the wire format itself against schema tables: schema_*.go,
// generated from upstream's generated.proto files and Go types, and
// wellknown_schema.go, written by hand for the messages whose JSON form is
// not an object (Time, MicroTime, Duration, IntOrString, Quantity,
// RawExtension, FieldsV1).
//
// To regenerate the tables, with checkouts of k8s.io/api and
// k8s.io/apimachinery in $K8S_API and $K8S_APIMACHINERY, run go generate,
// which runs
//
//	go run ./internal/schemagen -api $K8S_API -apimachinery $K8S_APIMACHINERY -out .
package protobuf

//go:generate go run ./internal/schemagen -api $K8S_API -apimachinery $K8S_APIMACHINERY -out .
