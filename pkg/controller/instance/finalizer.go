package instance

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// StatusCleanupFinalizer is the finalizer prometheus-operator puts on Prometheus,
// PrometheusAgent, Alertmanager and ThanosRuler objects with its
// StatusForConfigurationResources feature gate, to remove their status bindings from the
// selected objects before they go. Lookout adds none (bindings of an object that is gone
// are removed when it goes), but an object taken over from prometheus-operator keeps
// upstream's, and without a controller to release it the object stays Terminating.
const StatusCleanupFinalizer = "monitoring.coreos.com/status-cleanup"

// releaseUpstreamFinalizer, for an object being deleted, removes its status bindings and
// then prometheus-operator's finalizer, so the deletion completes as it would upstream.
// Other finalizers are left to their owners.
func (r *Reconciler[O, S, St]) releaseUpstreamFinalizer(ctx context.Context, obj client.Object, nn types.NamespacedName) error {
	if !controllerutil.ContainsFinalizer(obj, StatusCleanupFinalizer) {
		return nil
	}
	r.Forget(nn)
	orig, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return fmt.Errorf("copying %s %s", r.Info.Kind, nn)
	}
	out, _ := obj.DeepCopyObject().(client.Object)
	controllerutil.RemoveFinalizer(out, StatusCleanupFinalizer)
	if err := r.Client.Patch(ctx, out, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("removing the %s finalizer of %s %s: %w", StatusCleanupFinalizer, r.Info.Kind, nn, err)
	}
	return nil
}
