package scheduler

import (
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/scheduler/framework"
)

// DefaultPreemption's arguments: dry-run at least this share of the
// nodes, or this many.
const (
	minCandidateNodesPercentage = 10
	minCandidateNodesAbsolute   = 100
)

// candidate is a node where evicting victims makes room for the pod.
type candidate struct {
	node    string
	victims []*api.Pod
}

// postFilter is DefaultPreemption: when lower-priority pods stand in the
// way, evict the fewest and least important on the best node and nominate
// the pod there; otherwise say why preemption cannot help. It returns the
// nominated node ("" to clear one) and a status whose message, when set,
// follows "preemption: " in the FailedScheduling message.
func (s *Scheduler) postFilter(state *framework.CycleState, pod *api.Pod, m *framework.NodeToStatus) (*string, *framework.Status) {
	if ok, msg := s.podEligibleToPreemptOthers(pod, m.Get(pod.Status.NominatedNodeName)); !ok {
		return nil, framework.NewStatus(framework.Unschedulable, msg)
	}
	all := s.snapshot.List()
	candidates, statuses, err := s.findCandidates(pod, all, m)
	if err != nil && len(candidates) == 0 {
		return nil, framework.AsStatus(err)
	}
	if len(candidates) == 0 {
		fitErr := &framework.FitError{Pod: pod, NumAllNodes: len(all), Diagnosis: framework.Diagnosis{NodeToStatus: statuses}}
		statuses.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"))
		return clearNominatedNode(), framework.NewStatus(framework.Unschedulable, fitErr.Error())
	}
	best := pickOneNodeForPreemption(candidates)
	s.prepareCandidate(best, pod)
	node := best.node
	return &node, nil
}

// podEligibleToPreemptOthers: not with preemptionPolicy Never, and not
// while victims of an earlier preemption are still terminating on the
// nominated node.
func (s *Scheduler) podEligibleToPreemptOthers(pod *api.Pod, nominatedStatus *framework.Status) (bool, string) {
	if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == api.PreemptNever {
		return false, "not eligible due to preemptionPolicy=Never."
	}
	if nom := pod.Status.NominatedNodeName; nom != "" {
		if nominatedStatus.Code() == framework.UnschedulableAndUnresolvable {
			return true, ""
		}
		if ni, ok := s.snapshot.Get(nom); ok {
			for _, p := range ni.Pods {
				if framework.PodPriority(p.Pod) < framework.PodPriority(pod) && terminatingByPreemption(p.Pod) {
					return false, "not eligible due to a terminating pod on the nominated node."
				}
			}
		}
	}
	return true, ""
}

func terminatingByPreemption(p *api.Pod) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	_, c := api.GetPodCondition(&p.Status, api.DisruptionTarget)
	return c != nil && c.Status == api.ConditionTrue && c.Reason == api.PodReasonPreemptionByScheduler
}

// findCandidates dry-runs preemption on the nodes that failed with a plain
// Unschedulable (an unresolvable failure is not helped by evicting pods),
// from a random offset, until enough candidates are found.
func (s *Scheduler) findCandidates(pod *api.Pod, all []*framework.NodeInfo, m *framework.NodeToStatus) ([]candidate, *framework.NodeToStatus, error) {
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("no nodes available")
	}
	var potential []*framework.NodeInfo
	for _, ni := range all {
		if m.Get(ni.Node().Name).Code() == framework.Unschedulable {
			potential = append(potential, ni)
		}
	}
	statuses := framework.NewDefaultNodeToStatus()
	if len(potential) == 0 {
		if pod.Status.NominatedNodeName != "" {
			s.updatePodStatus(pod, nil, clearNominatedNode())
		}
		return nil, statuses, nil
	}
	n := len(potential)
	offset := s.rand.Intn(n)
	want := n * minCandidateNodesPercentage / 100
	if want < minCandidateNodesAbsolute {
		want = minCandidateNodesAbsolute
	}
	if want > n {
		want = n
	}
	var out []candidate
	for i := 0; i < n && len(out) < want; i++ {
		ni := potential[(offset+i)%n]
		victims, st := s.selectVictimsOnNode(pod, ni)
		if st.IsSuccess() && len(victims) == 0 {
			st = framework.AsStatus(fmt.Errorf("expected at least one victim pod on node %q", ni.Node().Name))
		}
		if st.IsSuccess() {
			out = append(out, candidate{node: ni.Node().Name, victims: victims})
			continue
		}
		statuses.Set(ni.Node().Name, st)
	}
	return out, statuses, nil
}

