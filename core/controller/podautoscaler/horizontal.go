// Package podautoscaler is the HorizontalPodAutoscaler controller: every
// 15 s it reads the target's pods' metrics from metrics.k8s.io, computes
// the replica count that brings them to target, stabilizes and rate-limits
// the change as the behavior says, and writes the target's replicas.
package podautoscaler

import (
	"fmt"
	"math"
	"time"

	"kubeplay/core/api"
	"kubeplay/core/api/labels"
	"kubeplay/core/client"
	"kubeplay/core/client/workqueue"
	"kubeplay/core/clock"
	"kubeplay/core/controller"
)

const (
	// syncPeriod is --horizontal-pod-autoscaler-sync-period.
	syncPeriod = 15 * time.Second
	// tolerance is --horizontal-pod-autoscaler-tolerance: ratios within
	// 10% of 1 change nothing.
	tolerance = 0.1
	// downscaleStabilization is --horizontal-pod-autoscaler-downscale-stabilization.
	downscaleStabilization = 5 * time.Minute
	// cpuInitializationPeriod and initialReadinessDelay decide which new
	// pods' CPU is not trusted yet.
	cpuInitializationPeriod = 5 * time.Minute
	initialReadinessDelay   = 30 * time.Second
)

// HorizontalController syncs HorizontalPodAutoscalers.
type HorizontalController struct {
	client   client.Interface
	clock    *clock.Clock
	hpaInf   *client.Informer
	podInf   *client.Informer
	queue    *workqueue.Queue[string]
	recorder *client.Recorder
	// recommendations per HPA, for downscale stabilization.
	recommendations map[string][]timestampedRecommendation
	// scaleEvents per HPA, for the behavior's rate limits.
	scaleUpEvents, scaleDownEvents map[string][]timestampedScaleEvent
}

type timestampedRecommendation struct {
	replicas int32
	at       time.Time
}

type timestampedScaleEvent struct {
	change int32
	at     time.Time
}

// NewHorizontalController builds the controller on ctx's informers.
func NewHorizontalController(ctx *controller.Context) *HorizontalController {
	cl := ctx.Client("horizontal-pod-autoscaler")
	c := &HorizontalController{
		client:          cl,
		clock:           ctx.Clock,
		hpaInf:          client.InformerFor[*api.HorizontalPodAutoscaler](ctx.Informers),
		podInf:          client.InformerFor[*api.Pod](ctx.Informers),
		queue:           workqueue.New[string]("horizontalpodautoscaler", ctx.Clock, nil),
		recorder:        client.NewRecorder(cl, "horizontal-pod-autoscaler", ""),
		recommendations: map[string][]timestampedRecommendation{},
		scaleUpEvents:   map[string][]timestampedScaleEvent{},
		scaleDownEvents: map[string][]timestampedScaleEvent{},
	}
	c.hpaInf.AddHandler(client.Handler{
		OnAdd: func(o api.Object) { c.queue.Add(client.KeyOf(o)) },
		OnUpdate: func(old, cur api.Object) {
			if old.GetObjectMeta().Generation != cur.GetObjectMeta().Generation {
				c.queue.Add(client.KeyOf(cur))
			}
		},
		OnDelete: func(o api.Object) {
			key := client.KeyOf(o)
			delete(c.recommendations, key)
			delete(c.scaleUpEvents, key)
			delete(c.scaleDownEvents, key)
		},
	})
	return c
}

// Name implements controller.Worker.
func (c *HorizontalController) Name() string {
	return "horizontal-pod-autoscaler/reconcileAutoscaler"
}

// ProcessNextWorkItem implements controller.Worker. Every HPA is synced
// again a sync period later, whatever happened.
func (c *HorizontalController) ProcessNextWorkItem() bool {
	key, ok := c.queue.Get()
	if !ok {
		return false
	}
	defer c.queue.Done(key)
	ns, name := client.SplitKey(key)
	o, ok := c.hpaInf.Get(ns, name)
	if !ok {
		return true
	}
	hpa, ok := asV2(o)
	if !ok {
		return true
	}
	c.reconcileAutoscaler(hpa, key)
	c.queue.AddAfter(key, syncPeriod)
	return true
}

