// Package queue is the scheduling queue: activeQ (pods to try now, highest
// priority first, then oldest), backoffQ (pods waiting out a per-pod
// backoff after a failure) and the unschedulable pool (pods that failed
// and wait for a cluster event that may help them, or for the 5-minute
// flush). Time comes from the virtual clock's timers.
package queue

import (
	"container/heap"
	"sort"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/clock"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/framework/plugins/names"
)

// Upstream's defaults.
const (
	DefaultPodInitialBackoffDuration         = 1 * time.Second
	DefaultPodMaxBackoffDuration             = 10 * time.Second
	DefaultPodMaxInUnschedulablePodsDuration = 5 * time.Minute
	// flushUnschedulableInterval is how often upstream checks the pool for
	// pods that have waited too long.
	flushUnschedulableInterval = 30 * time.Second
)

// Queue names, as the trace shows them.
const (
	ActiveQ        = "Active"
	BackoffQ       = "Backoff"
	UnschedulableQ = "Unschedulable"
)

type queueingStrategy int

const (
	queueSkip queueingStrategy = iota
	queueAfterBackoff
	queueImmediately
)

// PriorityQueue is the scheduling queue.
type PriorityQueue struct {
	clock *clock.Clock
	start time.Time

	activeQ       activeHeap
	activeIndex   map[string]*QueuedPodInfo
	backoffQ      map[string]*QueuedPodInfo
	backoffTimers map[string]*clock.Timer
	unschedulable map[string]*QueuedPodInfo
	inFlight      map[string]bool
	flushTimer    *clock.Timer
	// nominatedNode indexes the queued pods that preemption nominated to
	// a node (pod key → node), so a cycle need not walk the whole queue.
	nominatedNode map[string]string

	// hints are the events each plugin registered, by plugin name.
	hints map[string][]framework.ClusterEventWithHint
	// nsLabels returns a namespace's labels, for affinity terms with namespace selectors.
	nsLabels func(string) labels.Set

	seq              uint64
	schedulingCycle  int64
	moveRequestCycle int64

	initialBackoff, maxBackoff, maxInUnschedulable time.Duration
}

// New returns an empty queue. hints are the plugins' registered events.
func New(clk *clock.Clock, hints map[string][]framework.ClusterEventWithHint, nsLabels func(string) labels.Set) *PriorityQueue {
	q := &PriorityQueue{
		clock:              clk,
		start:              clk.Now(),
		activeIndex:        map[string]*QueuedPodInfo{},
		backoffQ:           map[string]*QueuedPodInfo{},
		backoffTimers:      map[string]*clock.Timer{},
		unschedulable:      map[string]*QueuedPodInfo{},
		inFlight:           map[string]bool{},
		nominatedNode:      map[string]string{},
		hints:              hints,
		nsLabels:           nsLabels,
		moveRequestCycle:   -1,
		initialBackoff:     DefaultPodInitialBackoffDuration,
		maxBackoff:         DefaultPodMaxBackoffDuration,
		maxInUnschedulable: DefaultPodMaxInUnschedulablePodsDuration,
	}
	q.hints[names.SchedulingGates] = []framework.ClusterEventWithHint{{
		Event: framework.ClusterEvent{Resource: framework.UnscheduledPod, ActionType: framework.UpdatePodSchedulingGatesEliminated},
	}}
	return q
}

func (q *PriorityQueue) newQueuedPodInfo(pod *api.Pod) *QueuedPodInfo {
	return &QueuedPodInfo{PodInfo: framework.NewPodInfo(pod), Timestamp: q.clock.Now()}
}

// Add queues a new pod.
func (q *PriorityQueue) Add(pod *api.Pod) {
	q.moveToActiveQ(q.newQueuedPodInfo(pod), framework.EventUnscheduledPodAdd.Label())
}

