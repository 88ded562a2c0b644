package kubectl

import (
	"strings"
	"testing"

	"kubeplay/core/api"
)

func TestSmartLabelTurnsFieldNamesIntoWords(t *testing.T) {
	for field, want := range map[string]string{
		"holderIdentity":       "Holder Identity",
		"apiVersion":           "API Version",
		"uid":                  "UID",
		"leaseDurationSeconds": "Lease Duration Seconds",
		"podIPs":               "Pod I Ps",
		"PDFLoader":            "PDF Loader",
		"kubernetes.io/name":   "kubernetes.io/name",
		"$patch":               "$patch",
	} {
		if got := smartLabel(field); got != want {
			t.Errorf("smartLabel(%q) = %q, want %q", field, got, want)
		}
	}
}

func TestAnnotationsFoldLongAndMultiLineValues(t *testing.T) {
	w := newDescribeWriter()
	long := strings.Repeat("x", 150)
	w.writeAnnotations("Annotations", map[string]string{
		"a":           "short",
		"b":           long,
		"c":           "one\ntwo\n",
		lastApplied(): "{}",
	})
	want := "Annotations:  a: short\n" +
		"              b:\n" +
		"                " + strings.Repeat("x", 138) + "...\n" +
		"              c:\n" +
		"                one\n" +
		"                two\n"
	if got := w.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func lastApplied() string { return describeHiddenAnnotation }

func TestTolerationsReadAsUpstreamShorthand(t *testing.T) {
	sec := int64(300)
	w := newDescribeWriter()
	w.writeTolerations("Tolerations", []api.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &sec},
		{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
		{Key: "gpu", Operator: api.TolerationOpEqual, Value: "yes"},
	})
	want := "Tolerations:  :NoExecute op=Exists\n" +
		"              gpu=yes\n" +
		"              node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n"
	if got := w.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTaintsSortByEffectThenKey(t *testing.T) {
	w := newDescribeWriter()
	w.writeTaints("Taints", []api.Taint{
		{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoExecute},
		{Key: "monitor", Value: "true", Effect: api.TaintEffectNoSchedule},
	})
	want := "Taints:  node.kubernetes.io/unreachable:NoExecute\n" +
		"         monitor=true:NoSchedule\n" +
		"         node.kubernetes.io/unreachable:NoSchedule\n"
	if got := w.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescribeWriterEscapesTerminalControls(t *testing.T) {
	w := newDescribeWriter()
	w.write(0, "Name:\t%s\n", "evil\x1b[31m\r")
	if got, want := w.String(), "Name:  evil^[[31m\\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
