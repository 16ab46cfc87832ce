// Package nslabels reads the labels of every namespace from the metadata cache, for the
// namespace selectors of the controllers.
package nslabels

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/selection"
)

// List reads every namespace's labels through c (the manager's metadata cache).
func List(ctx context.Context, c client.Reader) (selection.NamespaceLabels, error) {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("NamespaceList"))
	if err := c.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		return nil, fmt.Errorf("listing namespaces: %w", err)
	}
	m := make(map[string]map[string]string, len(list.Items))
	for i := range list.Items {
		m[list.Items[i].Name] = list.Items[i].Labels
	}
	return func(ns string) (map[string]string, bool) { l, ok := m[ns]; return l, ok }, nil
}
