package instance

import (
	"context"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
)

// OwnerRef makes o (an object of the kind) an owner of what it generates, the controlling
// one when controller is set.
func (r *Reconciler[O, S, St]) OwnerRef(o client.Object, controller bool) metav1.OwnerReference {
	ref := metav1.OwnerReference{APIVersion: r.Info.APIVersion, Kind: r.Info.Kind, Name: o.GetName(), UID: o.GetUID(), BlockOwnerDeletion: ptr.To(true)}
	if controller {
		ref.Controller = ptr.To(true)
	}
	return ref
}

// ApplyGoverningService writes the headless Service svc shared by the objects of the kind
// in its namespace (prometheus-operated, alertmanager-operated, thanos-ruler-operated):
// every object of the namespace that uses it (uses: no spec.serviceName), whichever
// operator instance manages it, owns it, so it goes away with the last and operators with
// disjoint instance selectors agree on it and never rewrite it in turn. each, when set,
// adjusts svc for every owner (the Thanos gRPC port of a Prometheus with a sidecar).
func (r *Reconciler[O, S, St]) ApplyGoverningService(ctx context.Context, svc *corev1.Service, uses func(O) bool, each func(O, *corev1.Service)) error {
	list, err := r.steps.List(ctx, r.Client, client.InNamespace(svc.Namespace))
	if err != nil {
		return outcome.ApplyFailed(fmt.Errorf("listing the %s objects of namespace %s: %w", r.Info.Kind, svc.Namespace, err))
	}
	var owners []metav1.OwnerReference
	for _, o := range list {
		if o.GetDeletionTimestamp() == nil && uses(o) {
			owners = append(owners, r.OwnerRef(o, false))
			if each != nil {
				each(o, svc)
			}
		}
	}
	sort.Slice(owners, func(i, j int) bool { return owners[i].Name < owners[j].Name })
	svc.OwnerReferences = owners
	return r.Writer().EnsureHashed(ctx, apply.ServiceGVK, svc, []any{svc.Labels, svc.Spec, owners})
}

// CheckService refuses an object whose spec.serviceName names a Service that does not
// exist or does not select its pods (check says which), as prometheus-operator does. The
// Service is read from the API server: the operator's RBAC (upstream's too) does not list
// Services.
func (r *Reconciler[O, S, St]) CheckService(ctx context.Context, namespace, name string, check func(*corev1.Service) error) error {
	reader := r.APIReader
	if reader == nil {
		reader = r.Client
	}
	svc := &corev1.Service{}
	err := reader.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, svc)
	switch {
	case apierrors.IsNotFound(err):
		svc = nil
	case err != nil:
		return outcome.ApplyFailed(fmt.Errorf("reading the Service of spec.serviceName: %w", err))
	}
	return outcome.Invalid(check(svc))
}