// asV2 reads an HPA in autoscaling/v2 form, whichever version it was
// written in.
func asV2(o api.Object) (*api.HorizontalPodAutoscaler, bool) {
	switch h := o.(type) {
	case *api.HorizontalPodAutoscaler:
		return h, true
	case *api.HorizontalPodAutoscalerV1:
		v2, err := api.ConvertHPAV1ToV2(h)
		return v2, err == nil
	}
	return nil, false
}

// target is what the HPA scales: its replicas, pod selector and the
// object to write back.
type target struct {
	obj      api.Object
	replicas int32
	selector labels.Selector
	gr       string // "deployments.apps"
}

func (c *HorizontalController) getTarget(hpa *api.HorizontalPodAutoscaler) (*target, error) {
	ref := hpa.Spec.ScaleTargetRef
	res, ok := c.client.Registry().ForKind(ref.APIVersion, ref.Kind)
	if !ok || !res.Scale {
		return nil, fmt.Errorf("the server could not find the requested resource")
	}
	obj, err := c.client.Get(res, hpa.Namespace, ref.Name)
	if err != nil {
		return nil, err
	}
	t := &target{obj: obj, gr: res.GroupResource().String()}
	var sel *api.LabelSelector
	switch o := obj.(type) {
	case *api.Deployment:
		t.replicas, sel = deref(o.Spec.Replicas), o.Spec.Selector
	case *api.ReplicaSet:
		t.replicas, sel = deref(o.Spec.Replicas), o.Spec.Selector
	case *api.StatefulSet:
		t.replicas, sel = deref(o.Spec.Replicas), o.Spec.Selector
	default:
		return nil, fmt.Errorf("%s has no scale subresource", res.Kind)
	}
	s, err := labels.SelectorFromLabelSelector(sel)
	if err != nil {
		return nil, err
	}
	t.selector = s
	return t, nil
}