// Pop takes the head of activeQ; false when it is empty. The pod counts as
// in flight until Done.
func (q *PriorityQueue) Pop() (*QueuedPodInfo, bool) {
	if len(q.activeQ) == 0 {
		return nil, false
	}
	p := heap.Pop(&q.activeQ).(*QueuedPodInfo)
	delete(q.activeIndex, key(p.Pod))
	q.forgetNominated(key(p.Pod))
	p.Attempts++
	q.schedulingCycle++
	q.inFlight[key(p.Pod)] = true
	return p, true
}

// Done ends a pod's scheduling attempt.
func (q *PriorityQueue) Done(pod *api.Pod) { delete(q.inFlight, key(pod)) }

// SchedulingCycle counts pops so far.
func (q *PriorityQueue) SchedulingCycle() int64 { return q.schedulingCycle }

// runPreEnqueue holds back pods with scheduling gates (the SchedulingGates plugin).
func (q *PriorityQueue) runPreEnqueue(p *QueuedPodInfo) {
	if len(p.Pod.Spec.SchedulingGates) > 0 {
		p.GatingPlugin = names.SchedulingGates
		if p.UnschedulablePlugins == nil {
			p.UnschedulablePlugins = map[string]bool{}
		}
		p.UnschedulablePlugins[names.SchedulingGates] = true
		return
	}
	p.GatingPlugin = ""
}

// moveToActiveQ puts a pod in activeQ unless it is gated, in which case it
// waits in the unschedulable pool.
func (q *PriorityQueue) moveToActiveQ(p *QueuedPodInfo, event string) bool {
	k := key(p.Pod)
	q.runPreEnqueue(p)
	if p.Gated() {
		if q.activeIndex[k] == nil && q.backoffQ[k] == nil && q.unschedulable[k] == nil {
			q.addUnschedulable(p)
		}
		return false
	}
	q.deleteUnschedulable(k)
	q.deleteBackoff(k)
	if cur := q.activeIndex[k]; cur != nil {
		cur.PodInfo = p.PodInfo
		q.noteNominated(cur)
		return true
	}
	q.seq++
	p.seq = q.seq
	heap.Push(&q.activeQ, p)
	q.activeIndex[k] = p
	q.noteNominated(p)
	return true
}

// moveToBackoffQ parks a pod until its backoff expires; a clock timer moves it on.
func (q *PriorityQueue) moveToBackoffQ(p *QueuedPodInfo) {
	k := key(p.Pod)
	q.deleteUnschedulable(k)
	q.deleteBackoff(k)
	q.backoffQ[k] = p
	q.noteNominated(p)
	q.backoffTimers[k] = q.clock.At(q.backoffTime(p), func() {
		if q.backoffQ[k] == p {
			q.moveToActiveQ(p, "BackoffComplete")
		}
	})
}

func (q *PriorityQueue) deleteBackoff(k string) {
	if t := q.backoffTimers[k]; t != nil {
		q.clock.Stop(t)
		delete(q.backoffTimers, k)
	}
	delete(q.backoffQ, k)
	q.forgetNominated(k)
}

func (q *PriorityQueue) addUnschedulable(p *QueuedPodInfo) {
	q.unschedulable[key(p.Pod)] = p
	q.noteNominated(p)
	q.ensureFlushTimer()
}

func (q *PriorityQueue) deleteUnschedulable(k string) {
	delete(q.unschedulable, k)
	q.forgetNominated(k)
}

// noteNominated records (or clears) a queued pod's nominated node.
func (q *PriorityQueue) noteNominated(p *QueuedPodInfo) {
	k := key(p.Pod)
	if n := p.Pod.Status.NominatedNodeName; n != "" {
		q.nominatedNode[k] = n
	} else {
		delete(q.nominatedNode, k)
	}
}

// forgetNominated drops a pod that has left every pool.
func (q *PriorityQueue) forgetNominated(k string) {
	if q.activeIndex[k] == nil && q.backoffQ[k] == nil && q.unschedulable[k] == nil {
		delete(q.nominatedNode, k)
	}
}

// backoffDuration doubles from 1 s per attempt, capped at 10 s.
func (q *PriorityQueue) backoffDuration(p *QueuedPodInfo) time.Duration {
	if p.Attempts == 0 {
		return 0
	}
	d := q.initialBackoff
	for i := 1; i < p.Attempts; i++ {
		if d > q.maxBackoff-d {
			return q.maxBackoff
		}
		d += d
	}
	return d
}

