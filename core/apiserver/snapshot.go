package apiserver

import (
	"fmt"

	"kubeplay/core/api"
)

// Dump returns every stored object, resource by resource in discovery
// order, and the latest resourceVersion: the whole of the cluster's state
// that lives in the API.
func (s *Server) Dump() ([]api.Object, uint64) {
	var out []api.Object
	for _, res := range s.Registry.All() {
		out = append(out, s.storeFor(res).list("", nil)...)
	}
	return out, s.rv
}

// Load fills an empty server with objects from Dump, keeping their
// metadata (uids, resourceVersions, timestamps) as they were. It sends no
// watch events: components that start afterwards list what is there.
func (s *Server) Load(objs []api.Object, rv uint64) error {
	for _, o := range objs {
		tm := o.GetTypeMeta()
		res, ok := s.Registry.ForKind(tm.APIVersion, tm.Kind)
		if !ok {
			return fmt.Errorf("snapshot holds an unknown kind %s %s", tm.APIVersion, tm.Kind)
		}
		m := o.GetObjectMeta()
		st := s.storeFor(res)
		key := objectKey(m.Namespace, m.Name)
		if _, dup := st.objects[objectName{m.Namespace, m.Name}]; dup {
			return fmt.Errorf("snapshot holds %s %q twice", res.Name, key)
		}
		v, ok := parseRV(m.ResourceVersion)
		if !ok || v > rv {
			return fmt.Errorf("snapshot object %s %q has resourceVersion %q beyond the snapshot's %d", res.Name, key, m.ResourceVersion, rv)
		}
		st.objects[objectName{m.Namespace, m.Name}] = o
		if res.Kind == "Event" {
			s.armEventLease(res, objectName{m.Namespace, m.Name}, v, lastEventWrite(o).Add(EventTTL))
		}
	}
	if rv > s.rv {
		s.rv = rv
	}
	for _, st := range s.stores {
		st.oldestRV = s.rv
	}
	return nil
}