// selectVictimsOnNode finds the fewest, least important lower-priority
// pods whose removal lets the pod fit: remove them all, check the pod
// fits, then give back as many as possible, most important first.
func (s *Scheduler) selectVictimsOnNode(pod *api.Pod, ni *framework.NodeInfo) ([]*api.Pod, *framework.Status) {
	var potential []*framework.PodInfo
	for _, p := range ni.Pods {
		if framework.PodPriority(p.Pod) < framework.PodPriority(pod) {
			potential = append(potential, p)
		}
	}
	if len(potential) == 0 {
		return nil, framework.NewStatus(framework.UnschedulableAndUnresolvable, "No preemption victims found for incoming pod")
	}
	trial := ni.Clone()
	for _, p := range potential {
		trial.RemovePod(p.Pod)
	}
	if st := s.fitsOnTrialNode(pod, trial); !st.IsSuccess() {
		return nil, st
	}
	sort.SliceStable(potential, func(i, j int) bool { return moreImportantPod(potential[i].Pod, potential[j].Pod) })
	var victims []*api.Pod
	for _, p := range potential {
		trial.AddPodInfo(p)
		if !s.fitsOnTrialNode(pod, trial).IsSuccess() {
			trial.RemovePod(p.Pod)
			victims = append(victims, p.Pod)
		}
	}
	return victims, nil
}

// fitsOnTrialNode runs PreFilter and Filter as if trial replaced its node
// in the snapshot (PreFilter state counts pods over all nodes, so it is
// computed afresh rather than patched).
func (s *Scheduler) fitsOnTrialNode(pod *api.Pod, trial *framework.NodeInfo) *framework.Status {
	prev := s.handle.lister
	s.handle.lister = overlay(s.snapshot.List(), trial)
	defer func() { s.handle.lister = prev }()
	state := framework.NewCycleState()
	if _, st, _ := s.fwk.RunPreFilterPlugins(state, pod); !st.IsSuccess() {
		return st
	}
	return s.fwk.RunFilterPlugins(state, pod, trial)
}

// overlay is the node list with one node replaced.
func overlay(list []*framework.NodeInfo, ni *framework.NodeInfo) framework.NodeInfoList {
	out := make(framework.NodeInfoList, len(list))
	for i, n := range list {
		if n.Node().Name == ni.Node().Name {
			out[i] = ni
		} else {
			out[i] = n
		}
	}
	return out
}

// moreImportantPod: higher priority, then the one that started earlier.
func moreImportantPod(a, b *api.Pod) bool {
	pa, pb := framework.PodPriority(a), framework.PodPriority(b)
	if pa != pb {
		return pa > pb
	}
	ta, tb := podStartTime(a), podStartTime(b)
	if ta == nil || tb == nil {
		return ta != nil
	}
	return ta.Before(tb.Time)
}

func podStartTime(p *api.Pod) *api.Time {
	return p.Status.StartTime
}

// pickOneNodeForPreemption prefers, in turn: the lowest highest-priority
// victim, the lowest sum of priorities, the fewest victims, the latest
// start of the highest-priority victims, then the first candidate.
func pickOneNodeForPreemption(cs []candidate) candidate {
	best := cs[0]
	for _, c := range cs[1:] {
		if better(c, best) {
			best = c
		}
	}
	return best
}

