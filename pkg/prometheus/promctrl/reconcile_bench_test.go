package promctrl

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// kindInformers is an InformerSource with one informer (store) per object type.
type kindInformers map[reflect.Type]toolscache.SharedIndexInformer

func (k kindInformers) GetInformer(_ context.Context, obj client.Object, _ ...cache.InformerGetOption) (cache.Informer, error) {
	t := reflect.TypeOf(obj)
	inf, ok := k[t]
	if !ok {
		inf = toolscache.NewSharedIndexInformer(&toolscache.ListWatch{}, obj, 0, toolscache.Indexers{})
		k[t] = inf
	}
	return inf, nil
}

// BenchmarkReconcileOneChange is a whole reconcile of a Prometheus after one of its
// 20,000 or 100,000 ServiceMonitors (in 1,000 namespaces, read from an informer's store
// as the controller reads them) changed: selection, generation, split, the plan and its
// comparison with the objects written, the status. The client is controller-runtime's
// fake one, so the writes cost a copy rather than a request.
//
//	go test -run '^$' -bench 'ReconcileOneChange/monitors=20000' -benchtime 50x ./pkg/prometheus/promctrl
func BenchmarkReconcileOneChange(b *testing.B) {
	for _, n := range []int{20_000, 100_000} {
		b.Run(fmt.Sprintf("monitors=%d", n), func(b *testing.B) { benchmarkReconcileOneChange(b, n) })
	}
}

func benchmarkReconcileOneChange(b *testing.B, n int) {
	f := newFixture(b, Config{}, prom("p"))
	infs := kindInformers{}
	f.r.Informers = infs
	inf, _ := infs.GetInformer(context.Background(), &monitoringv1.ServiceMonitor{})
	store := inf.(toolscache.SharedIndexInformer).GetIndexer()
	sms := make([]*monitoringv1.ServiceMonitor, n)
	for i := range sms {
		sms[i] = serviceMonitor(fmt.Sprintf("svc-%05d", i), func(s *monitoringv1.ServiceMonitor) {
			s.Namespace = fmt.Sprintf("ns-%03d", i%1000)
			s.ResourceVersion = "1"
			s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{Action: "replace", SourceLabels: []monitoringv1.LabelName{"__meta_kubernetes_pod_node_name"}, TargetLabel: "node"}}
		})
		if err := store.Add(sms[i]); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.reconcile("mon", "p"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c := sms[(i*7919)%n].DeepCopy()
		c.Spec.Endpoints[0].Interval = monitoringv1.Duration(fmt.Sprintf("%ds", 31+i%20))
		c.Generation++
		c.ResourceVersion = fmt.Sprint(2 + i)
		c.ObjectMeta.ManagedFields = []metav1.ManagedFieldsEntry(nil)
		if err := store.Update(c); err != nil {
			b.Fatal(err)
		}
		sms[(i*7919)%n] = c
		if err := f.reconcile("mon", "p"); err != nil {
			b.Fatal(err)
		}
	}
}
