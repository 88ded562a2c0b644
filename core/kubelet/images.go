package kubelet

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/kubelet/runtime"
)

// syncErrorRetry is how soon the kubelet retries a pod whose sync failed.
const syncErrorRetry = 5 * time.Second

// imageManager is the node's image store and its puller: one pull at a
// time (serializeImagePulls), ErrImagePull and a 10 s…5 min back-off for
// images the registry does not have.
type imageManager struct {
	k       *Kubelet
	present map[string]*runtime.Image // by normalised ref
	// pulling is the pull in progress: ref → when it ends.
	pulling     map[string]time.Time
	pullStarted map[string]time.Time
	pullBegin   map[string]time.Time
	busyUntil   time.Time
	inflight    map[string]time.Time // normalised ref → when its download ends
	backoff     *backoff
	failedAt    map[string]time.Time // key → last pull failure
	// failing are pulls in progress that will fail (an unreachable
	// registry): key → the error; inflightErr is the same by image, for
	// pulls that share a download.
	failing     map[string]error
	inflightErr map[string]error
	lastErr     map[string]string // key → the last pull's error, for the back-off message
	// listed is images() as of the last change of present (nil: to be
	// made again). The node's status shares it, so it is replaced, never
	// changed.
	listed []api.ContainerImage
	// presentMsg is each image reference's "already present" message, the
	// same for every container started from it.
	presentMsg map[string]string
}

// alreadyPresent is the Pulled message of a container whose image is here.
func (m *imageManager) alreadyPresent(ref string) string {
	msg, ok := m.presentMsg[ref]
	if !ok {
		msg = "Container image " + strconv.Quote(ref) + " already present on machine"
		if m.presentMsg == nil {
			m.presentMsg = map[string]string{}
		}
		m.presentMsg[ref] = msg
	}
	return msg
}

// add makes an image present.
func (m *imageManager) add(im *runtime.Image) {
	m.present[im.Ref] = im
	m.listed = nil
}

func newImageManager(k *Kubelet, preloaded []string) *imageManager {
	m := &imageManager{k: k, present: map[string]*runtime.Image{}, pulling: map[string]time.Time{}, pullStarted: map[string]time.Time{}, pullBegin: map[string]time.Time{}, inflight: map[string]time.Time{},
		backoff: newBackoff(10*time.Second, 300*time.Second), failedAt: map[string]time.Time{},
		failing: map[string]error{}, inflightErr: map[string]error{}, lastErr: map[string]string{}}
	for _, ref := range preloaded {
		if im, err := k.opts.Catalog.Resolve(ref); err == nil {
			m.add(im)
		}
	}
	return m
}

// pullPolicy is the container's policy, defaulted from the tag when unset.
func pullPolicy(c api.Container) api.PullPolicy {
	if c.ImagePullPolicy != "" {
		return c.ImagePullPolicy
	}
	if strings.HasSuffix(runtime.Normalize(c.Image), ":latest") {
		return api.PullAlways
	}
	return api.PullIfNotPresent
}

