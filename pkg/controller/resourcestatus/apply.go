package resourcestatus

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ApplyStatus applies status (any value that marshals to the object's status) to the
// object apiVersion/kind namespace/name with server-side apply as FieldOwner, forcing
// ownership of the fields it sets. An object deleted meanwhile is not an error; applied
// reports whether the write reached an existing object.
func ApplyStatus(ctx context.Context, c client.Client, apiVersion, kind, namespace, name string, status any) (applied bool, err error) {
	return ApplyStatusAs(ctx, c, FieldOwner, apiVersion, kind, namespace, name, status)
}

// ApplyStatusAs is ApplyStatus with another field manager (the scale harness measures
// the API server's status write rate as a writer of its own).
func ApplyStatusAs(ctx context.Context, c client.Client, fieldOwner, apiVersion, kind, namespace, name string, status any) (applied bool, err error) {
	b, err := json.Marshal(status)
	if err != nil {
		return false, err
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		return false, err
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion,
		"kind":       kind,
		"metadata":   map[string]any{"name": name, "namespace": namespace},
		"status":     st,
	}}
	err = c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(fieldOwner), client.ForceOwnership)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("applying status of %s %s/%s: %w", kind, namespace, name, err)
	}
	return true, nil
}
