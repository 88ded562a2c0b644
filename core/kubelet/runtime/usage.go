package runtime

import "path"

// What a container uses, as the kubelet's cAdvisor would measure it: a
// small steady amount per program, plus whatever load a learner puts on it
// (`kubeplay load`), so the HorizontalPodAutoscaler has something to see.

// Usage is CPU in millicores and memory in bytes.
type Usage struct {
	MilliCPU int64
	Memory   int64
}

// programUsage is the idle use of the programs the images run.
func programUsage(name string) Usage {
	const mi = 1 << 20
	switch name {
	case "nginx", "docker-entrypoint.sh":
		return Usage{0, 3 * mi}
	case "sleep", "pause":
		return Usage{0, mi / 4}
	case "kube-apiserver":
		return Usage{42, 258 * mi}
	case "etcd":
		return Usage{21, 44 * mi}
	case "kube-controller-manager":
		return Usage{14, 52 * mi}
	case "kube-scheduler":
		return Usage{3, 22 * mi}
	case "coredns":
		return Usage{2, 15 * mi}
	case "kube-proxy":
		return Usage{1, 16 * mi}
	case "perl":
		return Usage{1000, 9 * mi}
	case "app":
		return Usage{1, 6 * mi}
	}
	return Usage{1, mi}
}

// Usage is what the container uses now.
func (c *Container) Usage() Usage {
	if c.Exited {
		return Usage{}
	}
	u := programUsage(path.Base(c.main.Argv[0]))
	if c.Load > 0 {
		u.MilliCPU = c.Load
	}
	return u
}