func (q *PriorityQueue) backoffTime(p *QueuedPodInfo) time.Time {
	return p.Timestamp.Add(q.backoffDuration(p))
}

func (q *PriorityQueue) isPodBackingoff(p *QueuedPodInfo) bool {
	return q.backoffTime(p).After(q.clock.Now())
}

// AddUnschedulableIfNotPresent returns a pod that failed its attempt: to
// the unschedulable pool when plugins rejected it (an event must help it
// first), to backoffQ when it failed for another reason (an error, no nodes).
func (q *PriorityQueue) AddUnschedulableIfNotPresent(p *QueuedPodInfo) {
	k := key(p.Pod)
	defer q.Done(p.Pod)
	if q.unschedulable[k] != nil || q.activeIndex[k] != nil || q.backoffQ[k] != nil {
		return
	}
	p.Timestamp = q.clock.Now()
	strategy := queueSkip
	if len(p.UnschedulablePlugins) == 0 && len(p.PendingPlugins) == 0 {
		strategy = queueAfterBackoff
	}
	q.requeue(p, strategy, "ScheduleAttemptFailure")
}

// requeue puts a pod where the strategy says and returns the queue's name.
func (q *PriorityQueue) requeue(p *QueuedPodInfo, strategy queueingStrategy, event string) string {
	if strategy == queueSkip {
		q.addUnschedulable(p)
		return UnschedulableQ
	}
	if strategy == queueAfterBackoff && q.isPodBackingoff(p) {
		q.moveToBackoffQ(p)
		return BackoffQ
	}
	if q.moveToActiveQ(p, event) {
		return ActiveQ
	}
	return UnschedulableQ
}

// Update records a new version of a queued pod. A pod waiting in the pool
// moves on if the change may help it (new tolerations, removed gates).
func (q *PriorityQueue) Update(oldPod, newPod *api.Pod) {
	k := key(newPod)
	if q.inFlight[k] {
		return
	}
	if p := q.activeIndex[k]; p != nil {
		p.PodInfo = framework.NewPodInfo(newPod)
		q.noteNominated(p)
		return
	}
	if p := q.backoffQ[k]; p != nil {
		p.PodInfo = framework.NewPodInfo(newPod)
		q.noteNominated(p)
		return
	}
	if p := q.unschedulable[k]; p != nil {
		p.PodInfo = framework.NewPodInfo(newPod)
		q.noteNominated(p)
		for _, evt := range framework.PodSchedulingPropertiesChange(newPod, oldPod) {
			strategy := q.isPodWorthRequeuing(p, evt, oldPod, newPod)
			if strategy == queueSkip {
				continue
			}
			q.deleteUnschedulable(k)
			if q.requeue(p, strategy, evt.Label()) != UnschedulableQ {
				break
			}
		}
		return
	}
	q.moveToActiveQ(q.newQueuedPodInfo(newPod), framework.EventUnscheduledPodUpdate.Label())
}

// Delete forgets a pod.
func (q *PriorityQueue) Delete(pod *api.Pod) {
	k := key(pod)
	if p := q.activeIndex[k]; p != nil {
		for i := range q.activeQ {
			if q.activeQ[i] == p {
				heap.Remove(&q.activeQ, i)
				break
			}
		}
		delete(q.activeIndex, k)
	}
	q.deleteBackoff(k)
	q.deleteUnschedulable(k)
	q.forgetNominated(k)
}

// MoveAllToActiveOrBackoffQueue offers an event to every pod in the pool;
// those a rejecting plugin's hint says may now fit move on. preCheck, when
// set, limits the pods considered.
func (q *PriorityQueue) MoveAllToActiveOrBackoffQueue(event framework.ClusterEvent, oldObj, newObj any, preCheck func(*api.Pod) bool) {
	if !q.isEventOfInterest(event) {
		return
	}
	var pods []*QueuedPodInfo
	for _, p := range q.sortedUnschedulable() {
		if preCheck == nil || preCheck(p.Pod) {
			pods = append(pods, p)
		}
	}
	q.movePodsToActiveOrBackoffQueue(pods, event, oldObj, newObj)
}

