package job

import (
	"sort"
	"strconv"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/controller"
)

const (
	completionIndexEnvName = "JOB_COMPLETION_INDEX"
	unknownCompletionIndex = -1
	// maxGeneratedNameLength leaves room for the API server's five
	// random characters in a 63-character name.
	maxGeneratedNameLength = 58
)

func isIndexedJob(j *api.Job) bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion
}

// interval is a run of indexes, both ends included.
type interval struct{ First, Last int }

// orderedIntervals is a sorted set of indexes kept as disjoint, non-adjacent
// runs: status.completedIndexes ("1,3-5,7") in memory.
type orderedIntervals []interval

// parseIndexesFromString reads a completedIndexes string, dropping indexes
// at or past completions and skipping corrupt pieces, as upstream does.
func parseIndexesFromString(s string, completions int) orderedIntervals {
	if s == "" {
		return nil
	}
	var out orderedIntervals
	for _, part := range strings.Split(s, ",") {
		ends := strings.Split(part, "-")
		first, err := strconv.Atoi(ends[0])
		if err != nil || first < 0 {
			continue
		}
		if first >= completions {
			break
		}
		last := first
		if len(ends) > 1 {
			if last, err = strconv.Atoi(ends[1]); err != nil || last < first {
				continue
			}
			if last >= completions {
				last = completions - 1
			}
		}
		out = out.merge(interval{first, last})
	}
	return out
}

// merge appends iv, joining it with the last run when they touch. iv must
// not start before the last run.
func (oi orderedIntervals) merge(iv interval) orderedIntervals {
	if n := len(oi); n > 0 && iv.First <= oi[n-1].Last+1 {
		if iv.Last > oi[n-1].Last {
			oi[n-1].Last = iv.Last
		}
		return oi
	}
	return append(oi, iv)
}

// withOrderedIndexes returns a new set with the sorted indexes added.
func (oi orderedIntervals) withOrderedIndexes(indexes []int) orderedIntervals {
	var out orderedIntervals
	i, j := 0, 0
	for i < len(oi) || j < len(indexes) {
		if j == len(indexes) || (i < len(oi) && oi[i].First < indexes[j]) {
			out = out.merge(oi[i])
			i++
		} else {
			out = out.merge(interval{indexes[j], indexes[j]})
			j++
		}
	}
	return out
}

func (oi orderedIntervals) total() int {
	n := 0
	for _, iv := range oi {
		n += iv.Last - iv.First + 1
	}
	return n
}

// String writes runs of two as "a,b" and longer runs as "a-b".
func (oi orderedIntervals) String() string {
	var b strings.Builder
	for _, iv := range oi {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(iv.First))
		switch {
		case iv.Last == iv.First+1:
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(iv.Last))
		case iv.Last > iv.First:
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(iv.Last))
		}
	}
	return b.String()
}

func (oi orderedIntervals) has(ix int) bool {
	k := sort.Search(len(oi), func(i int) bool { return oi[i].Last >= ix })
	return k < len(oi) && oi[k].First <= ix
}

// calculateSucceededIndexes returns the indexes already in status and
// those plus the indexes of succeeded pods not yet counted (they still
// carry the tracking finalizer).
func calculateSucceededIndexes(j *api.Job, pods []*api.Pod) (prev, now orderedIntervals) {
	completions := int(*j.Spec.Completions)
	prev = parseIndexesFromString(j.Status.CompletedIndexes, completions)
	seen := map[int]bool{}
	var fresh []int
	for _, p := range pods {
		ix := getCompletionIndex(p.Annotations)
		if p.Status.Phase == api.PodSucceeded && ix != unknownCompletionIndex && ix < completions && hasJobTrackingFinalizer(p) && !seen[ix] {
			seen[ix] = true
			fresh = append(fresh, ix)
		}
	}
	sort.Ints(fresh)
	return prev, prev.withOrderedIndexes(fresh)
}

