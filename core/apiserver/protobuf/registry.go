package protobuf

import "fmt"

// registry indexes the schema tables. It is built once at package
// initialisation and only read afterwards.
type registry struct {
	messages map[string]*message    // by full proto name
	kinds    map[[2]string]*message // by {apiVersion, kind}
	// metaKinds are meta.k8s.io/v1 kinds (DeleteOptions, Status, ...),
	// which every group version serves: a typed client deleting a Deployment
	// sends DeleteOptions as apps/v1.
	metaKinds map[string]*message
}

const metaGroupVersion = "meta.k8s.io/v1"

var schema = newRegistry(
	metaV1WellKnown, intstrPackage, resourcePackage, runtimePackage,
	metaV1, coreV1, appsV1, batchV1, policyV1, rbacV1, networkingV1,
	schedulingV1, schedulingV1alpha3, autoscalingV1, autoscalingV2, authenticationV1,
	authorizationV1, certificatesV1,
)

func newRegistry(pkgs ...protoPackage) *registry {
	r := &registry{
		messages:  map[string]*message{},
		kinds:     map[[2]string]*message{},
		metaKinds: map[string]*message{},
	}
	for _, p := range pkgs {
		for i := range p.messages {
			m := &p.messages[i]
			full := p.name + "." + m.name
			if r.messages[full] != nil {
				// The tables are static: a duplicate is a bug in them.
				panic(fmt.Sprintf("protobuf: message %s defined twice", full))
			}
			r.messages[full] = m
			if !m.object || p.groupVersion == "" {
				continue
			}
			r.kinds[[2]string{p.groupVersion, m.name}] = m
			if p.groupVersion == metaGroupVersion {
				r.metaKinds[m.name] = m
			}
		}
	}
	return r
}

// kind finds the message of a kind, or nil.
func (r *registry) kind(apiVersion, kind string) *message {
	if m := r.kinds[[2]string{apiVersion, kind}]; m != nil {
		return m
	}
	return r.metaKinds[kind]
}
