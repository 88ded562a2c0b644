package sim

// FailImageDownload makes the registry unreachable for one download of an
// image: counting the cluster's downloads of it from now, the nth stalls
// for containerd's 30 s connect timeout and fails (`kubeplay registry
// fail IMAGE [N]`). The kubelet then reports ErrImagePull, backs off and
// pulls again, as it does after a network hiccup.
func (c *Cluster) FailImageDownload(ref string, nth int) error {
	return c.agents.catalog.FailDownload(ref, nth)
}
