//lint:file-ignore SA1019 Endpoints (deprecated in Kubernetes 1.33) is what upstream writes and what ServiceMonitors with the default endpoints role discover.

package kubelet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/kubelet"
)

// ReasonNotOwned is the reason of the Warning event on a Service or Endpoints object of
// the kubelet name that the operator leaves alone.
const ReasonNotOwned = "NotOwned"

// Reconcile brings the Service, then the Endpoints and EndpointSlices in line with the
// selected nodes, in one pass, and asks to run again after the sync period. The request
// is ignored: there is one set of objects.
func (r *Reconciler) Reconcile(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
	start := time.Now()
	r.mu.Lock()
	r.recheck = false
	r.mu.Unlock()
	err := r.sync(ctx)
	r.Metrics.duration.Observe(time.Since(start).Seconds())
	if err != nil {
		return reconcile.Result{}, err
	}
	after := r.cfg.SyncPeriod
	r.mu.Lock()
	if r.recheck && after > recheckAfter {
		after = recheckAfter
	}
	r.mu.Unlock()
	return reconcile.Result{RequeueAfter: after}, nil
}

// recheckAfter is when to look again at an object that was missing but not created: the
// Applier trusts its own recent write over a read that does not show the object (a
// cache may lag) for a few seconds, which also hides a deletion made right after.
const recheckAfter = 15 * time.Second

// ensure hands desired to the Applier; found says whether the caller's read saw it.
func (r *Reconciler) ensure(ctx context.Context, gvk schema.GroupVersionKind, desired client.Object, found bool, opts ...apply.Option) (bool, error) {
	wrote, err := r.Applier.Ensure(ctx, gvk, desired, opts...)
	if err == nil && !wrote && !found {
		r.mu.Lock()
		r.recheck = true
		r.mu.Unlock()
	}
	return wrote, err
}

