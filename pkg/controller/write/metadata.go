package write

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Metadata reads the metadata of the object of kind gvk named nn (from the cache, for the
// manager's client): nil, and no error, when there is none. Whether it is the operator's
// is OwnedBy's to say.
func Metadata(ctx context.Context, c client.Reader, gvk schema.GroupVersionKind, nn types.NamespacedName) (*metav1.PartialObjectMetadata, error) {
	live := &metav1.PartialObjectMetadata{}
	live.SetGroupVersionKind(gvk)
	if err := c.Get(ctx, nn, live); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	return live, nil
}
