package api

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

var (
	timeType     = reflect.TypeOf(time.Time{})
	quantityType = reflect.TypeOf(resource.Quantity{})
	objectType   = reflect.TypeOf((*Object)(nil)).Elem()
)

// filler sets every reachable field of a value. With grow it allocates nil
// pointers, slices and maps; without, it only writes through what exists,
// so mutating an original reaches everything a shallow copy would share.
type filler struct {
	seed int
	grow bool
}

func (f filler) fill(v reflect.Value, path string, depth int) {
	if depth > 40 {
		panic("fill: type too deep at " + path)
	}
	switch v.Type() {
	case timeType:
		v.Set(reflect.ValueOf(time.Date(2024, 1, 2, 3, 4, f.seed, f.seed*1000, time.UTC)))
		return
	case quantityType:
		v.Set(reflect.ValueOf(resource.MustParse(fmt.Sprint(f.seed))))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", f.seed))
	case reflect.Bool:
		v.SetBool(f.seed%2 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.seed))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.seed))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.seed))
	case reflect.Pointer:
		if v.IsNil() {
			if !f.grow {
				panic("mutate: nil pointer at " + path)
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		f.fill(v.Elem(), path, depth+1)
	case reflect.Slice:
		if v.IsNil() {
			if !f.grow {
				panic("mutate: nil slice at " + path)
			}
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		}
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			if !f.grow {
				panic("mutate: nil map at " + path)
			}
			v.Set(reflect.MakeMap(v.Type()))
			for i := 0; i < 2; i++ {
				k := reflect.New(v.Type().Key()).Elem()
				filler{seed: 100 + i, grow: true}.fill(k, path+"{key}", depth+1)
				v.SetMapIndex(k, reflect.Zero(v.Type().Elem()))
			}
		}
		for _, k := range v.MapKeys() {
			// Map values are not addressable: mutate a copy (which writes
			// through anything it shares) and store it back.
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			f.fill(e, fmt.Sprintf("%s[%v]", path, k), depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Interface:
		if v.Type() != objectType {
			panic("fill: unsupported interface at " + path)
		}
		if v.IsNil() {
			if !f.grow {
				panic("mutate: nil Object at " + path)
			}
			v.Set(reflect.ValueOf(&ConfigMap{}))
		}
		f.fill(v.Elem(), path, depth+1)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			if !sf.IsExported() {
				panic(fmt.Sprintf("fill: unexported field %s.%s at %s: teach the test about %s", t, sf.Name, path, t))
			}
			f.fill(v.Field(i), path+"."+sf.Name, depth+1)
		}
	case reflect.Func:
		// kindEntry-style function fields are shared by design.
	default:
		panic(fmt.Sprintf("fill: unsupported kind %s at %s", v.Kind(), path))
	}
}

// firstDiff names the first path where a and b differ.
func firstDiff(a, b reflect.Value, path string) string {
	if a.Type() != b.Type() {
		return path + ": types differ"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path)
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + ": lengths differ"
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return path + ": map sizes differ"
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Sprintf("%s[%v]: missing", path, k)
			}
			if d := firstDiff(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		if a.Type() == timeType || a.Type() == quantityType {
			if !reflect.DeepEqual(a.Interface(), b.Interface()) {
				return path + ": values differ"
			}
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func:
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return path + fmt.Sprintf(": %v vs %v", a.Interface(), b.Interface())
	}
	return ""
}

