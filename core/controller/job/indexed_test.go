package job

import (
	"reflect"
	"strconv"
	"testing"

	"kubeplay/core/api"
)

func TestCompletedIndexesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in          string
		completions int
		want        string
		total       int
	}{
		{"", 5, "", 0},
		{"0", 5, "0", 1},
		{"0,1", 5, "0,1", 2},
		{"0-2,4", 5, "0-2,4", 4},
		{"1,2,3", 5, "1-3", 3},
		{"3-9", 5, "3,4", 2},
		{"7", 5, "", 0},
		{"x,2", 5, "2", 1},
	} {
		oi := parseIndexesFromString(tc.in, tc.completions)
		if got := oi.String(); got != tc.want || oi.total() != tc.total {
			t.Errorf("%q (completions %d): %q total %d, want %q total %d", tc.in, tc.completions, got, oi.total(), tc.want, tc.total)
		}
	}
}

func TestWithOrderedIndexes(t *testing.T) {
	for _, tc := range []struct {
		base string
		add  []int
		want string
	}{
		{"", []int{0, 1, 2}, "0-2"},
		{"1", []int{0, 2}, "0-2"},
		{"0-2,6", []int{4}, "0-2,4,6"},
		{"0-2,6", []int{3, 5}, "0-3,5,6"},
		{"2-4", []int{3}, "2-4"},
	} {
		got := parseIndexesFromString(tc.base, 100).withOrderedIndexes(tc.add).String()
		if got != tc.want {
			t.Errorf("%q + %v = %q, want %q", tc.base, tc.add, got, tc.want)
		}
	}
}

func podWithIndex(ix int) *api.Pod {
	p := &api.Pod{}
	if ix >= 0 {
		p.Annotations = map[string]string{api.JobCompletionIndexAnnotation: strconv.Itoa(ix)}
	}
	return p
}

func TestFirstPendingIndexes(t *testing.T) {
	for _, tc := range []struct {
		active      []int
		succeeded   string
		count, comp int
		want        []int
	}{
		{nil, "", 3, 5, []int{0, 1, 2}},
		{[]int{0, 2}, "", 2, 5, []int{1, 3}},
		{[]int{1}, "0,2-3", 5, 5, []int{4}},
		{nil, "0-4", 2, 5, nil},
		{[]int{3}, "", 0, 5, nil},
	} {
		var pods []*api.Pod
		for _, ix := range tc.active {
			pods = append(pods, podWithIndex(ix))
		}
		got := firstPendingIndexes(pods, parseIndexesFromString(tc.succeeded, tc.comp), tc.count, tc.comp)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("active %v succeeded %q count %d: %v, want %v", tc.active, tc.succeeded, tc.count, got, tc.want)
		}
	}
}

// Repeated, missing and out-of-range indexes are removed first.
func TestAppendDuplicatedIndexPodsForRemoval(t *testing.T) {
	pods := []*api.Pod{podWithIndex(1), podWithIndex(-1), podWithIndex(1), podWithIndex(0), podWithIndex(7)}
	rm, left := appendDuplicatedIndexPodsForRemoval(nil, nil, pods, 5)
	if len(rm) != 3 || len(left) != 2 {
		t.Fatalf("rm %d left %d", len(rm), len(left))
	}
	for _, p := range left {
		if ix := getCompletionIndex(p.Annotations); ix != 0 && ix != 1 {
			t.Errorf("kept index %d", ix)
		}
	}
}

func TestPodGenerateNameWithIndex(t *testing.T) {
	long := "a123456789b123456789c123456789d123456789e123456789f123456789"
	for _, tc := range []struct {
		job  string
		ix   int
		want string
	}{
		{"pi", 0, "pi-0-"},
		{"pi", 12, "pi-12-"},
		{long, 3, long[:55] + "-3-"},
	} {
		if got := podGenerateNameWithIndex(tc.job, tc.ix); got != tc.want || len(got) > maxGeneratedNameLength {
			t.Errorf("%q/%d: %q, want %q", tc.job, tc.ix, got, tc.want)
		}
	}
}
