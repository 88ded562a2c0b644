package scheduler

import (
	"errors"
	"fmt"
	"sort"

	"kubeplay/core/api"
	"kubeplay/core/client"
	"kubeplay/core/scheduler/framework"
	"kubeplay/core/scheduler/internal/queue"
)

// Upstream's bounds for scanning part of a large cluster.
const (
	minFeasibleNodesToFind           = 100
	minFeasibleNodesPercentageToFind = 5
)

// noteLengthLimit is the longest event message the API accepts.
const noteLengthLimit = 1024

// scheduleResult is a successful cycle's outcome.
type scheduleResult struct {
	suggestedHost  string
	evaluatedNodes int
	feasibleNodes  int
}

// scheduleOne takes one pod through a scheduling cycle (filter, score,
// select, assume) and a binding cycle (bind, record).
func (s *Scheduler) scheduleOne(p *queue.QueuedPodInfo) {
	pod := p.Pod
	if s.skipPodSchedule(pod) {
		s.queue.Done(pod)
		return
	}
	d := &Decision{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Time: s.clock.Now(), Attempt: p.Attempts, Cycle: s.queue.SchedulingCycle()}
	s.decisions[pod.Namespace+"/"+pod.Name] = d
	state := framework.NewCycleState()
	state.SetPodShape(s.shapeOf(pod))
	result, err := s.schedulePod(state, pod, d)
	if err != nil {
		s.handleScheduleError(state, p, err, d)
		return
	}
	// Upstream deep-copies the pod; the assumed copy here is shallow (3.4
	// KB a pod less): the cache and the binding cycle only read it, and
	// the informer's object whose slices and maps it shares is never
	// written either.
	shallow := *pod
	assumed := &shallow
	assumed.Spec.NodeName = result.suggestedHost
	if err := s.cache.AssumePod(assumed); err != nil {
		s.handleSchedulingFailure(p, framework.AsStatus(err), nil, d)
		return
	}
	d.SelectedNode = result.suggestedHost
	s.bindingCycle(p, assumed, result, d)
}

// shapeOf numbers the pod's shape: the number of the pod before it when
// the two are shaped alike, else the next.
func (s *Scheduler) shapeOf(pod *api.Pod) int64 {
	if s.unshaped || s.shapedPod == nil || !framework.SamePodShape(s.shapedPod, pod) {
		s.podShape++
	}
	s.shapedPod = pod
	return s.podShape
}

// skipPodSchedule drops pods being deleted, and pods already assumed.
func (s *Scheduler) skipPodSchedule(pod *api.Pod) bool {
	if pod.DeletionTimestamp != nil {
		s.recorder.Eventf(pod, "Warning", "FailedScheduling", "skip schedule deleting pod: %v/%v", pod.Namespace, pod.Name)
		return true
	}
	return s.cache.IsAssumedPod(pod)
}

// handleScheduleError runs preemption for a FitError, then records the failure.
func (s *Scheduler) handleScheduleError(state *framework.CycleState, p *queue.QueuedPodInfo, err error, d *Decision) {
	if errors.Is(err, framework.ErrNoNodesAvailable) {
		s.handleSchedulingFailure(p, framework.NewStatus(framework.UnschedulableAndUnresolvable).WithError(err), clearNominatedNode(), d)
		return
	}
	var fitErr *framework.FitError
	if !errors.As(err, &fitErr) {
		s.handleSchedulingFailure(p, framework.AsStatus(err), clearNominatedNode(), d)
		return
	}
	nominated, st := s.postFilter(state, p.Pod, fitErr.Diagnosis.NodeToStatus)
	if msg := st.Message(); msg != "" {
		fitErr.Diagnosis.PostFilterMsg = "preemption: " + msg
	}
	if nominated != nil {
		d.NominatedNode = *nominated
	}
	s.handleSchedulingFailure(p, framework.NewStatus(framework.Unschedulable).WithError(fitErr), nominated, d)
}

func clearNominatedNode() *string {
	empty := ""
	return &empty
}

// schedulePod finds the node for a pod, or a FitError saying why none.
func (s *Scheduler) schedulePod(state *framework.CycleState, pod *api.Pod, d *Decision) (scheduleResult, error) {
	s.cache.UpdateSnapshot(s.snapshot)
	s.handle.lister = s.snapshot
	s.nominated = s.queue.NominatedPodsByNode()
	all := s.snapshot.List()
	d.NumAllNodes = len(all)
	if len(all) == 0 {
		return scheduleResult{}, framework.ErrNoNodesAvailable
	}
	feasible, diagnosis, err := s.findNodesThatFitPod(state, pod)
	s.recordFilterVerdicts(d, feasible, diagnosis)
	if err != nil {
		return scheduleResult{}, err
	}
	if len(feasible) == 0 {
		d.EvaluatedNodes = diagnosis.NodeToStatus.Len()
		return scheduleResult{}, &framework.FitError{Pod: pod, NumAllNodes: len(all), Diagnosis: diagnosis}
	}
	d.EvaluatedNodes = len(feasible) + diagnosis.NodeToStatus.Len()
	d.FeasibleNodes = len(feasible)
	if len(feasible) == 1 {
		return scheduleResult{suggestedHost: feasible[0].Node().Name, evaluatedNodes: d.EvaluatedNodes, feasibleNodes: 1}, nil
	}
	scores, err := s.prioritizeNodes(state, pod, feasible)
	if err != nil {
		return scheduleResult{}, err
	}
	s.recordScores(d, scores, feasible)
	host := s.selectHost(scores)
	s.fwk.RecycleScores(scores)
	return scheduleResult{suggestedHost: host, evaluatedNodes: d.EvaluatedNodes, feasibleNodes: len(feasible)}, nil
}

