package selection_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/selection"
)

// BenchmarkSelect: one Prometheus selecting 20,000 ServiceMonitors in 50 namespaces,
// listed in the informer's (random) order with nothing remembered, and as a reconcile
// after a one-monitor change reads them.
func BenchmarkSelect(b *testing.B) {
	const n = 20000
	objs := make([]*monitoringv1.ServiceMonitor, n)
	for i := range objs {
		objs[i] = obj(fmt.Sprintf("bench-%02d", i%50), fmt.Sprintf("sm-%05d", i), map[string]string{"team": "a", "app": fmt.Sprint(i)})
		objs[i].ResourceVersion = fmt.Sprint(i + 1)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { objs[i], objs[j] = objs[j], objs[i] })
	c, err := selection.Compile(selection.Selector{Kind: "ServiceMonitor", Labels: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}, Namespaces: &metav1.LabelSelector{}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("shuffled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := selection.Compile(c.Selector) // nothing remembered
			if sel, _ := selection.Select(c, objs, nil, nsLabels); len(sel) != n {
				b.Fatalf("selected %d, want %d", len(sel), n)
			}
		}
	})
	// A reconcile after a one-monitor change: the informer's objects in the last
	// reconcile's order (cachedObjects), one of them replaced by a new object.
	b.Run("one-change", func(b *testing.B) {
		sorted, _ := selection.Select(c, objs, nil, nsLabels)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			i = (i + 7919) % n
			o := *sorted[i]
			o.ResourceVersion = fmt.Sprint(n + i)
			sorted[i] = &o
			if sel, _ := selection.Select(c, sorted, nil, nsLabels); len(sel) != n {
				b.Fatalf("selected %d, want %d", len(sel), n)
			}
		}
	})
}
