package helper

import "kubeplay/core/scheduler/framework"

// DefaultNormalizeScore scales scores so the highest becomes maxPriority;
// reverse flips them so the lowest raw score ranks best. When every score
// is 0 they stay 0 (or all become maxPriority when reversed).
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores framework.NodeScoreList) *framework.Status {
	var maxCount int64
	for i := range scores {
		if scores[i].Score > maxCount {
			maxCount = scores[i].Score
		}
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i].Score = maxPriority
			}
		}
		return nil
	}
	for i := range scores {
		s := maxPriority * scores[i].Score / maxCount
		if reverse {
			s = maxPriority - s
		}
		scores[i].Score = s
	}
	return nil
}
