package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"text/tabwriter"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/api/resource"
	"kubeplay/core/apiserver"
)

// kubectl top reads metrics.k8s.io: what metrics-server last measured.

var errMetricsUnavailable = errors.New("Metrics API not available")

func (inv *Invocation) metricsResource(name string) (*apiserver.Resource, error) {
	res, ok := inv.Env.Client.Registry().Get("metrics.k8s.io", name)
	if !ok {
		return nil, errMetricsUnavailable
	}
	return res, nil
}

func cpuCell(q resource.Quantity) string    { return fmt.Sprintf("%dm", q.MilliValue()) }
func memoryCell(q resource.Quantity) string { return fmt.Sprintf("%dMi", q.Value()/(1<<20)) }

func runTopPod(inv *Invocation) error {
	res, err := inv.metricsResource("pods")
	if err != nil {
		return err
	}
	ns, _ := inv.Namespace()
	all := inv.Flags.Bool("all-namespaces")
	if all {
		ns = ""
	}
	sel, err := labels.Parse(inv.Flags.String("selector"))
	if err != nil {
		return err
	}
	objs, _ := inv.Env.Client.List(res, ns, apiserver.ListOptions{Filter: func(o api.Object) bool {
		return sel.Matches(labels.Set(o.GetObjectMeta().Labels))
	}})
	var pods []*api.PodMetrics
	for _, o := range objs {
		pm := o.(*api.PodMetrics)
		if len(inv.Args) > 0 && pm.Name != inv.Args[0] {
			continue
		}
		pods = append(pods, pm)
	}
	if len(pods) == 0 {
		if len(inv.Args) > 0 {
			return fmt.Errorf("podmetrics.metrics.k8s.io %q not found", inv.Args[0])
		}
		if all {
			return errors.New("metrics not available yet")
		}
		fmt.Fprintf(inv.errOut(), "No resources found in %s namespace.\n", ns)
		return nil
	}
	total := func(pm *api.PodMetrics, r string) resource.Quantity {
		var q resource.Quantity
		for _, c := range pm.Containers {
			q.Add(c.Usage[api.ResourceName(r)])
		}
		return q
	}
	switch inv.Flags.String("sort-by") {
	case "cpu":
		sort.SliceStable(pods, func(i, j int) bool { return total(pods[i], "cpu").Cmp(total(pods[j], "cpu")) > 0 })
	case "memory":
		sort.SliceStable(pods, func(i, j int) bool { return total(pods[i], "memory").Cmp(total(pods[j], "memory")) > 0 })
	}
	tw := tabwriter.NewWriter(inv.out(), 10, 4, 3, ' ', 0)
	containers := inv.Flags.Bool("containers")
	if !inv.Flags.Bool("no-headers") {
		if all {
			fmt.Fprint(tw, "NAMESPACE\t")
		}
		if containers {
			fmt.Fprint(tw, "POD\t")
		}
		fmt.Fprint(tw, "NAME\tCPU(cores)\tMEMORY(bytes)\t\n")
	}
	var sumCPU, sumMem resource.Quantity
	for _, pm := range pods {
		prefix := ""
		if all {
			prefix = pm.Namespace + "\t"
		}
		if containers {
			for _, c := range pm.Containers {
				fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\t\n", prefix, pm.Name, c.Name, cpuCell(c.Usage["cpu"]), memoryCell(c.Usage["memory"]))
			}
		} else {
			fmt.Fprintf(tw, "%s%s\t%s\t%s\t\n", prefix, pm.Name, cpuCell(total(pm, "cpu")), memoryCell(total(pm, "memory")))
		}
		sumCPU.Add(total(pm, "cpu"))
		sumMem.Add(total(pm, "memory"))
	}
	if inv.Flags.Bool("sum") {
		pad := ""
		if all {
			pad += "\t"
		}
		if containers {
			pad += "\t"
		}
		fmt.Fprintf(tw, "%s\t________\t________\t\n%s\t%s\t%s\t\n", pad, pad, cpuCell(sumCPU), memoryCell(sumMem))
	}
	return tw.Flush()
}

func runTopNode(inv *Invocation) error {
	res, err := inv.metricsResource("nodes")
	if err != nil {
		return err
	}
	sel, err := labels.Parse(inv.Flags.String("selector"))
	if err != nil {
		return err
	}
	nodesRes, _ := inv.Env.Client.Registry().Get("", "nodes")
	nodeObjs, _ := inv.Env.Client.List(nodesRes, "", apiserver.ListOptions{Filter: func(o api.Object) bool {
		return sel.Matches(labels.Set(o.GetObjectMeta().Labels)) && (len(inv.Args) == 0 || o.GetObjectMeta().Name == inv.Args[0])
	}})
	if len(nodeObjs) == 0 {
		if len(inv.Args) > 0 {
			return fmt.Errorf("nodes %q not found", inv.Args[0])
		}
		return errors.New("metrics not available yet")
	}
	metrics := map[string]*api.NodeMetrics{}
	objs, _ := inv.Env.Client.List(res, "", apiserver.ListOptions{})
	for _, o := range objs {
		metrics[o.GetObjectMeta().Name] = o.(*api.NodeMetrics)
	}
	type row struct {
		node *api.Node
		m    *api.NodeMetrics
	}
	var rows []row
	for _, o := range nodeObjs {
		n := o.(*api.Node)
		rows = append(rows, row{n, metrics[n.Name]})
	}
	switch inv.Flags.String("sort-by") {
	case "cpu", "memory":
		key := api.ResourceName(inv.Flags.String("sort-by"))
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].m == nil || rows[j].m == nil {
				return rows[j].m == nil && rows[i].m != nil
			}
			return rows[i].m.Usage[key].Cmp(rows[j].m.Usage[key]) > 0
		})
	}
	tw := tabwriter.NewWriter(inv.out(), 10, 4, 3, ' ', 0)
	if !inv.Flags.Bool("no-headers") {
		fmt.Fprint(tw, "NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\t\n")
	}
	for _, r := range rows {
		if r.m == nil {
			fmt.Fprintf(tw, "%s\t<unknown>\t<unknown>\t<unknown>\t<unknown>\t\n", r.node.Name)
			continue
		}
		capacity := r.node.Status.Allocatable
		if inv.Flags.Bool("show-capacity") {
			capacity = r.node.Status.Capacity
		}
		cpu, mem := r.m.Usage["cpu"], r.m.Usage["memory"]
		cpuPct, memPct := int64(0), int64(0)
		if c := capacity["cpu"]; c.MilliValue() > 0 {
			cpuPct = cpu.MilliValue() * 100 / c.MilliValue()
		}
		if m := capacity["memory"]; m.Value() > 0 {
			memPct = mem.Value() * 100 / m.Value()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d%%\t%s\t%d%%\t\n", r.node.Name, cpuCell(cpu), cpuPct, memoryCell(mem), memPct)
	}
	return tw.Flush()
}