func (r *Reconciler) sync(ctx context.Context) (err error) {
	o := r.cfg.options()
	var resources []string
	if o.Endpoints {
		resources = append(resources, resourceEndpoints)
	}
	if o.EndpointSlices {
		resources = append(resources, resourceEndpointSlice)
	}
	failed := map[string]bool{}
	defer func() {
		for _, res := range resources {
			r.Metrics.syncs.WithLabelValues(res).Inc()
			if failed[res] || (err != nil && len(failed) == 0) {
				r.Metrics.syncFailures.WithLabelValues(res).Inc()
			}
		}
	}()

	uid, ok, err := r.ensureService(ctx, o)
	if err != nil || !ok {
		// Nothing is listed while the Service is someone else's: a failed sync.
		for _, res := range resources {
			failed[res] = true
		}
		return err
	}
	var nodes corev1.NodeList
	if err := r.Client.List(ctx, &nodes, client.MatchingLabelsSelector{Selector: r.cfg.Selector}); err != nil {
		return fmt.Errorf("listing nodes: %w", err)
	}
	var slices discoveryv1.EndpointSliceList
	if o.EndpointSlices {
		// Every slice of the namespace: the kubelet's to reuse, the others to avoid their names.
		if err := r.Client.List(ctx, &slices, client.InNamespace(o.Namespace)); err != nil {
			failed[resourceEndpointSlice] = true
			return fmt.Errorf("listing the EndpointSlices of namespace %s: %w", o.Namespace, err)
		}
	}
	objs := kubelet.Build(o, kubelet.Input{Nodes: nodes.Items, Slices: slices.Items, ServiceUID: uid})
	r.reportProblems(ctx, objs.Problems)
	r.countAddresses(objs.Addresses)

	var errs []error
	if o.Endpoints {
		if err := r.ensureEndpoints(ctx, objs.Endpoints); err != nil {
			failed[resourceEndpoints] = true
			errs = append(errs, err)
		}
	}
	if o.EndpointSlices {
		if err := r.ensureSlices(ctx, o, objs, slices.Items); err != nil {
			failed[resourceEndpointSlice] = true
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ensureService writes the Service and returns its UID; ok is false when a Service of
// that name belongs to someone else (reported, and nothing else is written).
func (r *Reconciler) ensureService(ctx context.Context, o kubelet.Options) (types.UID, bool, error) {
	desired := kubelet.Service(o)
	live := &corev1.Service{}
	found, err := r.get(ctx, desired, live)
	if err != nil {
		return "", false, err
	}
	drifted := false
	if found {
		if !kubelet.Managed(live) {
			r.notOwned(ctx, "Service", live)
			return "", false, nil
		}
		r.owned("Service")
		drifted = kubelet.ServiceDrifted(desired, live)
		adopt(desired, live)
		// What the API server allocated stays: these fields cannot be changed.
		desired.Spec.ClusterIP = live.Spec.ClusterIP
		desired.Spec.ClusterIPs = live.Spec.ClusterIPs
		desired.Spec.IPFamilies = live.Spec.IPFamilies
		desired.Spec.IPFamilyPolicy = live.Spec.IPFamilyPolicy
	}
	wrote, err := r.ensure(ctx, apply.ServiceGVK, desired, found, apply.OwnedWhen(kubelet.Managed), apply.Drifted(drifted))
	if apply.IsNotOwned(err) {
		// Created by someone else since we read it.
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	uid := live.UID
	if wrote && desired.UID != "" {
		uid = desired.UID // created, or recreated by someone since we read it
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if uid == "" {
		uid = r.serviceUID
	}
	if uid == "" {
		return "", false, fmt.Errorf("the UID of Service %s/%s is not known yet", o.Namespace, o.Name)
	}
	r.serviceUID = uid
	return uid, true, nil
}

func (r *Reconciler) ensureEndpoints(ctx context.Context, desired *corev1.Endpoints) error {
	live := &corev1.Endpoints{}
	found, err := r.get(ctx, desired, live)
	if err != nil {
		return err
	}
	drifted := false
	if found {
		if !kubelet.Managed(live) {
			r.notOwned(ctx, "Endpoints", live)
			return nil
		}
		r.owned("Endpoints")
		drifted = kubelet.EndpointsDrifted(desired, live)
		adopt(desired, live)
	}
	_, err = r.ensure(ctx, apply.EndpointsGVK, desired, found, apply.OwnedWhen(kubelet.Managed), apply.Drifted(drifted))
	if apply.IsNotOwned(err) {
		return nil
	}
	return err
}

// ensureSlices writes the desired EndpointSlices, then deletes the stale ones: a node
// moving between slices is listed twice for a moment rather than missing.
func (r *Reconciler) ensureSlices(ctx context.Context, o kubelet.Options, objs *kubelet.Objects, live []discoveryv1.EndpointSlice) error {
	byName := make(map[string]*discoveryv1.EndpointSlice, len(live))
	for i := range live {
		byName[live[i].Name] = &live[i]
	}
	for _, desired := range objs.EndpointSlices {
		drifted := false
		l := byName[desired.Name]
		if l != nil {
			drifted = kubelet.SliceDrifted(desired, l)
			adopt(desired, l)
		}
		if _, err := r.ensure(ctx, apply.EndpointSliceGVK, desired, l != nil, apply.OwnedWhen(o.ManagedSlice), apply.Drifted(drifted)); err != nil {
			return err
		}
	}
	for _, name := range objs.StaleSlices {
		l := byName[name]
		if l == nil {
			continue
		}
		if err := r.Applier.DeleteIf(ctx, "EndpointSlice", l.DeepCopy(), o.ManagedSlice); err != nil {
			return err
		}
	}
	return nil
}

// adopt keeps what others put in live's metadata (kubelet.MergeMetadata) and its UID,
// which makes the update conditional on the object not having been recreated since.
func adopt(desired, live client.Object) {
	kubelet.MergeMetadata(desired, live)
	desired.SetUID(live.GetUID())
}

// get reads the live object of desired's name into live; found is false when there is
// none.
func (r *Reconciler) get(ctx context.Context, desired, live client.Object) (bool, error) {
	err := r.Client.Get(ctx, client.ObjectKeyFromObject(desired), live)
	switch {
	case apierrors.IsNotFound(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("reading %T %s/%s: %w", live, desired.GetNamespace(), desired.GetName(), err)
	}
	return true, nil
}

// notOwned reports, once per object, a Service or Endpoints of the kubelet name that the
// operator leaves alone.
func (r *Reconciler) notOwned(ctx context.Context, kind string, live client.Object) {
	r.mu.Lock()
	seen := r.conflicts[kind] == live.GetUID()
	r.conflicts[kind] = live.GetUID()
	r.mu.Unlock()
	if seen {
		return
	}
	msg := fmt.Sprintf("%s %s/%s exists and is not labelled %s=%s: the operator leaves it alone, so the kubelets are not listed in it. Delete it to let the operator create it, or add the label to hand it over.",
		kind, live.GetNamespace(), live.GetName(), kubelet.ManagedByLabel, kubelet.ManagedByValue)
	log.FromContext(ctx).Info(msg, "kind", kind, "namespace", live.GetNamespace(), "name", live.GetName())
	if r.Recorder != nil {
		if obj, ok := live.(runtime.Object); ok {
			r.Recorder.Eventf(obj, nil, corev1.EventTypeWarning, ReasonNotOwned, "Reconcile", "%s", msg)
		}
	}
}

// owned forgets a conflict that is over.
func (r *Reconciler) owned(kind string) {
	r.mu.Lock()
	delete(r.conflicts, kind)
	r.mu.Unlock()
}

// reportProblems counts the nodes and addresses left out, and logs them when they change.
func (r *Reconciler) reportProblems(ctx context.Context, problems []kubelet.Problem) {
	r.Metrics.lookupErrors.WithLabelValues().Add(float64(len(problems)))
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
	}
	joined := strings.Join(lines, "; ")
	r.mu.Lock()
	changed := joined != r.problems
	r.problems = joined
	r.mu.Unlock()
	if changed && len(problems) > 0 {
		log.FromContext(ctx).Info("nodes or addresses left out of the kubelet endpoints", "count", len(problems), "problems", joined)
	}
}

func (r *Reconciler) countAddresses(addrs []kubelet.Address) {
	v4, v6 := 0, 0
	for _, a := range addrs {
		if a.IPv6 {
			v6++
		} else {
			v4++
		}
	}
	r.Metrics.addresses.WithLabelValues("ipv4").Set(float64(v4))
	r.Metrics.addresses.WithLabelValues("ipv6").Set(float64(v6))
}
