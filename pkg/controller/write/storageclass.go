package write

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
)

// CheckStorageClass refuses a storage spec whose volumeClaimTemplate names a StorageClass
// that does not exist, as prometheus-operator does: the StatefulSet would be accepted and
// its claims would stay Pending. c reads from the API server (StorageClasses are not
// cached); a nil c skips the check (the operator may not read StorageClasses).
func CheckStorageClass(ctx context.Context, c client.Reader, storage *monitoringv1.StorageSpec) error {
	if c == nil || storage == nil {
		return nil
	}
	name := ptr.Deref(storage.VolumeClaimTemplate.Spec.StorageClassName, "")
	if name == "" {
		return nil
	}
	err := c.Get(ctx, types.NamespacedName{Name: name}, &storagev1.StorageClass{})
	switch {
	case apierrors.IsNotFound(err):
		return outcome.Invalid(fmt.Errorf("spec.storage.volumeClaimTemplate.spec.storageClassName: storage class %q does not exist", name))
	case err != nil:
		return outcome.ApplyFailed(fmt.Errorf("reading storage class %q: %w", name, err))
	}
	return nil
}
