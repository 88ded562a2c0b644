package sim

import (
	"encoding/json"
	"fmt"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
)

// snapshot is the saved form of a cluster: virtual time, the random
// source's state, and every API object. Components keep no state of their
// own that matters beyond what they rebuild from the API when restored.
type snapshot struct {
	Version         int               `json:"version"`
	Time            time.Time         `json:"time"`
	Seed            uint64            `json:"seed"`
	Rand            []byte            `json:"rand"`
	ResourceVersion uint64            `json:"resourceVersion"`
	Objects         []json.RawMessage `json:"objects"`
}

// Snapshot saves the whole cluster state as JSON. It yields (Cluster.Yield)
// after each object: the page saves a cluster of hundreds of pods while
// it runs.
func (c *Cluster) Snapshot() ([]byte, error) {
	objs, rv := c.API.Dump()
	rs, err := c.Rand.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s := snapshot{Version: 1, Time: c.Clock.Now(), Seed: c.seed, Rand: rs, ResourceVersion: rv}
	if len(objs) == 0 {
		return json.Marshal(s)
	}
	s.Objects = []json.RawMessage{}
	head, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	// head ends in "objects":[]}. The objects are written between the
	// brackets here: Marshal would check and copy each one over again.
	buf := append([]byte(nil), head[:len(head)-2]...)
	for i, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b...)
		c.yield()
	}
	return append(buf, "]}"...), nil
}

// Restore builds a cluster from a snapshot. A snapshot is input like any
// other: a malformed one gives an error, never a half-built cluster.
func Restore(data []byte) (*Cluster, error) {
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("snapshot: %v", err)
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("snapshot: unsupported version %d", s.Version)
	}
	objs := make([]api.Object, 0, len(s.Objects))
	for i, raw := range s.Objects {
		o, err := codec.Decode(raw, codec.DecodeOptions{Strict: true})
		if err != nil {
			return nil, fmt.Errorf("snapshot: object %d: %v", i, err)
		}
		objs = append(objs, o)
	}
	c := newCluster(Options{Seed: s.Seed, Start: s.Time}, func(c *Cluster) error {
		if err := c.Rand.UnmarshalBinary(s.Rand); err != nil {
			return fmt.Errorf("snapshot: random state: %v", err)
		}
		return c.API.Load(objs, s.ResourceVersion)
	})
	if c.err != nil {
		return nil, c.err
	}
	c.Settle()
	return c, nil
}