// findNodesThatFitPod runs PreFilter, then Filter over the nodes from the
// rotating start index until enough feasible ones are found.
func (s *Scheduler) findNodesThatFitPod(state *framework.CycleState, pod *api.Pod) ([]*framework.NodeInfo, framework.Diagnosis, error) {
	diagnosis := framework.Diagnosis{NodeToStatus: framework.NewDefaultNodeToStatus()}
	all := s.snapshot.List()
	preRes, st, narrowed := s.fwk.RunPreFilterPlugins(state, pod)
	diagnosis.UnschedulablePlugins = narrowed
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, diagnosis, st.AsError()
		}
		// Every node gets the PreFilter status, for preemption to read.
		diagnosis.NodeToStatus.SetAbsentNodesStatus(st)
		diagnosis.PreFilterMsg = st.Message()
		diagnosis.AddPluginStatus(st)
		return nil, diagnosis, nil
	}
	// A node nominated by an earlier preemption is likely the only fit: try it first.
	if pod.Status.NominatedNodeName != "" {
		if ni, ok := s.snapshot.Get(pod.Status.NominatedNodeName); ok {
			feasible, err := s.findNodesThatPassFilters(state, pod, &diagnosis, []*framework.NodeInfo{ni}, false)
			if err != nil {
				return nil, diagnosis, err
			}
			if len(feasible) > 0 {
				return feasible, diagnosis, nil
			}
		}
	}
	nodes := all
	if !preRes.AllNodes() {
		nodes = nil
		for _, ni := range all {
			if preRes.NodeNames[ni.Node().Name] {
				nodes = append(nodes, ni)
			}
		}
		diagnosis.NodeToStatus.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable,
			fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", sortedNames(narrowed))))
	}
	feasible, err := s.findNodesThatPassFilters(state, pod, &diagnosis, nodes, true)
	processed := len(feasible) + diagnosis.NodeToStatus.Len()
	s.nextStartNodeIndex = (s.nextStartNodeIndex + processed) % len(all)
	return feasible, diagnosis, err
}

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// findNodesThatPassFilters filters nodes in turn from nextStartNodeIndex
// (when rotate) and stops once numFeasibleNodesToFind fit.
func (s *Scheduler) findNodesThatPassFilters(state *framework.CycleState, pod *api.Pod, diagnosis *framework.Diagnosis, nodes []*framework.NodeInfo, rotate bool) ([]*framework.NodeInfo, error) {
	n := len(nodes)
	if n == 0 {
		return nil, nil
	}
	want := s.numFeasibleNodesToFind(int32(n))
	start := 0
	if rotate {
		start = s.nextStartNodeIndex
	}
	// The list lives until the cycle ends (the kept scores hold names), so
	// each cycle reuses the last one's.
	feasible := s.feasibleScratch[:0]
	defer func() { s.feasibleScratch = feasible[:0] }()
	for i := 0; i < n; i++ {
		ni := nodes[(start+i)%n]
		st := s.runFilterPluginsWithNominatedPods(state, pod, ni)
		if st.Code() == framework.Error {
			return feasible, st.AsError()
		}
		if st.IsSuccess() {
			feasible = append(feasible, ni)
			if int32(len(feasible)) >= want {
				break
			}
			continue
		}
		diagnosis.NodeToStatus.Set(ni.Node().Name, st)
		diagnosis.AddPluginStatus(st)
	}
	return feasible, nil
}

// numFeasibleNodesToFind: every node below 100; above, an adaptive share
// (50% minus 1% per 125 nodes, at least 5%), never fewer than 100.
func (s *Scheduler) numFeasibleNodesToFind(numAllNodes int32) int32 {
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	pct := s.percentageOfNodesToScore
	if pct == 0 {
		pct = 50 - numAllNodes/125
		if pct < minFeasibleNodesPercentageToFind {
			pct = minFeasibleNodesPercentageToFind
		}
	}
	n := numAllNodes * pct / 100
	if n < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return n
}

// prioritizeNodes runs PreScore and Score over the feasible nodes.
func (s *Scheduler) prioritizeNodes(state *framework.CycleState, pod *api.Pod, nodes []*framework.NodeInfo) (*framework.NodeScores, error) {
	if !s.fwk.HasScorePlugins() {
		out := &framework.NodeScores{Names: make([]string, len(nodes)), Totals: make([]int64, len(nodes))}
		for i, n := range nodes {
			out.Names[i], out.Totals[i] = n.Node().Name, 1
		}
		return out, nil
	}
	if st := s.fwk.RunPreScorePlugins(state, pod, nodes); !st.IsSuccess() {
		return nil, st.AsError()
	}
	scores, st := s.fwk.RunScorePlugins(state, pod, nodes)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	return scores, nil
}

