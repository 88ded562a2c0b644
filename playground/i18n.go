package playground

import "strings"

// Text is the page's interface text in one language.
type Text struct {
	Lang                                       string
	Play, Pause, Speed, Step, StepLabel, Clock string
	Cluster, Unscheduled, NoNodes, Pods        string
	Zone, NoZone, Nodes                        string
	Elapsed                                    string
	// Legend: the pod classes in words.
	Legend map[string]string
}

var texts = map[string]Text{
	"en": {
		Lang: "en", Play: "Play", Pause: "Pause", Speed: "Speed", Step: "+10s", StepLabel: "Let 10 seconds pass",
		Clock: "Virtual time", Cluster: "Cluster", Unscheduled: "Not scheduled yet", NoNodes: "No nodes: apply a Node manifest to add one.",
		Pods: "pods", Elapsed: "since start", Zone: "zone", NoZone: "no zone", Nodes: "nodes",
		Legend: map[string]string{"ok": "Running, ready", "warn": "Running, not ready", "pending": "Pending",
			"fail": "Failing", "done": "Completed", "term": "Terminating"},
	},
	"zh": {
		Lang: "zh", Play: "播放", Pause: "暂停", Speed: "速度", Step: "+10秒", StepLabel: "让 10 秒过去",
		Clock: "虚拟时间", Cluster: "集群", Unscheduled: "尚未调度", NoNodes: "没有节点：应用一个 Node 清单来添加节点。",
		Pods: "个 Pod", Elapsed: "自启动", Zone: "可用区", NoZone: "无可用区", Nodes: "个节点",
		Legend: map[string]string{"ok": "运行中，已就绪", "warn": "运行中，未就绪", "pending": "等待中",
			"fail": "出错", "done": "已完成", "term": "终止中"},
	},
}

// TextFor picks the interface text for a BCP 47 language tag ("zh-CN" →
// Chinese); English otherwise.
func TextFor(lang string) Text {
	if strings.HasPrefix(strings.ToLower(lang), "zh") {
		return texts["zh"]
	}
	return texts["en"]
}

// Labels are the picture's words.
func (t Text) Labels() Labels {
	return Labels{Unscheduled: t.Unscheduled, NoNodes: t.NoNodes, Pods: t.Pods, Zone: t.Zone, NoZone: t.NoZone, Nodes: t.Nodes}
}

// LegendOrder is the order the legend lists the pod classes in.
var LegendOrder = []string{"ok", "warn", "pending", "fail", "done", "term"}

// Icon is the shape that goes with a pod class.
func Icon(class string) string { return podIcons[class] }
