package history_test

import (
	"strings"
	"testing"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/defaults"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/controller/history"
	"kubeplay/core/sim"
)

var stsKind = api.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}

// nginxSts is seed 000's StatefulSet as the API server stores it.
func nginxSts() *api.StatefulSet {
	set := &api.StatefulSet{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: api.ObjectMeta{Name: "nginx-sts", Namespace: "default", UID: "u1"},
		Spec: api.StatefulSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx-sts"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx-sts"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
			},
		},
	}
	defaults.Default(set)
	return set
}

func TestTemplatePatchIsUpstreamsBytes(t *testing.T) {
	set := nginxSts()
	got, err := history.TemplatePatch(&set.Spec.Template)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"nginx-sts"}},"spec":{"containers":[{"image":"nginx","imagePullPolicy":"Always","name":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}`
	if string(got) != want {
		t.Fatalf("patch\n got %s\nwant %s", got, want)
	}
	back, err := history.TemplateFromPatch(got)
	if err != nil {
		t.Fatal(err)
	}
	if back.Spec.Containers[0].Image != "nginx" || back.Labels["app"] != "nginx-sts" {
		t.Fatalf("template read back wrong: %+v", back)
	}
}

// The real v1.32 cluster named seed 000's revision nginx-sts-6798d68dcd.
func TestNewControllerRevisionNamesAsUpstream(t *testing.T) {
	set := nginxSts()
	data, _ := history.TemplatePatch(&set.Spec.Template)
	var zero int32
	cr := history.NewControllerRevision(set, stsKind, set.Spec.Template.Labels, data, 1, &zero)
	if cr.Name != "nginx-sts-6798d68dcd" {
		t.Fatalf("name %q, want nginx-sts-6798d68dcd", cr.Name)
	}
	if cr.Labels[history.ControllerRevisionHashLabel] != "6798d68dcd" || cr.Labels["app"] != "nginx-sts" {
		t.Fatalf("labels %v", cr.Labels)
	}
	ref := cr.GetControllerOf()
	if ref == nil || ref.Kind != "StatefulSet" || ref.APIVersion != "apps/v1" || ref.UID != "u1" {
		t.Fatalf("owner %+v", cr.OwnerReferences)
	}
	if set.Spec.Template.Labels[history.ControllerRevisionHashLabel] != "" {
		t.Fatal("template labels were changed")
	}
}

func TestHashControllerRevision(t *testing.T) {
	rev := &api.ControllerRevision{Data: api.RawExtension{Raw: []byte(`{"a":1}`)}}
	one, two := int32(1), int32(2)
	cases := []struct {
		name  string
		probe *int32
	}{{"no probe", nil}, {"probe 1", &one}, {"probe 2", &two}}
	seen := map[string]string{}
	for _, c := range cases {
		h := history.HashControllerRevision(rev, c.probe)
		if h != history.HashControllerRevision(rev, c.probe) {
			t.Errorf("%s: hash not stable", c.name)
		}
		if strings.ContainsAny(h, "aeiou013") {
			t.Errorf("%s: hash %q not safe-encoded", c.name, h)
		}
		if other, dup := seen[h]; dup {
			t.Errorf("%s and %s share hash %s", c.name, other, h)
		}
		seen[h] = c.name
	}
}

func TestControllerRevisionName(t *testing.T) {
	long := strings.Repeat("x", 300)
	cases := []struct{ prefix, hash, want string }{
		{"web", "abc", "web-abc"},
		{long, "abc", strings.Repeat("x", 223) + "-abc"},
	}
	for _, c := range cases {
		if got := history.ControllerRevisionName(c.prefix, c.hash); got != c.want {
			t.Errorf("ControllerRevisionName(%d chars) = %d chars", len(c.prefix), len(got))
		}
	}
}

func rev(name string, revision int64, created time.Time, data string) *api.ControllerRevision {
	return &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: name, CreationTimestamp: api.NewTime(created)},
		Revision:   revision, Data: api.RawExtension{Raw: []byte(data)},
	}
}

func names(revs []*api.ControllerRevision) string {
	var s []string
	for _, r := range revs {
		s = append(s, r.Name)
	}
	return strings.Join(s, " ")
}

func TestSortControllerRevisions(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	revs := []*api.ControllerRevision{
		rev("c", 3, t0, ""), rev("b2", 1, t0.Add(time.Second), ""), rev("b1", 1, t0.Add(time.Second), ""), rev("a", 1, t0, ""), rev("d", 2, t0, ""),
	}
	history.SortControllerRevisions(revs)
	if got, want := names(revs), "a b1 b2 d c"; got != want {
		t.Fatalf("sorted %q, want %q", got, want)
	}
	if history.NextRevision(revs) != 4 || history.NextRevision(nil) != 1 || history.MaxRevision(revs) != 3 {
		t.Fatal("next/max revision wrong")
	}
}

func TestEqualAndFindEqualRevisions(t *testing.T) {
	t0 := time.Time{}
	a, b, c := rev("a", 1, t0, "x"), rev("b", 2, t0, "y"), rev("c", 3, t0, "x")
	cases := []struct {
		l, r *api.ControllerRevision
		want bool
	}{{a, c, true}, {a, b, false}, {nil, nil, true}, {a, nil, false}}
	for i, tc := range cases {
		if got := history.EqualRevision(tc.l, tc.r); got != tc.want {
			t.Errorf("case %d: EqualRevision = %v", i, got)
		}
	}
	if got := names(history.FindEqualRevisions([]*api.ControllerRevision{a, b, c}, a)); got != "a c" {
		t.Fatalf("FindEqualRevisions = %q", got)
	}
}

func TestRevisionsToTruncate(t *testing.T) {
	t0 := time.Time{}
	revs := []*api.ControllerRevision{rev("r1", 1, t0, ""), rev("r2", 2, t0, ""), rev("r3", 3, t0, ""), rev("r4", 4, t0, ""), rev("r5", 5, t0, "")}
	cases := []struct {
		name  string
		live  map[string]bool
		limit int
		want  string
	}{
		{"under the limit", nil, 10, ""},
		{"oldest go first", nil, 2, "r1 r2 r3"},
		{"live revisions are never counted or deleted", map[string]bool{"r1": true, "r5": true}, 1, "r2 r3"},
		{"zero keeps only live ones", map[string]bool{"r4": true}, 0, "r1 r2 r3 r5"},
		{"negative keeps all", nil, -1, ""},
	}
	for _, c := range cases {
		if got := names(history.RevisionsToTruncate(revs, c.live, c.limit)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCreateControllerRevisionSkipsTakenNames(t *testing.T) {
	c := sim.NewDefault(sim.Options{Seed: 1, Bare: true})
	cl := c.Client("test")
	h := &history.History{Client: cl, Informer: client.InformerFor[*api.ControllerRevision](c.Informers)}
	set := nginxSts()
	set.UID = ""
	set, err := client.Create(cl, set)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := history.TemplatePatch(&set.Spec.Template)
	var count int32
	cr := history.NewControllerRevision(set, stsKind, set.Spec.Template.Labels, data, 1, &count)
	// Someone else's revision already holds the name.
	squatter := &api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: cr.Name, Namespace: "default"}, Data: api.RawExtension{Raw: []byte(`{}`)}, Revision: 1}
	if _, err := client.Create(cl, squatter); err != nil {
		t.Fatal(err)
	}
	created, err := h.CreateControllerRevision(set, cr, &count)
	if err != nil {
		t.Fatal(err)
	}
	if count != 1 || created.Name == cr.Name || !strings.HasPrefix(created.Name, "nginx-sts-") {
		t.Fatalf("collision count %d, name %s", count, created.Name)
	}
	// Creating the same data again finds the stored revision.
	again, err := h.CreateControllerRevision(set, cr, &count)
	if err != nil || again.Name != created.Name || count != 1 {
		t.Fatalf("second create: %v %v count %d", again, err, count)
	}
	c.Settle()
	sel, _ := labels.SelectorFromLabelSelector(set.Spec.Selector)
	// The squatter has no labels, so only ours is listed.
	if got := names(h.ListControllerRevisions(set, sel)); got != created.Name {
		t.Fatalf("listed %q", got)
	}
	if _, err := h.CreateControllerRevision(set, cr, nil); err == nil {
		t.Fatal("nil collision count accepted")
	}
}
