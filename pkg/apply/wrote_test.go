package apply

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// TestWroteKnowsItsOwnVersions: the version an Ensure wrote is an echo; an earlier
// version, someone else's later one and other objects are not.
func TestWroteKnowsItsOwnVersions(t *testing.T) {
	ctx := context.Background()
	a, c, _, _ := newApplier(t)
	gk := secretGVK.GroupKind()
	at := func(name, rv string) *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
	}
	live := func() string {
		t.Helper()
		m := at("s", "")
		m.SetGroupVersionKind(secretGVK)
		if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "s"}, m); err != nil {
			t.Fatal(err)
		}
		return m.ResourceVersion
	}
	if a.Wrote(gk, at("s", "1")) {
		t.Fatal("nothing written yet: no echo")
	}
	if _, err := a.Ensure(ctx, secretGVK, secret("s", "h1", "one", owner("a"))); err != nil {
		t.Fatal(err)
	}
	created := live()
	if !a.Wrote(gk, at("s", created)) {
		t.Fatalf("the created version %s is the Applier's own", created)
	}
	if _, err := a.Ensure(ctx, secretGVK, secret("s", "h2", "two", owner("a"))); err != nil {
		t.Fatal(err)
	}
	updated := live()
	if !a.Wrote(gk, at("s", updated)) || a.Wrote(gk, at("s", created)) {
		t.Fatalf("only the last written version (%s, not %s) is an echo", updated, created)
	}
	// Someone else's update.
	s := secret("s", "h2", "edited", owner("a"))
	s.ResourceVersion = updated
	if err := c.Update(ctx, s); err != nil {
		t.Fatal(err)
	}
	if a.Wrote(gk, at("s", live())) {
		t.Fatal("another writer's version is not an echo")
	}
	if a.Wrote(gk, at("other", updated)) || a.Wrote(schema.GroupKind{Kind: "ConfigMap"}, at("s", updated)) {
		t.Fatal("another object is not an echo")
	}
	var none *Applier
	if none.Wrote(gk, at("s", updated)) || a.Wrote(gk, at("s", "")) {
		t.Fatal("a nil Applier or an empty version is never an echo")
	}
}
