package write

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// EnsureStatefulSet ensures one StatefulSet, read from c (the cache). A change to a field
// the API server refuses to update makes it delete the live one with propagation Orphan
// (pods and claims stay and are adopted) and fail, so that the next reconcile creates it
// (recreated is then true); a replica count changed by hand, or drifted, rewrites it even
// though the hash did not change. owner is the UID that must own the live StatefulSet.
func (w *Writer) EnsureStatefulSet(ctx context.Context, c client.Reader, desired *appsv1.StatefulSet, owner types.UID, drifted bool) (recreated bool, err error) {
	live := &appsv1.StatefulSet{}
	err = c.Get(ctx, client.ObjectKeyFromObject(desired), live)
	switch {
	case apierrors.IsNotFound(err):
		return false, w.Ensure(ctx, apply.StatefulSetGVK, desired, apply.CachedAs(&appsv1.StatefulSet{}))
	case err != nil:
		return false, outcome.ApplyFailed(fmt.Errorf("reading StatefulSet %s/%s: %w", desired.Namespace, desired.Name, err))
	}
	if recreate, why := workload.NeedsRecreate(live, desired); recreate {
		if err := w.Applier.Delete(ctx, "StatefulSet", live, owner, client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
			return false, outcome.ApplyFailed(err)
		}
		return true, outcome.ApplyFailed(fmt.Errorf("StatefulSet %s/%s is being recreated (orphaning its pods) because %s changed; it is created again on the next reconcile", live.Namespace, live.Name, why))
	}
	drifted = drifted || ptr.Deref(live.Spec.Replicas, 1) != ptr.Deref(desired.Spec.Replicas, 1)
	return false, w.Ensure(ctx, apply.StatefulSetGVK, desired, apply.Drifted(drifted), apply.CachedAs(&appsv1.StatefulSet{}))
}
