package validation

import (
	"strings"
	"testing"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

// render is what kubectl prints after `The Kind "name" is invalid: `.
func render(errs field.ErrorList) string {
	if agg := errs.ToAggregate(); agg != nil {
		return agg.Error()
	}
	return ""
}

type createCase struct {
	name string
	obj  api.Object
	want string
}

func runCreate(t *testing.T, cases []createCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(ValidateObject(c.obj, true))
			if got != c.want {
				t.Errorf("\ngot:  %s\nwant: %s", got, c.want)
			}
		})
	}
}

type updateCase struct {
	name     string
	old, obj api.Object
	want     string
}

func runUpdate(t *testing.T, cases []updateCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(ValidateObjectUpdate(c.obj, c.old, true))
			if got != c.want {
				t.Errorf("\ngot:  %s\nwant: %s", got, c.want)
			}
		})
	}
}

// wantPrefix compares only the start (for messages ending in a diff).
func wantPrefix(t *testing.T, got, prefix string) {
	t.Helper()
	if !strings.HasPrefix(got, prefix) {
		t.Errorf("\ngot:  %s\nwant prefix: %s", got, prefix)
	}
}

func meta(name string) api.ObjectMeta {
	return api.ObjectMeta{Name: name, Namespace: "default"}
}

func container(name, image string) api.Container {
	return api.Container{Name: name, Image: image, ImagePullPolicy: api.PullIfNotPresent,
		TerminationMessagePath: api.TerminationMessagePathDefault, TerminationMessagePolicy: api.TerminationMessageReadFile}
}

func podSpec() api.PodSpec {
	g := int64(30)
	return api.PodSpec{
		Containers:                    []api.Container{container("nginx", "nginx:1.25")},
		RestartPolicy:                 api.RestartPolicyAlways,
		DNSPolicy:                     api.DNSClusterFirst,
		TerminationGracePeriodSeconds: &g,
		SchedulerName:                 api.DefaultSchedulerName,
		SecurityContext:               &api.PodSecurityContext{},
	}
}

func pod(mut ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: meta("web"), Spec: podSpec()}
	for _, m := range mut {
		m(p)
	}
	return p
}

func template(labels map[string]string) api.PodTemplateSpec {
	return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: podSpec()}
}

func sel(kv ...string) *api.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &api.LabelSelector{MatchLabels: m}
}

func i32(v int32) *int32             { return &v }
func i64(v int64) *int64             { return &v }
func str(s string) *string           { return &s }
func qty(s string) resource.Quantity { return resource.MustParse(s) }
func ios(s string) *intstr.IntOrString {
	v := intstr.FromString(s)
	return &v
}
func ioi(n int) *intstr.IntOrString {
	v := intstr.FromInt(n)
	return &v
}

func deployment(mut ...func(*api.Deployment)) *api.Deployment {
	d := &api.Deployment{ObjectMeta: meta("web"), Spec: api.DeploymentSpec{
		Replicas: i32(2),
		Selector: sel("app", "web"),
		Template: template(map[string]string{"app": "web"}),
		Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &api.RollingUpdateDeployment{MaxUnavailable: ios("25%"), MaxSurge: ios("25%")}},
		RevisionHistoryLimit:    i32(10),
		ProgressDeadlineSeconds: i32(600),
	}}
	for _, m := range mut {
		m(d)
	}
	return d
}

func service(mut ...func(*api.Service)) *api.Service {
	s := &api.Service{ObjectMeta: meta("web"), Spec: api.ServiceSpec{
		Ports:           []api.ServicePort{{Protocol: api.ProtocolTCP, Port: 80, TargetPort: intstr.FromInt(8080)}},
		Selector:        map[string]string{"app": "web"},
		ClusterIP:       "10.96.0.10",
		ClusterIPs:      []string{"10.96.0.10"},
		Type:            api.ServiceTypeClusterIP,
		SessionAffinity: api.ServiceAffinityNone,
	}}
	for _, m := range mut {
		m(s)
	}
	return s
}