func deref(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// reconcileAutoscaler is one pass over one HPA.
func (c *HorizontalController) reconcileAutoscaler(hpa *api.HorizontalPodAutoscaler, key string) {
	now := c.clock.Now()
	st := hpa.Status.DeepCopy()
	conds := &conditions{list: st.Conditions, now: api.NewTime(now)}
	t, err := c.getTarget(hpa)
	if err != nil {
		msg := fmt.Sprintf("%s %q not found", hpa.Spec.ScaleTargetRef.Kind, hpa.Spec.ScaleTargetRef.Name)
		if t == nil {
			msg = err.Error()
		}
		c.recorder.Event(hpa, "Warning", "FailedGetScale", msg)
		conds.set("AbleToScale", api.ConditionFalse, "FailedGetScale", "the HPA controller was unable to get the target's current scale: "+msg)
		c.writeStatus(hpa, st, conds)
		return
	}
	conds.set("AbleToScale", api.ConditionTrue, "SucceededGetScale", "the HPA controller was able to get the target's current scale")
	current := t.replicas
	minReplicas := int32(1)
	if hpa.Spec.MinReplicas != nil {
		minReplicas = *hpa.Spec.MinReplicas
	}
	st.CurrentReplicas = current
	desired := int32(0)
	rescaleReason := ""
	var metricStatuses []api.MetricStatus
	switch {
	case current == 0 && minReplicas != 0:
		desired = 0
		conds.set("ScalingActive", api.ConditionFalse, "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
	case current > hpa.Spec.MaxReplicas:
		desired, rescaleReason = hpa.Spec.MaxReplicas, "Current number of replicas above Spec.MaxReplicas"
	case current < minReplicas:
		desired, rescaleReason = minReplicas, "Current number of replicas below Spec.MinReplicas"
	default:
		proposal, statuses, metricName, err := c.computeReplicasForMetrics(hpa, t, now)
		metricStatuses = statuses
		if err != nil {
			c.recorder.Event(hpa, "Warning", "FailedComputeMetricsReplicas", "invalid metrics (1 invalid out of 1), first error is: "+err.Error())
			conds.set("ScalingActive", api.ConditionFalse, "FailedGetResourceMetric", "the HPA was unable to compute the replica count: "+err.Error())
			st.CurrentMetrics = metricStatuses
			st.DesiredReplicas = current
			c.writeStatus(hpa, st, conds)
			return
		}
		conds.set("ScalingActive", api.ConditionTrue, "ValidMetricFound", "the HPA was able to successfully calculate a replica count from "+metricName)
		rescaleReason = metricName + " above target"
		if proposal < current {
			rescaleReason = "All metrics below target"
		}
		desired = c.normalizeDesiredReplicas(hpa, key, current, proposal, minReplicas, conds, now)
	}
	st.CurrentMetrics = metricStatuses
	st.DesiredReplicas = desired
	if desired != current {
		if err := c.scaleTarget(t, desired); err != nil {
			c.recorder.Eventf(hpa, "Warning", "FailedRescale", "New size: %d; reason: %s; error: %v", desired, rescaleReason, err)
			conds.set("AbleToScale", api.ConditionFalse, "FailedUpdateScale", "the HPA controller was unable to update the target scale: "+err.Error())
			c.writeStatus(hpa, st, conds)
			return
		}
		c.recorder.Eventf(hpa, "Normal", "SuccessfulRescale", "New size: %d; reason: %s", desired, rescaleReason)
		c.recordScaleEvent(key, current, desired, now)
		conds.set("AbleToScale", api.ConditionTrue, "SucceededRescale", fmt.Sprintf("the HPA controller was able to update the target scale to %d", desired))
		t := api.NewTime(now)
		st.LastScaleTime = &t
	} else if conds.get("AbleToScale") == "SucceededGetScale" {
		conds.set("AbleToScale", api.ConditionTrue, "ReadyForNewScale", "recommended size matches current size")
	}
	c.writeStatus(hpa, st, conds)
}

func (c *HorizontalController) scaleTarget(t *target, replicas int32) error {
	obj := t.obj.DeepCopyObject()
	switch o := obj.(type) {
	case *api.Deployment:
		o.Spec.Replicas = &replicas
	case *api.ReplicaSet:
		o.Spec.Replicas = &replicas
	case *api.StatefulSet:
		o.Spec.Replicas = &replicas
	}
	res, _ := c.client.Registry().ForKind(obj.GetTypeMeta().APIVersion, obj.GetTypeMeta().Kind)
	_, err := c.client.Update(res, obj.GetObjectMeta().Namespace, obj, apiserverUpdateOptions())
	return err
}

func (c *HorizontalController) writeStatus(hpa *api.HorizontalPodAutoscaler, st *api.HorizontalPodAutoscalerStatus, conds *conditions) {
	st.Conditions = conds.list
	gen := hpa.Generation
	st.ObservedGeneration = &gen
	cp := hpa.DeepCopy()
	cp.Status = *st
	if stored, ok := c.hpaInf.Get(hpa.Namespace, hpa.Name); ok {
		if _, isV1 := stored.(*api.HorizontalPodAutoscalerV1); isV1 {
			// Written through autoscaling/v1: store the status the same way.
			if v1, err := api.ConvertHPAV2ToV1(cp); err == nil {
				res, _ := c.client.Registry().ForKind("autoscaling/v2", "HorizontalPodAutoscaler")
				_, _ = c.client.Update(res, v1.Namespace, v1, apiserverStatusOptions())
			}
			return
		}
	}
	_, _ = client.UpdateStatus(c.client, cp)
}

// ceilInt32 rounds a replica count up, as upstream does.
func ceilInt32(v float64) int32 { return int32(math.Ceil(v)) }