// AssignedPodAdded offers a newly bound pod to the pods whose affinity
// terms select it, and to pods the spreading constraints rejected.
func (q *PriorityQueue) AssignedPodAdded(pod *api.Pod) {
	q.movePodsToActiveOrBackoffQueue(q.podsWithCrossTopologyTerm(pod), framework.EventAssignedPodAdd, nil, pod)
}

// AssignedPodUpdated offers a bound pod's change: a scale-down to every
// pod, other changes to pods whose terms may care.
func (q *PriorityQueue) AssignedPodUpdated(oldPod, newPod *api.Pod, event framework.ClusterEvent) {
	if event.ActionType&framework.UpdatePodScaleDown != 0 {
		q.MoveAllToActiveOrBackoffQueue(event, oldPod, newPod, nil)
		return
	}
	q.movePodsToActiveOrBackoffQueue(q.podsWithCrossTopologyTerm(newPod), event, oldPod, newPod)
}

func (q *PriorityQueue) podsWithCrossTopologyTerm(pod *api.Pod) []*QueuedPodInfo {
	var ns labels.Set
	if q.nsLabels != nil {
		ns = q.nsLabels(pod.Namespace)
	}
	var out []*QueuedPodInfo
	for _, p := range q.sortedUnschedulable() {
		if p.UnschedulablePlugins[names.PodTopologySpread] && p.Pod.Namespace == pod.Namespace {
			out = append(out, p)
			continue
		}
		for i := range p.RequiredAffinityTerms {
			if p.RequiredAffinityTerms[i].Matches(pod, ns) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func (q *PriorityQueue) movePodsToActiveOrBackoffQueue(pods []*QueuedPodInfo, event framework.ClusterEvent, oldObj, newObj any) {
	if !q.isEventOfInterest(event) {
		return
	}
	for _, p := range pods {
		strategy := q.isPodWorthRequeuing(p, event, oldObj, newObj)
		if strategy == queueSkip {
			continue
		}
		q.deleteUnschedulable(key(p.Pod))
		q.requeue(p, strategy, event.Label())
	}
	q.moveRequestCycle = q.schedulingCycle
}

// sortedUnschedulable lists the pool in a fixed order (oldest first), so
// the order pods move in never depends on map iteration.
func (q *PriorityQueue) sortedUnschedulable() []*QueuedPodInfo {
	if len(q.unschedulable) == 0 {
		return nil // every placed pod asks; most of the time none waits
	}
	out := make([]*QueuedPodInfo, 0, len(q.unschedulable))
	for _, p := range q.unschedulable {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Timestamp.Equal(out[j].Timestamp) {
			return out[i].Timestamp.Before(out[j].Timestamp)
		}
		return key(out[i].Pod) < key(out[j].Pod)
	})
	return out
}

func (q *PriorityQueue) isEventOfInterest(event framework.ClusterEvent) bool {
	if event.IsWildCard() {
		return true
	}
	for _, regs := range q.hints {
		for _, r := range regs {
			if r.Event.Match(event) {
				return true
			}
		}
	}
	return false
}

// isPodWorthRequeuing asks the hints of the plugins that rejected the pod.
func (q *PriorityQueue) isPodWorthRequeuing(p *QueuedPodInfo, event framework.ClusterEvent, oldObj, newObj any) queueingStrategy {
	rejectors := map[string]bool{}
	for n := range p.UnschedulablePlugins {
		rejectors[n] = true
	}
	for n := range p.PendingPlugins {
		rejectors[n] = true
	}
	if len(rejectors) == 0 || event.IsWildCard() {
		return queueAfterBackoff
	}
	plugins := make([]string, 0, len(rejectors))
	for n := range rejectors {
		plugins = append(plugins, n)
	}
	sort.Strings(plugins)
	strategy := queueSkip
	for _, name := range plugins {
		for _, reg := range q.hints[name] {
			if !reg.Event.Match(event) {
				continue
			}
			hint := framework.Queue
			if reg.QueueingHintFn != nil {
				hint = reg.QueueingHintFn(p.Pod, oldObj, newObj)
			}
			if hint == framework.QueueSkip {
				continue
			}
			if p.PendingPlugins[name] {
				return queueImmediately
			}
			strategy = queueAfterBackoff
		}
	}
	return strategy
}

// ensureFlushTimer arms the check for pods that have waited in the pool
// longer than 5 minutes. Upstream checks every 30 s from start; the timer
// fires on that same grid, but only when some pod is due.
func (q *PriorityQueue) ensureFlushTimer() {
	if q.flushTimer != nil || len(q.unschedulable) == 0 {
		return
	}
	var earliest time.Time
	for _, p := range q.unschedulable {
		if earliest.IsZero() || p.Timestamp.Before(earliest) {
			earliest = p.Timestamp
		}
	}
	due := earliest.Add(q.maxInUnschedulable)
	ticks := due.Sub(q.start)/flushUnschedulableInterval + 1
	at := q.start.Add(ticks * flushUnschedulableInterval)
	for !at.After(q.clock.Now()) {
		at = at.Add(flushUnschedulableInterval)
	}
	q.flushTimer = q.clock.At(at, func() {
		q.flushTimer = nil
		q.flushUnschedulablePodsLeftover()
		q.ensureFlushTimer()
	})
}

// flushUnschedulablePodsLeftover moves pods that have waited more than
// podMaxInUnschedulablePodsDuration on, whatever rejected them.
func (q *PriorityQueue) flushUnschedulablePodsLeftover() {
	now := q.clock.Now()
	var due []*QueuedPodInfo
	for _, p := range q.sortedUnschedulable() {
		if now.Sub(p.Timestamp) > q.maxInUnschedulable {
			due = append(due, p)
		}
	}
	if len(due) > 0 {
		q.movePodsToActiveOrBackoffQueue(due, framework.EventUnschedulableTimeout, nil, nil)
	}
}

// Where reports which queue holds a pod ("" when none).
func (q *PriorityQueue) Where(namespace, name string) string {
	k := namespace + "/" + name
	switch {
	case q.activeIndex[k] != nil:
		return ActiveQ
	case q.backoffQ[k] != nil:
		return BackoffQ
	case q.unschedulable[k] != nil:
		return UnschedulableQ
	}
	return ""
}

// Get returns a queued pod's info.
func (q *PriorityQueue) Get(namespace, name string) (*QueuedPodInfo, bool) {
	k := namespace + "/" + name
	for _, m := range []map[string]*QueuedPodInfo{q.activeIndex, q.backoffQ, q.unschedulable} {
		if p := m[k]; p != nil {
			return p, true
		}
	}
	return nil, false
}

// Len is the number of pods in all three queues.
func (q *PriorityQueue) Len() int { return len(q.activeQ) + len(q.backoffQ) + len(q.unschedulable) }

// ActiveLen is the number of pods ready to be tried now.
func (q *PriorityQueue) ActiveLen() int { return len(q.activeQ) }

// NominatedPods lists queued pods nominated (by preemption) for node.
func (q *PriorityQueue) NominatedPods(node string) []*api.Pod { return q.NominatedPodsByNode()[node] }

// NominatedPodsByNode lists the queued pods nominated (by preemption) to
// each node, each list in key order.
func (q *PriorityQueue) NominatedPodsByNode() map[string][]*api.Pod {
	if len(q.nominatedNode) == 0 {
		return nil
	}
	out := map[string][]*api.Pod{}
	for k, n := range q.nominatedNode {
		for _, m := range []map[string]*QueuedPodInfo{q.activeIndex, q.backoffQ, q.unschedulable} {
			if p := m[k]; p != nil {
				out[n] = append(out[n], p.Pod)
				break
			}
		}
	}
	for _, pods := range out {
		sort.Slice(pods, func(i, j int) bool { return key(pods[i]) < key(pods[j]) })
	}
	return out
}
