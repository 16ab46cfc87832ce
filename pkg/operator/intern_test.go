package operator

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
)

// decoded returns a fresh copy of s, as a decoder makes one per object.
func decoded(s string) string { return string([]byte(s)) }

func boundMonitor(name string) *monitoringv1.ServiceMonitor {
	return &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: decoded("team-a"), Name: name, ResourceVersion: "7", Generation: 2,
			Labels:        map[string]string{decoded("team"): decoded("a")},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
		},
		Spec: monitoringv1.ServiceMonitorSpec{Endpoints: []monitoringv1.Endpoint{{Port: "web"}}},
		Status: monitoringv1.ConfigResourceStatus{Bindings: []monitoringv1.WorkloadBinding{{
			Group: decoded("monitoring.coreos.com"), Resource: decoded("prometheuses"), Namespace: decoded("mon"), Name: decoded("k8s"),
			Conditions: []monitoringv1.ConfigResourceCondition{{
				Type: monitoringv1.Accepted, Status: monitoringv1.ConditionTrue, Reason: decoded(""), ObservedGeneration: 2,
				LastTransitionTime: metav1.NewTime(time.Unix(1, 0)),
			}},
		}}},
	}
}

// TestInternMonitor: the transform strips managed fields, as the default one does, and
// shares the namespace, label value and binding strings between objects; nothing else changes.
func TestInternMonitor(t *testing.T) {
	tr := internMonitor(cache.TransformStripManagedFields())
	a, b := boundMonitor("a"), boundMonitor("b")
	want := boundMonitor("a")
	want.ManagedFields = nil
	outA, err := tr(a)
	if err != nil {
		t.Fatal(err)
	}
	outB, _ := tr(b)
	ga, gb := outA.(*monitoringv1.ServiceMonitor), outB.(*monitoringv1.ServiceMonitor)
	if !reflect.DeepEqual(ga, want) {
		t.Fatalf("transformed\n%+v\nwant\n%+v", ga, want)
	}
	same := func(what, x, y string) {
		t.Helper()
		if unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s not shared", what)
		}
	}
	same("namespace", ga.Namespace, gb.Namespace)
	for k := range ga.Labels {
		same("label value", ga.Labels[k], gb.Labels[k])
	}
	ba, bb := ga.Status.Bindings[0], gb.Status.Bindings[0]
	same("binding group", ba.Group, bb.Group)
	same("binding resource", ba.Resource, bb.Resource)
	same("binding namespace", ba.Namespace, bb.Namespace)
	same("binding name", ba.Name, bb.Name)
	same("condition type", string(ba.Conditions[0].Type), string(bb.Conditions[0].Type))
}

// Every monitor kind and PrometheusRule is cached through the transform.
func TestMonitorsCachedInterned(t *testing.T) {
	objs := []client.Object{&monitoringv1.PrometheusRule{}}
	for _, k := range monitorkind.All {
		objs = append(objs, k.New())
	}
	co := cacheOptions(DefaultOptions())
	for _, o := range objs {
		found := false
		for obj, b := range co.ByObject {
			if reflect.TypeOf(obj) == reflect.TypeOf(o) {
				found = b.Transform != nil
			}
		}
		if !found {
			t.Errorf("%T has no transform", o)
		}
	}
	if configResourceStatus(&monitoringv1alpha1.ScrapeConfig{}) == nil {
		t.Error("ScrapeConfig's status is not interned")
	}
}

// TestInternMonitorDropsLastApplied: kubectl's last-applied copy of a monitor is not
// cached; the other annotations are.
func TestInternMonitorDropsLastApplied(t *testing.T) {
	tr := internMonitor(cache.TransformStripManagedFields())
	only := boundMonitor("a")
	only.Annotations = map[string]string{lastApplied: `{"apiVersion":"monitoring.coreos.com/v1"}`}
	both := boundMonitor("b")
	both.Annotations = map[string]string{lastApplied: "{}", "team": "a"}
	for _, o := range []*monitoringv1.ServiceMonitor{only, both} {
		if _, err := tr(o); err != nil {
			t.Fatal(err)
		}
	}
	if only.Annotations != nil {
		t.Errorf("annotations %v, want none", only.Annotations)
	}
	if want := map[string]string{"team": "a"}; !reflect.DeepEqual(both.Annotations, want) {
		t.Errorf("annotations %v, want %v", both.Annotations, want)
	}
}
