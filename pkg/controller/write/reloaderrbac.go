package write

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
)

// EnsureReloaderRBAC writes the Role and RoleBinding that let a config-reloader in
// API-watch mode read what it watches, owned by owner.
func (w *Writer) EnsureReloaderRBAC(ctx context.Context, role *rbacv1.Role, rb *rbacv1.RoleBinding, owner metav1.OwnerReference) error {
	role.OwnerReferences = []metav1.OwnerReference{owner}
	if err := w.EnsureHashed(ctx, apply.RoleGVK, role, role.Rules); err != nil {
		return err
	}
	rb.OwnerReferences = []metav1.OwnerReference{owner}
	return w.EnsureHashed(ctx, apply.RoleBindingGVK, rb, []any{rb.RoleRef, rb.Subjects})
}

// DeleteReloaderRBAC removes the Role and RoleBinding named name that EnsureReloaderRBAC
// wrote for the owner with UID uid (read from c, the metadata cache); an object of that
// name the owner does not own stays.
func (w *Writer) DeleteReloaderRBAC(ctx context.Context, c client.Reader, namespace, name string, uid types.UID) error {
	for _, gvk := range []schema.GroupVersionKind{apply.RoleBindingGVK, apply.RoleGVK} {
		live, err := Metadata(ctx, c, gvk, types.NamespacedName{Namespace: namespace, Name: name})
		if err != nil {
			return outcome.ApplyFailed(fmt.Errorf("reading %s %s/%s: %w", gvk.Kind, namespace, name, err))
		}
		if live == nil {
			continue
		}
		if !OwnedBy(live, uid) {
			continue // not ours: a user's object of that name stays
		}
		if err := w.Applier.Delete(ctx, gvk.Kind, live, uid); err != nil {
			return outcome.ApplyFailed(err)
		}
	}
	return nil
}

// OwnedBy reports whether o has an owner reference to the object with UID uid.
func OwnedBy(o metav1.Object, uid types.UID) bool {
	for _, ref := range o.GetOwnerReferences() {
		if ref.UID == uid {
			return true
		}
	}
	return false
}