// ensure makes a container's image present. It returns the image when the
// container can start now; otherwise it has set the container's waiting
// reason and asked for a sync when something changes.
func (m *imageManager) ensure(ps *podState, c *containerState) (*runtime.Image, bool) {
	k := m.k
	pod := ps.pod
	now := k.clock.Now()
	ref := c.spec.Image
	norm := runtime.Normalize(ref)
	policy := pullPolicy(*c.spec)
	im, have := m.present[norm]
	key := ps.uid + "/" + c.name
	if policy == api.PullNever {
		if !have {
			msg := fmt.Sprintf("Container image %q is not present with pull policy of Never", ref)
			if c.waitingReason != "ErrImageNeverPull" {
				k.eventf(pod, "Warning", "ErrImageNeverPull", "%s", msg)
				k.event(pod, "Warning", "Failed", "Error: ErrImageNeverPull")
			}
			c.phase, c.waitingReason, c.waitingMessage = phaseWaiting, "ErrImageNeverPull", msg
			return nil, false
		}
		k.event(pod, "Normal", "Pulled", m.alreadyPresent(ref))
		return im, true
	}
	if have && (policy == api.PullIfNotPresent || k.adopting) {
		k.event(pod, "Normal", "Pulled", m.alreadyPresent(ref))
		return im, true
	}
	// A pull in progress for this container?
	if end, ok := m.pulling[key]; ok {
		if now.Before(end) {
			k.enqueueAfter(ps.key, end.Sub(now))
			return nil, false
		}
		delete(m.pulling, key)
		started, begin := m.pullStarted[key], m.pullBegin[key]
		delete(m.pullStarted, key)
		delete(m.pullBegin, key)
		resolved, err := k.opts.Catalog.Resolve(ref)
		if ferr := m.failing[key]; ferr != nil {
			delete(m.failing, key)
			resolved, err = nil, ferr
		}
		if err != nil {
			m.lastErr[key] = err.Error()
			m.failedAt[key] = now
			m.backoff.next(key, now, now)
			msg := fmt.Sprintf("Failed to pull image %q: %s", ref, err)
			k.eventf(pod, "Warning", "Failed", "%s", msg)
			k.event(pod, "Warning", "Failed", "Error: ErrImagePull")
			c.phase, c.waitingReason, c.waitingMessage = phaseWaiting, "ErrImagePull", err.Error()
			// The pod worker retries a failed sync soon; it then finds the
			// pull backing off.
			k.enqueueAfter(ps.key, syncErrorRetry)
			return nil, false
		}
		m.add(resolved)
		took := now.Sub(started)
		k.eventf(pod, "Normal", "Pulled", "Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.",
			ref, roundDuration(end.Sub(begin)), roundDuration(took), resolved.Size)
		m.backoff.forgetPrefix(key)
		delete(m.failedAt, key)
		delete(m.lastErr, key)
		return resolved, true
	}
	// Backing off after a failed pull?
	if at, ok := m.failedAt[key]; ok && m.backoff.inBackOffSince(key, at, now) {
		msg := fmt.Sprintf("Back-off pulling image %q", ref)
		if c.waitingReason != "ImagePullBackOff" {
			k.eventf(pod, "Normal", "BackOff", "%s", msg)
			k.event(pod, "Warning", "Failed", "Error: ImagePullBackOff")
		}
		c.phase, c.waitingReason = phaseWaiting, "ImagePullBackOff"
		last := m.lastErr[key]
		if last == "" {
			last = (&runtime.PullError{Ref: norm}).Error()
		}
		c.waitingMessage = fmt.Sprintf("Back-off pulling image %q: ErrImagePull: %s", ref, last)
		k.enqueueAfter(ps.key, m.backoff.remaining(key, at, now))
		return nil, false
	}
	// Start a pull. Pulls are serial (serializeImagePulls), but a pull of
	// an image whose layers are already here only resolves the manifest,
	// and pulls of the same image share the download.
	begin := now
	var end time.Time
	switch inflight, ok := m.inflight[norm]; {
	case have:
		end = now.Add(250 * time.Millisecond)
	case ok && inflight.After(now):
		end = inflight
		if err := m.inflightErr[norm]; err != nil {
			m.failing[key] = err
		}
	default:
		if m.busyUntil.After(begin) {
			begin = m.busyUntil
		}
		d := 600 * time.Millisecond // the registry answers "not found" quickly
		if resolved, err := k.opts.Catalog.Resolve(ref); err == nil {
			d = resolved.PullTime()
			if stall, err := k.opts.Catalog.StartDownload(ref); err != nil {
				d = stall
				m.failing[key] = err
			}
		}
		end = begin.Add(d)
		m.busyUntil = end
		m.inflight[norm] = end
		m.inflightErr[norm] = m.failing[key]
	}
	m.pulling[key] = end
	m.pullStarted[key] = now
	m.pullBegin[key] = begin
	k.event(pod, "Normal", "Pulling", "Pulling image "+strconv.Quote(ref))
	if c.waitingReason != "ErrImagePull" && c.waitingReason != "ImagePullBackOff" {
		c.phase, c.waitingReason, c.waitingMessage = phaseWaiting, "ContainerCreating", ""
	}
	k.enqueueAfter(ps.key, end.Sub(now))
	return nil, false
}

// images lists what the node holds, biggest first, as node status does.
func (m *imageManager) images() []api.ContainerImage {
	if m.listed != nil {
		return m.listed
	}
	refs := make([]string, 0, len(m.present))
	for r := range m.present {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	out := make([]api.ContainerImage, 0, len(refs))
	for _, r := range refs {
		im := m.present[r]
		out = append(out, api.ContainerImage{Names: []string{im.Digest, im.Ref}, SizeBytes: im.Size})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SizeBytes > out[j].SizeBytes })
	m.listed = out
	return out
}

// roundDuration prints a pull time as the kubelet does (ms precision).
func roundDuration(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
