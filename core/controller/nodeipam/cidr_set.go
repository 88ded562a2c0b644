package nodeipam

import (
	"errors"
	"fmt"
	"net/netip"
)

// ErrCIDRRangeNoCIDRsRemaining is returned when every block is taken.
var ErrCIDRRangeNoCIDRsRemaining = errors.New("CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range")

// CIDRSet hands out fixed-size blocks of an IPv4 cluster CIDR. Like
// upstream's cidrset it allocates round-robin: the search starts after the
// last block handed out, so a released block is reused only after the
// allocator has gone round once.
type CIDRSet struct {
	cluster       netip.Prefix
	nodeMaskSize  int
	maxCIDRs      int
	used          []bool
	allocated     int
	nextCandidate int
}

// NewCIDRSet splits cluster (IPv4) into blocks of /nodeMaskSize.
func NewCIDRSet(cluster netip.Prefix, nodeMaskSize int) (*CIDRSet, error) {
	cluster = cluster.Masked()
	if !cluster.Addr().Is4() {
		return nil, fmt.Errorf("only IPv4 cluster CIDRs are supported: %v", cluster)
	}
	if nodeMaskSize < cluster.Bits() || nodeMaskSize > 32 {
		return nil, fmt.Errorf("invalid node CIDR mask size %d for cluster CIDR %v", nodeMaskSize, cluster)
	}
	if nodeMaskSize-cluster.Bits() > 16 {
		return nil, errors.New("CIDRSet: the cluster CIDR mask and node mask differ by more than 16 bits")
	}
	n := 1 << (nodeMaskSize - cluster.Bits())
	return &CIDRSet{cluster: cluster, nodeMaskSize: nodeMaskSize, maxCIDRs: n, used: make([]bool, n)}, nil
}

func (s *CIDRSet) block(i int) netip.Prefix {
	base := s.cluster.Addr().As4()
	v := uint32(base[0])<<24 | uint32(base[1])<<16 | uint32(base[2])<<8 | uint32(base[3])
	v |= uint32(i) << (32 - s.nodeMaskSize)
	return netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), s.nodeMaskSize)
}

// AllocateNext takes the next free block.
func (s *CIDRSet) AllocateNext() (netip.Prefix, error) {
	if s.allocated == s.maxCIDRs {
		return netip.Prefix{}, ErrCIDRRangeNoCIDRsRemaining
	}
	c := s.nextCandidate
	for i := 0; i < s.maxCIDRs && s.used[c]; i++ {
		c = (c + 1) % s.maxCIDRs
	}
	s.nextCandidate = (c + 1) % s.maxCIDRs
	s.used[c] = true
	s.allocated++
	return s.block(c), nil
}

// indices returns the range of blocks a prefix covers.
func (s *CIDRSet) indices(p netip.Prefix) (begin, end int, err error) {
	p = p.Masked()
	if !p.Addr().Is4() || !s.cluster.Overlaps(p) {
		return -1, -1, fmt.Errorf("cidr %v is out the range of cluster cidr %v", p, s.cluster)
	}
	if p.Bits() <= s.cluster.Bits() {
		return 0, s.maxCIDRs - 1, nil
	}
	index := func(a netip.Addr) int {
		x, y := a.As4(), s.cluster.Addr().As4()
		v := (uint32(x[0])<<24 | uint32(x[1])<<16 | uint32(x[2])<<8 | uint32(x[3])) ^
			(uint32(y[0])<<24 | uint32(y[1])<<16 | uint32(y[2])<<8 | uint32(y[3]))
		return int(v >> (32 - s.nodeMaskSize))
	}
	begin = index(p.Addr())
	last := p.Addr().As4()
	hostBits := 32 - p.Bits()
	lv := uint32(last[0])<<24 | uint32(last[1])<<16 | uint32(last[2])<<8 | uint32(last[3])
	lv |= uint32((uint64(1) << hostBits) - 1)
	end = index(netip.AddrFrom4([4]byte{byte(lv >> 24), byte(lv >> 16), byte(lv >> 8), byte(lv)}))
	return begin, end, nil
}

// Occupy marks the blocks of p as used (already used is fine).
func (s *CIDRSet) Occupy(p netip.Prefix) error {
	b, e, err := s.indices(p)
	if err != nil {
		return err
	}
	for i := b; i <= e; i++ {
		if !s.used[i] {
			s.used[i] = true
			s.allocated++
		}
	}
	return nil
}

// Release frees the blocks of p.
func (s *CIDRSet) Release(p netip.Prefix) error {
	b, e, err := s.indices(p)
	if err != nil {
		return err
	}
	for i := b; i <= e; i++ {
		if s.used[i] {
			s.used[i] = false
			s.allocated--
		}
	}
	return nil
}
