package protobuf

// The messages whose JSON form is not an object of their fields, written by
// hand from apimachinery's generated.proto files. Their fields are listed so
// that the wire scanner can read them; wellknown.go turns them into JSON.

var metaV1WellKnown = protoPackage{
	name: "k8s.io.apimachinery.pkg.apis.meta.v1",
	messages: []message{
		{name: "Time", special: specTime, fields: []field{
			{num: 1, name: "seconds", kind: kInt64},
			{num: 2, name: "nanos", kind: kInt32},
		}},
		{name: "MicroTime", special: specMicroTime, fields: []field{
			{num: 1, name: "seconds", kind: kInt64},
			{num: 2, name: "nanos", kind: kInt32},
		}},
		{name: "Duration", special: specDuration, fields: []field{
			{num: 1, name: "duration", kind: kInt64},
		}},
		{name: "FieldsV1", special: specFieldsV1, fields: []field{
			{num: 1, name: "Raw", kind: kBytes},
		}},
	},
}

var intstrPackage = protoPackage{
	name: "k8s.io.apimachinery.pkg.util.intstr",
	messages: []message{
		{name: "IntOrString", special: specIntOrString, fields: []field{
			{num: 1, name: "type", kind: kInt64},
			{num: 2, name: "intVal", kind: kInt32},
			{num: 3, name: "strVal", kind: kString},
		}},
	},
}

var resourcePackage = protoPackage{
	name: "k8s.io.apimachinery.pkg.api.resource",
	messages: []message{
		{name: "Quantity", special: specQuantity, fields: []field{
			{num: 1, name: "string", kind: kString},
		}},
	},
}

// runtimePackage also holds the envelope of every protobuf body:
// the magic "k8s\x00" and then an Unknown.
var runtimePackage = protoPackage{
	name: "k8s.io.apimachinery.pkg.runtime",
	messages: []message{
		{name: "RawExtension", special: specRawExtension, fields: []field{
			{num: 1, name: "raw", kind: kBytes},
		}},
		{name: "TypeMeta", fields: []field{
			{num: 1, name: "apiVersion", kind: kString, pres: presOmitEmpty},
			{num: 2, name: "kind", kind: kString, pres: presOmitEmpty},
		}},
		{name: "Unknown", fields: []field{
			{num: 1, name: "typeMeta", kind: kMessage, typ: "k8s.io.apimachinery.pkg.runtime.TypeMeta"},
			{num: 2, name: "raw", kind: kBytes},
			{num: 3, name: "contentEncoding", kind: kString},
			{num: 4, name: "contentType", kind: kString},
		}},
	},
}