// checkDeepCopy fills a fresh value of newT() completely, copies it with
// copyFn, mutates the original through every pointer, slice and map, and
// checks the copy still equals an independently built original.
func checkDeepCopy(t *testing.T, name string, newT func() any, copyFn func(any) any) {
	t.Helper()
	orig, want := newT(), newT()
	filler{seed: 1, grow: true}.fill(reflect.ValueOf(orig).Elem(), name, 0)
	filler{seed: 1, grow: true}.fill(reflect.ValueOf(want).Elem(), name, 0)
	cp := copyFn(orig)
	if d := firstDiff(reflect.ValueOf(cp), reflect.ValueOf(want), name); d != "" {
		t.Fatalf("%s: copy differs from original: %s", name, d)
	}
	filler{seed: 2}.fill(reflect.ValueOf(orig).Elem(), name, 0)
	if firstDiff(reflect.ValueOf(orig), reflect.ValueOf(want), name) == "" {
		t.Fatalf("%s: mutation changed nothing; the test is broken", name)
	}
	if d := firstDiff(reflect.ValueOf(cp), reflect.ValueOf(want), name); d != "" {
		t.Errorf("%s: the copy shares memory with the original at %s", name, d)
	}
}

func TestDeepCopyEveryKindIsIndependent(t *testing.T) {
	for _, gvk := range Kinds() {
		t.Run(gvk.APIVersion()+"/"+gvk.Kind, func(t *testing.T) {
			newT := func() any { o, _ := New(gvk.APIVersion(), gvk.Kind); return o }
			checkDeepCopy(t, gvk.Kind, newT, func(o any) any { return o.(Object).DeepCopyObject() })
		})
	}
}

func TestDeepCopyValueTypesAreIndependent(t *testing.T) {
	cases := []struct {
		name string
		new  func() any
		copy func(any) any
	}{
		{"PodSpec", func() any { return &PodSpec{} }, func(o any) any { return o.(*PodSpec).DeepCopy() }},
		{"PodTemplateSpec", func() any { return &PodTemplateSpec{} }, func(o any) any { return o.(*PodTemplateSpec).DeepCopy() }},
		{"LabelSelector", func() any { return &LabelSelector{} }, func(o any) any { return o.(*LabelSelector).DeepCopy() }},
		{"ObjectMeta", func() any { return &ObjectMeta{} }, func(o any) any { return o.(*ObjectMeta).DeepCopy() }},
		{"List", func() any { return &List{} }, func(o any) any { return o.(*List).DeepCopy() }},
		{"Status", func() any { return &Status{} }, func(o any) any { return o.(*Status).DeepCopy() }},
		{"DeleteOptions", func() any { return &DeleteOptions{} }, func(o any) any { return o.(*DeleteOptions).DeepCopy() }},
		{"JobTemplateSpec", func() any { return &JobTemplateSpec{} }, func(o any) any { return o.(*JobTemplateSpec).DeepCopy() }},
		{"ResourceList", func() any { return new(ResourceList) }, func(o any) any { c := o.(*ResourceList).DeepCopy(); return &c }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkDeepCopy(t, c.name, c.new, c.copy) })
	}
}

func TestDeepCopyOfNilIsNil(t *testing.T) {
	var p *Pod
	if p.DeepCopy() != nil {
		t.Error("(*Pod)(nil).DeepCopy() != nil")
	}
	if o := p.DeepCopyObject(); o != nil {
		t.Errorf("(*Pod)(nil).DeepCopyObject() = %#v, want a nil interface", o)
	}
	var rl ResourceList
	if rl.DeepCopy() != nil {
		t.Error("nil ResourceList copied to non-nil")
	}
}

func TestDeepCopyKeepsEmptyAndNilApart(t *testing.T) {
	// JSON distinguishes [] from absent for some fields (items: []).
	l := &List{Items: []Object{}}
	if c := l.DeepCopy(); c.Items == nil {
		t.Error("empty Items became nil")
	}
	p := &Pod{ObjectMeta: ObjectMeta{Labels: map[string]string{}}}
	if c := p.DeepCopy(); c.Labels == nil {
		t.Error("empty Labels became nil")
	}
}

