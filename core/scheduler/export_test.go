package scheduler

// GiveEveryPodItsOwnShape makes s keep no node-local answers from one pod
// to the next, for tests to compare against.
func GiveEveryPodItsOwnShape(s *Scheduler) { s.unshaped = true }