// selectHost picks a node with the highest total, choosing among equals by
// reservoir sampling with the seeded random source.
func (s *Scheduler) selectHost(scores *framework.NodeScores) string {
	best := 0
	count := 1
	for i := 1; i < scores.Len(); i++ {
		switch {
		case scores.Totals[i] > scores.Totals[best]:
			best, count = i, 1
		case scores.Totals[i] == scores.Totals[best]:
			count++
			if s.rand.Intn(count) == 0 {
				best = i
			}
		}
	}
	return scores.Names[best]
}

// bindingCycle binds the assumed pod and records the Scheduled event.
func (s *Scheduler) bindingCycle(p *queue.QueuedPodInfo, assumed *api.Pod, result scheduleResult, d *Decision) {
	s.queue.Done(assumed)
	err := s.client.Bind(assumed.Namespace, &api.Binding{
		ObjectMeta: api.ObjectMeta{Namespace: assumed.Namespace, Name: assumed.Name, UID: assumed.UID},
		Target:     api.ObjectReference{Kind: "Node", Name: result.suggestedHost},
	})
	if err != nil {
		// The bind failed: give back the room assumed for the pod, and let
		// others waiting for room try again.
		if ferr := s.cache.ForgetPod(assumed); ferr == nil {
			s.queue.MoveAllToActiveOrBackoffQueue(framework.EventAssignedPodDelete, assumed, nil, nil)
		}
		d.SelectedNode = ""
		s.handleSchedulingFailure(p, framework.AsStatus(err), clearNominatedNode(), d)
		return
	}
	d.Reason = "Scheduled"
	d.Message = "Successfully assigned " + assumed.Namespace + "/" + assumed.Name + " to " + result.suggestedHost
	s.recorder.Event(assumed, "Normal", "Scheduled", d.Message)
}

// handleSchedulingFailure records a failed attempt: the pod goes back to
// the queue (unless it was bound or deleted meanwhile), a FailedScheduling
// event is written, and PodScheduled becomes False with the same message.
func (s *Scheduler) handleSchedulingFailure(p *queue.QueuedPodInfo, status *framework.Status, nominated *string, d *Decision) {
	reason := api.PodReasonSchedulerError
	if status.IsRejected() {
		reason = api.PodReasonUnschedulable
	}
	pod := p.Pod
	err := status.AsError()
	errMsg := status.Message()
	var fitErr *framework.FitError
	if errors.As(err, &fitErr) {
		p.UnschedulablePlugins = fitErr.Diagnosis.UnschedulablePlugins
		p.PendingPlugins = fitErr.Diagnosis.PendingPlugins
	}
	if o, ok := s.podInf.Get(pod.Namespace, pod.Name); !ok || o.(*api.Pod).Spec.NodeName != "" {
		s.queue.Done(pod)
	} else {
		p.PodInfo = framework.NewPodInfo(o.(*api.Pod))
		s.queue.AddUnschedulableIfNotPresent(p)
	}
	if err == nil {
		return
	}
	msg := truncateMessage(errMsg)
	d.Reason, d.Message = reason, msg
	s.recorder.Event(pod, "Warning", "FailedScheduling", msg)
	s.updatePodStatus(pod, &api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: reason, Message: errMsg}, nominated)
}

func truncateMessage(m string) string {
	if len(m) <= noteLengthLimit {
		return m
	}
	const suffix = " ..."
	return m[:noteLengthLimit-len(suffix)] + suffix
}

// updatePodStatus sets a condition and the nominated node, writing only
// when something changes.
func (s *Scheduler) updatePodStatus(pod *api.Pod, cond *api.PodCondition, nominated *string) {
	cur, err := client.Get[*api.Pod](s.client, pod.Namespace, pod.Name)
	if err != nil || cur.UID != pod.UID {
		return
	}
	cur = cur.DeepCopy()
	changed := false
	if nominated != nil && cur.Status.NominatedNodeName != *nominated {
		cur.Status.NominatedNodeName = *nominated
		changed = true
	}
	if cond != nil && api.UpdatePodCondition(&cur.Status, cond, api.NewTime(s.clock.Now())) {
		changed = true
	}
	if changed {
		_, _ = client.UpdateStatus(s.client, cur)
	}
}

// recordFilterVerdicts fills the decision's node list after filtering.
func (s *Scheduler) recordFilterVerdicts(d *Decision, feasible []*framework.NodeInfo, diag framework.Diagnosis) {
	dt := &decisionDetail{nodes: s.nodeNames(), diagnosis: diag}
	if len(feasible) == 1 {
		dt.feasible = []string{feasible[0].Node().Name}
	}
	d.detail = dt
	s.keepDetail(d)
}

func (s *Scheduler) recordScores(d *Decision, scores *framework.NodeScores, nodes []*framework.NodeInfo) {
	if d.detail != nil {
		d.detail.scores = s.keepScores(scores, nodes)
	}
}