// firstPendingIndexes returns up to count indexes below completions that
// neither succeeded nor have an active pod, lowest first.
func firstPendingIndexes(activePods []*api.Pod, succeeded orderedIntervals, count, completions int) []int {
	if count <= 0 {
		return nil
	}
	var active []int
	seen := map[int]bool{}
	for _, p := range activePods {
		if ix := getCompletionIndex(p.Annotations); ix != unknownCompletionIndex && !seen[ix] {
			seen[ix] = true
			active = append(active, ix)
		}
	}
	sort.Ints(active)
	busy := succeeded.withOrderedIndexes(active)
	var out []int
	candidate := 0
	for _, iv := range busy {
		for ; candidate < completions && len(out) < count && candidate < iv.First; candidate++ {
			out = append(out, candidate)
		}
		if candidate <= iv.Last {
			candidate = iv.Last + 1
		}
	}
	for ; candidate < completions && len(out) < count; candidate++ {
		out = append(out, candidate)
	}
	return out
}

// appendDuplicatedIndexPodsForRemoval moves to rm every active pod with no
// index, an index out of range, or an index another pod also holds (all
// but the most advanced of each group); the others go to left.
func appendDuplicatedIndexPodsForRemoval(rm, left, pods []*api.Pod, completions int) ([]*api.Pod, []*api.Pod) {
	sorted := append([]*api.Pod(nil), pods...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return getCompletionIndex(sorted[i].Annotations) < getCompletionIndex(sorted[j].Annotations)
	})
	for start := 0; start < len(sorted); {
		ix := getCompletionIndex(sorted[start].Annotations)
		end := start + 1
		for end < len(sorted) && getCompletionIndex(sorted[end].Annotations) == ix {
			end++
		}
		group := sorted[start:end]
		switch {
		case ix == unknownCompletionIndex || ix >= completions:
			rm = append(rm, group...)
		case len(group) == 1:
			left = append(left, group[0])
		default:
			sortActivePods(group)
			rm = append(rm, group[:len(group)-1]...)
			left = append(left, group[len(group)-1])
		}
		start = end
	}
	return rm, left
}

// sortActivePods orders pods cheapest to delete first, by the shared
// ranking with no node spreading.
func sortActivePods(pods []*api.Pod) {
	sort.Sort(controller.ActivePodsWithRanks{Pods: pods, Rank: make([]int, len(pods))})
}

// getCompletionIndex reads the completion-index annotation, or -1.
func getCompletionIndex(annotations map[string]string) int {
	v, ok := annotations[api.JobCompletionIndexAnnotation]
	if !ok {
		return unknownCompletionIndex
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return unknownCompletionIndex
	}
	return i
}

// addCompletionIndexEnvVariables gives every container JOB_COMPLETION_INDEX
// from the pod's index label (PodIndexLabel is on in v1.32).
func addCompletionIndexEnvVariables(t *api.PodTemplateSpec) {
	for i := range t.Spec.InitContainers {
		addCompletionIndexEnvVariable(&t.Spec.InitContainers[i])
	}
	for i := range t.Spec.Containers {
		addCompletionIndexEnvVariable(&t.Spec.Containers[i])
	}
}

func addCompletionIndexEnvVariable(c *api.Container) {
	for _, e := range c.Env {
		if e.Name == completionIndexEnvName {
			return
		}
	}
	c.Env = append(c.Env, api.EnvVar{
		Name: completionIndexEnvName,
		ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{
			FieldPath: "metadata.labels['" + api.JobCompletionIndexAnnotation + "']",
		}},
	})
}

// addCompletionIndex marks a pod template with its index: annotation,
// label and hostname.
func addCompletionIndex(t *api.PodTemplateSpec, jobName string, ix int) {
	v := strconv.Itoa(ix)
	if t.Annotations == nil {
		t.Annotations = map[string]string{}
	}
	t.Annotations[api.JobCompletionIndexAnnotation] = v
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels[api.JobCompletionIndexAnnotation] = v
	t.Spec.Hostname = jobName + "-" + v
}

// podGenerateNameWithIndex is "<job>-<index>-", the job name cut short when
// the whole would not fit.
func podGenerateNameWithIndex(jobName string, ix int) string {
	suffix := "-" + strconv.Itoa(ix) + "-"
	prefix := jobName + suffix
	if len(prefix) > maxGeneratedNameLength {
		prefix = prefix[:maxGeneratedNameLength-len(suffix)] + suffix
	}
	return prefix
}
