package resourcestatus

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/types"
)

// TestWrittenSeesAStaleCache: a status equal to a stale cache but not to the last one
// written is a change; once the cache shows the write, it is not.
func TestWrittenSeesAStaleCache(t *testing.T) {
	var w Written[string]
	nn := types.NamespacedName{Namespace: "ns", Name: "p"}
	if !w.Unchanged(nn, "True", "True") {
		t.Fatal("nothing written yet: the cache decides")
	}
	w.Remember(nn, "False")
	if w.Unchanged(nn, "True", "True") {
		t.Fatal("the cache still shows True, but False was written last: True must be written")
	}
	w.Remember(nn, "True")
	if !w.Unchanged(nn, "True", "True") {
		t.Fatal("True written and cached: unchanged")
	}
	if w.Unchanged(nn, "False", "True") {
		t.Fatal("a status other than the cached one is a change")
	}
	w.Forget(nn)
	if !w.Unchanged(nn, "True", "True") {
		t.Fatal("forgotten: the cache decides again")
	}
}

// TestWrittenAsStored: a time written with nanoseconds equals the same time read back
// from the API server, cut to the second.
func TestWrittenAsStored(t *testing.T) {
	type status struct{ At metav1.Time }
	var w Written[status]
	nn := types.NamespacedName{Namespace: "ns", Name: "p"}
	at := time.Date(2026, 12, 3, 8, 0, 0, 123456789, time.UTC)
	w.Remember(nn, status{metav1.NewTime(at)})
	cached := status{metav1.NewTime(at.Truncate(time.Second))}
	if !w.Unchanged(nn, cached, cached) {
		t.Fatal("the written status, as the cache shows it, is a change")
	}
}
