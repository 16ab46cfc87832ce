package resourcestatus

import (
	"context"
	"fmt"
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Object is a monitor or rule with a ConfigResourceStatus.
type Object interface {
	client.Object
	Bindings() []monitoringv1.WorkloadBinding
}

// Kind describes one kind whose status this package writes.
type Kind struct {
	// Name is the kind ("ServiceMonitor").
	Name string
	// New returns an empty object of the kind.
	New func() Object
	// SetBindings replaces the object's status.bindings.
	SetBindings func(Object, []monitoringv1.WorkloadBinding)
}

// Kinds are the kinds Lookout reports status on.
var Kinds = []Kind{
	{Name: monitoringv1.ServiceMonitorsKind, New: func() Object { return &monitoringv1.ServiceMonitor{} },
		SetBindings: func(o Object, b []monitoringv1.WorkloadBinding) { o.(*monitoringv1.ServiceMonitor).Status.Bindings = b }},
	{Name: monitoringv1.PodMonitorsKind, New: func() Object { return &monitoringv1.PodMonitor{} },
		SetBindings: func(o Object, b []monitoringv1.WorkloadBinding) { o.(*monitoringv1.PodMonitor).Status.Bindings = b }},
	{Name: monitoringv1.ProbesKind, New: func() Object { return &monitoringv1.Probe{} },
		SetBindings: func(o Object, b []monitoringv1.WorkloadBinding) { o.(*monitoringv1.Probe).Status.Bindings = b }},
	{Name: monitoringv1alpha1.ScrapeConfigsKind, New: func() Object { return &monitoringv1alpha1.ScrapeConfig{} },
		SetBindings: func(o Object, b []monitoringv1.WorkloadBinding) {
			o.(*monitoringv1alpha1.ScrapeConfig).Status.Bindings = b
		}},
	{Name: monitoringv1.PrometheusRuleKind, New: func() Object { return &monitoringv1.PrometheusRule{} },
		SetBindings: func(o Object, b []monitoringv1.WorkloadBinding) { o.(*monitoringv1.PrometheusRule).Status.Bindings = b }},
}

// Reconciler writes status.bindings of one kind from the Store.
type Reconciler struct {
	Client   client.Client
	Store    *Store
	Kind     Kind
	Recorder record.EventRecorder
	// OwnerExists reports whether a Prometheus still exists (bindings to deleted ones are
	// removed).
	OwnerExists func(ctx context.Context, o Owner) bool
}

// SetupWithManager registers one status controller per kind.
func SetupWithManager(mgr ctrl.Manager, store *Store, workers int) error {
	for _, k := range Kinds {
		r := &Reconciler{
			Client:   mgr.GetClient(),
			Store:    store,
			Kind:     k,
			Recorder: mgr.GetEventRecorderFor("lookout-operator"),
			OwnerExists: func(ctx context.Context, o Owner) bool {
				p := &metav1.PartialObjectMetadata{}
				p.SetGroupVersionKind(monitoringv1.SchemeGroupVersion.WithKind(monitoringv1.PrometheusesKind))
				err := mgr.GetClient().Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: o.Name}, p)
				return !apierrors.IsNotFound(err)
			},
		}
		err := ctrl.NewControllerManagedBy(mgr).
			Named(lowerKind(k.Name) + "-status").
			WatchesRawSource(source.Channel(store.channel(k.Name), &handler.EnqueueRequestForObject{})).
			WithOptions(controller.Options{MaxConcurrentReconciles: workers}).
			Complete(r)
		if err != nil {
			return fmt.Errorf("setting up %s status controller: %w", k.Name, err)
		}
	}
	return nil
}

func lowerKind(k string) string {
	out := make([]byte, 0, len(k))
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

// Reconcile writes the object's bindings when they differ from the live ones.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	obj := r.Kind.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	verdicts, published := r.Store.Verdicts(r.Kind.Name, req.NamespacedName)
	desired := r.bindings(ctx, obj, verdicts, published)
	if equality.Semantic.DeepEqual(desired, obj.Bindings()) || (len(desired) == 0 && len(obj.Bindings()) == 0) {
		return reconcile.Result{}, nil
	}
	before := rejected(obj.Bindings())
	upd := obj.DeepCopyObject().(Object)
	r.Kind.SetBindings(upd, desired)
	if err := r.Client.Status().Update(ctx, upd); err != nil {
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			return reconcile.Result{Requeue: true}, nil
		}
		return reconcile.Result{}, fmt.Errorf("updating status of %s %s: %w", r.Kind.Name, req.NamespacedName, err)
	}
	apply.CountWrite(r.Kind.Name, "update-status")
	for _, b := range desired {
		for _, c := range b.Conditions {
			if c.Status == monitoringv1.ConditionFalse && !before[b.Namespace+"/"+b.Name+"/"+c.Message] {
				r.Recorder.Eventf(obj, corev1.EventTypeWarning, c.Reason, "rejected by Prometheus %s/%s: %s", b.Namespace, b.Name, c.Message)
			}
		}
	}
	return reconcile.Result{}, nil
}

func rejected(bs []monitoringv1.WorkloadBinding) map[string]bool {
	out := map[string]bool{}
	for _, b := range bs {
		for _, c := range b.Conditions {
			if c.Status == monitoringv1.ConditionFalse {
				out[b.Namespace+"/"+b.Name+"/"+c.Message] = true
			}
		}
	}
	return out
}

// bindings builds the desired bindings: one per Prometheus with a verdict, keeping
// bindings of Prometheus objects that have not published yet (after a restart) and that
// still exist, and the lastTransitionTime of unchanged conditions.
func (r *Reconciler) bindings(ctx context.Context, obj Object, verdicts map[Owner]selection.Verdict, published func(Owner) bool) []monitoringv1.WorkloadBinding {
	live := map[Owner]monitoringv1.WorkloadBinding{}
	for _, b := range obj.Bindings() {
		live[Owner{Resource: b.Resource, Namespace: b.Namespace, Name: b.Name}] = b
	}
	var out []monitoringv1.WorkloadBinding
	for o, v := range verdicts {
		cond := monitoringv1.ConfigResourceCondition{
			Type:               monitoringv1.Accepted,
			Status:             monitoringv1.ConditionTrue,
			Reason:             string(v.Reason),
			Message:            v.Message,
			ObservedGeneration: obj.GetGeneration(),
			LastTransitionTime: metav1.Now(),
		}
		if v.Generation != 0 {
			cond.ObservedGeneration = v.Generation
		}
		if !v.Used() {
			cond.Status = monitoringv1.ConditionFalse
		}
		if old, ok := live[o]; ok {
			for _, c := range old.Conditions {
				if c.Type == cond.Type && c.Status == cond.Status {
					cond.LastTransitionTime = c.LastTransitionTime
				}
			}
		}
		out = append(out, monitoringv1.WorkloadBinding{
			Group: monitoringv1.SchemeGroupVersion.Group, Resource: o.Resource, Name: o.Name, Namespace: o.Namespace,
			Conditions: []monitoringv1.ConfigResourceCondition{cond},
		})
	}
	for o, b := range live {
		if _, ok := verdicts[o]; ok || published(o) || o.Resource != "prometheuses" {
			continue
		}
		if r.OwnerExists(ctx, o) {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// placeholder is the object put on the notification channel.
func placeholder(nn types.NamespacedName) client.Object {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: nn.Namespace, Name: nn.Name}}
}
