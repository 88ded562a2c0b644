package runtime

import (
	"fmt"
	"strings"
	"time"
)

// RegistryDialTimeout is how long containerd's resolver waits to connect
// to a registry before it gives up on a pull.
const RegistryDialTimeout = 30 * time.Second

// TimeoutError is a pull that could not reach the registry, worded as
// containerd reports a connect that timed out while resolving the tag.
type TimeoutError struct{ Ref string }

func (e *TimeoutError) Error() string {
	repo, tag := repoTag(e.Ref)
	host, path, _ := strings.Cut(repo, "/")
	target := fmt.Sprintf("dial tcp: lookup %s: i/o timeout", host)
	if host == "docker.io" {
		host = "registry-1.docker.io"
		target = "dial tcp 54.236.113.205:443: i/o timeout"
	}
	return fmt.Sprintf("rpc error: code = Unknown desc = failed to pull and unpack image %q: failed to resolve reference %q: failed to do request: Head %q: %s",
		e.Ref, e.Ref, fmt.Sprintf("https://%s/v2/%s/manifests/%s", host, path, tag), target)
}

// FailDownload makes the registry unreachable for one download of ref:
// counting downloads of it from now, the nth (1 is the next one) stalls
// for RegistryDialTimeout and fails. Pulls that find the image already on
// the node do not count.
func (c *Catalog) FailDownload(ref string, nth int) error {
	if _, err := c.Resolve(ref); err != nil {
		return fmt.Errorf("%s: not found in the registry", ref)
	}
	if nth < 1 {
		return fmt.Errorf("the download to fail must be 1 or more, not %d", nth)
	}
	if c.faults == nil {
		c.faults = map[string]int{}
	}
	c.faults[Normalize(ref)] = nth
	return nil
}

// StartDownload is a node beginning to download ref. For a download set to
// fail it returns how long it stalls and its error.
func (c *Catalog) StartDownload(ref string) (time.Duration, error) {
	n := Normalize(ref)
	left, ok := c.faults[n]
	if !ok {
		return 0, nil
	}
	if left > 1 {
		c.faults[n] = left - 1
		return 0, nil
	}
	delete(c.faults, n)
	return RegistryDialTimeout, &TimeoutError{Ref: n}
}