func better(a, b candidate) bool {
	if ha, hb := highest(a), highest(b); ha != hb {
		return ha < hb
	}
	if sa, sb := prioritySum(a), prioritySum(b); sa != sb {
		return sa < sb
	}
	if len(a.victims) != len(b.victims) {
		return len(a.victims) < len(b.victims)
	}
	ta, tb := earliestStartOfHighest(a), earliestStartOfHighest(b)
	return ta != nil && tb != nil && ta.After(tb.Time)
}

func highest(c candidate) int32 {
	h := framework.PodPriority(c.victims[0])
	for _, v := range c.victims {
		if p := framework.PodPriority(v); p > h {
			h = p
		}
	}
	return h
}

// prioritySum offsets each priority by MaxInt32+1 so that more victims
// always weigh more, even with negative priorities.
func prioritySum(c candidate) int64 {
	var sum int64
	for _, v := range c.victims {
		sum += int64(framework.PodPriority(v)) + 1<<31
	}
	return sum
}

func earliestStartOfHighest(c candidate) *api.Time {
	h := highest(c)
	var out *api.Time
	for _, v := range c.victims {
		if framework.PodPriority(v) != h {
			continue
		}
		if t := podStartTime(v); t != nil && (out == nil || t.Before(out.Time)) {
			out = t
		}
	}
	return out
}

// prepareCandidate evicts the victims: each gets a DisruptionTarget
// condition, is deleted, and gets a Preempted event.
func (s *Scheduler) prepareCandidate(c candidate, pod *api.Pod) {
	for _, v := range c.victims {
		cur, err := client.Get[*api.Pod](s.client, v.Namespace, v.Name)
		if err != nil || cur.UID != v.UID {
			continue
		}
		cur = cur.DeepCopy()
		if api.UpdatePodCondition(&cur.Status, &api.PodCondition{
			Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonPreemptionByScheduler,
			Message: fmt.Sprintf("%s: preempting to accommodate a higher priority pod", SchedulerName),
		}, api.NewTime(s.clock.Now())) {
			_, _ = client.UpdateStatus(s.client, cur)
		}
		_ = client.Delete[*api.Pod](s.client, v.Namespace, v.Name, api.DeleteOptions{})
		s.recorder.Eventf(v, "Normal", "Preempted", "Preempted by pod %v on node %v", pod.UID, c.node)
	}
	// Lower-priority pods nominated to this node lose the nomination.
	for _, np := range s.queue.NominatedPods(c.node) {
		if framework.PodPriority(np) < framework.PodPriority(pod) {
			s.updatePodStatus(np, nil, clearNominatedNode())
		}
	}
}

// runFilterPluginsWithNominatedPods filters a node as if the pods
// nominated to it with at least this pod's priority were already there,
// and, when there are any, also without them (both must pass).
func (s *Scheduler) runFilterPluginsWithNominatedPods(state *framework.CycleState, pod *api.Pod, ni *framework.NodeInfo) *framework.Status {
	var nominated []*api.Pod
	if len(s.nominated) == 0 {
		// Mostly no pod is nominated anywhere: the node's name (a cache
		// miss into its object in a big cluster) is not needed.
		return s.fwk.RunFilterPlugins(state, pod, ni)
	}
	for _, np := range s.nominated[ni.Node().Name] {
		if np.UID != pod.UID && framework.PodPriority(np) >= framework.PodPriority(pod) {
			nominated = append(nominated, np)
		}
	}
	if len(nominated) > 0 {
		trial := ni.Clone()
		for _, np := range nominated {
			p := np.DeepCopy()
			p.Spec.NodeName = ni.Node().Name
			trial.AddPod(p)
		}
		if st := s.fitsOnTrialNode(pod, trial); !st.IsSuccess() {
			return st
		}
	}
	return s.fwk.RunFilterPlugins(state, pod, ni)
}