func TestSchemeNewEveryKind(t *testing.T) {
	seen := map[string]bool{}
	for _, gvk := range Kinds() {
		key := gvk.APIVersion() + "/" + gvk.Kind
		if seen[key] {
			t.Errorf("%s registered twice", key)
		}
		seen[key] = true
		o, ok := New(gvk.APIVersion(), gvk.Kind)
		if !ok {
			t.Fatalf("New(%s) failed", key)
		}
		if tm := o.GetTypeMeta(); tm.APIVersion != gvk.APIVersion() || tm.Kind != gvk.Kind {
			t.Errorf("New(%s) TypeMeta = %+v", key, *tm)
		}
		c := o.DeepCopyObject()
		if reflect.TypeOf(c) != reflect.TypeOf(o) || !reflect.DeepEqual(c, o) {
			t.Errorf("%s: DeepCopyObject returned %T %+v", key, c, c)
		}
		// The Go type's name carries the kind (HorizontalPodAutoscalerV1 too).
		if name := reflect.TypeOf(o).Elem().Name(); !strings.HasPrefix(name, gvk.Kind) {
			t.Errorf("%s is served by Go type %s", key, name)
		}
	}
	if _, ok := New("apps/v1beta1", "Deployment"); ok {
		t.Error("apps/v1beta1 Deployment should not be served")
	}
	if _, ok := New("batch/v1beta1", "CronJob"); ok {
		t.Error("batch/v1beta1 CronJob should not be served")
	}
}

// benchPod is a pod as the controllers produce it: owner, labels, one
// container with probes and resources, and a full running status.
func benchPod() *Pod {
	now := NewTime(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC))
	return &Pod{
		TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: ObjectMeta{
			Name: "web-7c9d8f6b5-abcde", Namespace: "default", UID: "3f1c", ResourceVersion: "1234",
			CreationTimestamp: now,
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7c9d8f6b5"},
			OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7c9d8f6b5",
				UID: "9a", Controller: Bool(true), BlockOwnerDeletion: Bool(true)}},
		},
		Spec: PodSpec{
			Containers: []Container{{
				Name: "nginx", Image: "nginx:1.25",
				Ports: []ContainerPort{{ContainerPort: 80, Protocol: ProtocolTCP}},
				Resources: ResourceRequirements{
					Limits:   ResourceList{ResourceCPU: resource.MustParse("200m"), ResourceMemory: resource.MustParse("256Mi")},
					Requests: ResourceList{ResourceCPU: resource.MustParse("100m")},
				},
				ReadinessProbe: &Probe{ProbeHandler: ProbeHandler{HTTPGet: &HTTPGetAction{Path: "/", Port: intstr.FromInt(80)}},
					PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
				TerminationMessagePath: TerminationMessagePathDefault, ImagePullPolicy: PullIfNotPresent,
			}},
			RestartPolicy: RestartPolicyAlways, TerminationGracePeriodSeconds: Int64(30), DNSPolicy: DNSClusterFirst,
			NodeName: "node-1", SchedulerName: DefaultSchedulerName,
			Tolerations: []Toleration{
				{Key: TaintNodeNotReady, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: Int64(300)},
				{Key: TaintNodeUnreachable, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: Int64(300)},
			},
		},
		Status: PodStatus{
			Phase: PodRunning,
			Conditions: []PodCondition{
				{Type: PodInitialized, Status: ConditionTrue, LastTransitionTime: now},
				{Type: PodReady, Status: ConditionTrue, LastTransitionTime: now},
				{Type: ContainersReady, Status: ConditionTrue, LastTransitionTime: now},
				{Type: PodScheduled, Status: ConditionTrue, LastTransitionTime: now},
			},
			HostIP: "10.0.0.1", HostIPs: []HostIP{{IP: "10.0.0.1"}}, PodIP: "10.244.0.5", PodIPs: []PodIP{{IP: "10.244.0.5"}},
			StartTime: &now,
			ContainerStatuses: []ContainerStatus{{Name: "nginx", Ready: true, Started: Bool(true), Image: "nginx:1.25",
				State: ContainerState{Running: &ContainerStateRunning{StartedAt: now}}}},
			QOSClass: PodQOSBurstable,
		},
	}
}

func BenchmarkPodDeepCopy(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.DeepCopy()
	}
}
