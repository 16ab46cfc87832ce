package instance

import (
	"context"
	"fmt"
	"strings"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/plan"
)

// ApplyPlan writes the plan of o: its Secrets and ConfigMaps in order, its Service, the
// reloader's Role and RoleBinding, its StatefulSets or DaemonSet, and then deletes the
// numbered objects of o the plan no longer names. Every deletion is guarded by o's UID.
// The error is an outcome (ApplyFailed or Invalid).
func (r *Reconciler[O, S, St]) ApplyPlan(ctx context.Context, o O, p *plan.Plan) error {
	w := r.Writer()
	for _, d := range p.Data {
		if err := r.applyData(ctx, w, o, d); err != nil {
			return err
		}
		if d.Written != nil {
			d.Written()
		}
	}
	if err := r.applyService(ctx, p.Namespace, p.Service); err != nil {
		return err
	}
	if rb := p.Reloader; rb != nil {
		var err error
		if rb.Role != nil {
			err = w.EnsureReloaderRBAC(ctx, rb.Role, rb.Binding, r.OwnerRef(o, true))
		} else {
			err = w.DeleteReloaderRBAC(ctx, r.Client, p.Namespace, rb.Name, o.GetUID())
		}
		if err != nil {
			return err
		}
	}
	for _, sts := range p.StatefulSets {
		if err := r.applyStatefulSet(ctx, w, o, sts); err != nil {
			return err
		}
	}
	if p.DaemonSet != nil {
		if err := w.Ensure(ctx, apply.DaemonSetGVK, p.DaemonSet, apply.CachedAs(&appsv1.DaemonSet{})); err != nil {
			return err
		}
	}
	for _, n := range p.Prune {
		if err := r.prune(ctx, o, p.Namespace, n); err != nil {
			return err
		}
	}
	return nil
}

// applyData writes one Secret or ConfigMap as its Write says.
func (r *Reconciler[O, S, St]) applyData(ctx context.Context, w *write.Writer, o O, d plan.Object) error {
	gvk := apply.SecretGVK
	if _, ok := d.Object.(*corev1.ConfigMap); ok {
		gvk = apply.ConfigMapGVK
	}
	if d.Write != plan.Ensure {
		live, err := write.Metadata(ctx, r.Client, gvk, client.ObjectKeyFromObject(d.Object))
		switch {
		case err != nil:
			return outcome.ApplyFailed(fmt.Errorf("reading %s %s/%s: %w", gvk.Kind, d.GetNamespace(), d.GetName(), err))
		case live != nil && d.Write == plan.CreateOnly:
			return nil
		case live != nil && d.Write == plan.UnlessForeign && !write.OwnedBy(live, o.GetUID()):
			return nil
		}
	}
	return w.Ensure(ctx, gvk, d.Object)
}

// applyService writes the governing Service, or checks the one spec.serviceName names.
func (r *Reconciler[O, S, St]) applyService(ctx context.Context, namespace string, s *plan.Service) error {
	switch {
	case s == nil:
		return nil
	case s.Governing != nil:
		var adjust func(O, *corev1.Service)
		if s.Adjust != nil {
			adjust = func(o O, svc *corev1.Service) { s.Adjust(o, svc) }
		}
		return r.ApplyGoverningService(ctx, s.Governing, func(o O) bool { return s.Uses(o) }, adjust)
	default:
		return r.CheckService(ctx, namespace, s.Name, s.Check)
	}
}

// applyStatefulSet ensures one StatefulSet. A change to a field the API server refuses to
// update makes it delete the live one with propagation Orphan (pods and claims stay and
// are adopted) and create it on the next reconcile; a replica count changed by hand is
// put back even though the hash did not change, and so is a retained shard scaled back up
// (rewriting it drops its deletion deadline even when its hash is current).
func (r *Reconciler[O, S, St]) applyStatefulSet(ctx context.Context, w *write.Writer, o O, desired *appsv1.StatefulSet) error {
	live := &appsv1.StatefulSet{}
	reactivated := r.Client.Get(ctx, client.ObjectKeyFromObject(desired), live) == nil && promplan.ShardReactivated(live)
	recreated, err := w.EnsureStatefulSet(ctx, r.Client, desired, o.GetUID(), reactivated)
	if recreated {
		r.Upstream.StatefulSetRecreated()
	}
	return err
}

// prune deletes the members of the numbered family n that o owns and the plan no longer
// names, read from the metadata cache: objects prometheus-operator created carry other
// labels than Lookout's, and the owner reference decides.
func (r *Reconciler[O, S, St]) prune(ctx context.Context, o O, namespace string, n plan.Numbered) error {
	gvk := schema.GroupVersionKind{Version: "v1", Kind: n.Kind}
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(n.Kind + "List"))
	if err := r.Client.List(ctx, list, client.InNamespace(namespace)); err != nil {
		return outcome.ApplyFailed(fmt.Errorf("listing %ss: %w", n.Kind, err))
	}
	keep := make(map[string]bool, n.Keep)
	for i := 0; i < n.Keep; i++ {
		keep[n.Name(i)] = true
	}
	first := n.Name(0)
	prefix := first[:len(first)-1]
	for i := range list.Items {
		live := &list.Items[i]
		num, ok := strings.CutPrefix(live.Name, prefix)
		if !ok || keep[live.Name] || !canonicalNumber(num) || !write.OwnedBy(live, o.GetUID()) {
			continue
		}
		obj := live.DeepCopy()
		obj.SetGroupVersionKind(gvk)
		if err := r.Applier.Delete(ctx, n.Kind, obj, o.GetUID()); err != nil {
			return outcome.ApplyFailed(err)
		}
	}
	return nil
}

// canonicalNumber reports whether s is a decimal number as fmt prints it.
func canonicalNumber(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
