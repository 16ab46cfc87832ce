//lint:file-ignore SA1019 the tests check the Endpoints upstream writes.

package kubelet

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/kubelet"
	"github.com/lookout-operator/lookout/pkg/layout"
)

const ns = "kube-system"

// fixture is a Reconciler over a fake client that, like the API server, gives created
// objects a UID.
type fixture struct {
	t        *testing.T
	c        client.Client
	r        *Reconciler
	writes   *apply.Metrics
	metrics  *Metrics
	recorder *events.FakeRecorder
	clock    *clocktesting.FakeClock
}

func testConfig() Config {
	c := DefaultConfig()
	c.Namespace, c.Name = ns, "kubelet"
	return c
}

func newFixture(t *testing.T, cfg Config, objs ...client.Object) *fixture {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, discoveryv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	seq := 0
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if obj.GetUID() == "" {
				seq++
				obj.SetUID(types.UID(fmt.Sprintf("uid-%d", seq)))
			}
			return c.Create(ctx, obj, opts...)
		},
	}).Build()
	wm, _ := apply.NewMetrics(nil)
	m, _ := NewMetrics(nil)
	rec := events.NewFakeRecorder(100)
	clk := clocktesting.NewFakeClock(time.Unix(1_700_000_000, 0))
	r := New(Deps{Client: c, Applier: apply.New(c, wm, clk), Recorder: rec, Metrics: m, Clock: clk}, cfg)
	return &fixture{t: t, c: c, r: r, writes: wm, metrics: m, recorder: rec, clock: clk}
}

func (f *fixture) reconcile() reconcile.Result {
	f.t.Helper()
	res, err := f.r.Reconcile(context.Background(), reconcile.Request{NamespacedName: f.r.ServiceKey()})
	if err != nil {
		f.t.Fatalf("reconcile: %v", err)
	}
	return res
}

func (f *fixture) totalWrites() float64 { return f.writes.Total() }

func (f *fixture) writesOf(kind, verb string) int {
	return int(testutil.ToFloat64(f.writes.Writes.WithLabelValues(kind, verb)))
}

func (f *fixture) get(o client.Object, name string) {
	f.t.Helper()
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, o); err != nil {
		f.t.Fatalf("reading %T %s: %v", o, name, err)
	}
}

func (f *fixture) node(name string) *corev1.Node {
	f.t.Helper()
	n := &corev1.Node{}
	if err := f.c.Get(context.Background(), types.NamespacedName{Name: name}, n); err != nil {
		f.t.Fatal(err)
	}
	return n
}

func (f *fixture) create(o client.Object) {
	f.t.Helper()
	if err := f.c.Create(context.Background(), o); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) update(o client.Object) {
	f.t.Helper()
	if err := f.c.Update(context.Background(), o); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) updateStatus(o client.Object) {
	f.t.Helper()
	if err := f.c.Status().Update(context.Background(), o); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) delete(o client.Object) {
	f.t.Helper()
	if err := f.c.Delete(context.Background(), o); err != nil {
		f.t.Fatal(err)
	}
}

// endpointIPs lists the addresses of the Endpoints, in order.
func (f *fixture) endpointIPs() []string {
	f.t.Helper()
	ep := &corev1.Endpoints{}
	f.get(ep, "kubelet")
	var out []string
	for _, s := range ep.Subsets {
		for _, a := range s.Addresses {
			nodeName := ""
			if a.NodeName != nil {
				nodeName = *a.NodeName
			}
			out = append(out, a.IP+"@"+nodeName)
		}
	}
	return out
}

// slices lists the kubelet EndpointSlices as "name: ip ip ...", sorted by name.
func (f *fixture) slices() []string {
	f.t.Helper()
	var list discoveryv1.EndpointSliceList
	if err := f.c.List(context.Background(), &list, client.InNamespace(ns), client.MatchingLabels{discoveryv1.LabelServiceName: "kubelet"}); err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, s := range list.Items {
		var ips []string
		for _, ep := range s.Endpoints {
			ips = append(ips, ep.Addresses...)
		}
		out = append(out, s.Name+": "+strings.Join(ips, " "))
	}
	sort.Strings(out)
	return out
}

func node(name, ip string) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{"pool": "default"}},
		Status: corev1.NodeStatus{
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: ip}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}
}

func eq(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestCreatesUpstreamShapes(t *testing.T) {
	cfg := testConfig()
	cfg.EndpointSlices = true
	f := newFixture(t, cfg, node("b", "10.0.0.2"), node("a", "10.0.0.1"))
	if res := f.reconcile(); res.RequeueAfter != DefaultSyncPeriod {
		t.Fatalf("RequeueAfter %s, want the sync period %s", res.RequeueAfter, DefaultSyncPeriod)
	}
	svc := &corev1.Service{}
	f.get(svc, "kubelet")
	if svc.Spec.ClusterIP != corev1.ClusterIPNone || len(svc.Spec.Ports) != 3 || svc.Labels["app.kubernetes.io/managed-by"] != "prometheus-operator" ||
		svc.Labels["k8s-app"] != "kubelet" || svc.Labels["app.kubernetes.io/name"] != "kubelet" {
		t.Fatalf("unexpected Service: %+v", svc)
	}
	eq(t, "Endpoints", f.endpointIPs(), []string{"10.0.0.1@a", "10.0.0.2@b"})
	eq(t, "EndpointSlices", f.slices(), []string{"kubelet-ipv4-0: 10.0.0.1 10.0.0.2"})
	sl := &discoveryv1.EndpointSlice{}
	f.get(sl, "kubelet-ipv4-0")
	if len(sl.OwnerReferences) != 1 || sl.OwnerReferences[0].UID != svc.UID || sl.Labels[discoveryv1.LabelManagedBy] != "prometheus-operator" {
		t.Fatalf("slice not owned by the Service %s or not labelled: %+v", svc.UID, sl.ObjectMeta)
	}
	ep := &corev1.Endpoints{}
	f.get(ep, "kubelet")
	if ep.Labels[discoveryv1.LabelSkipMirror] != "true" {
		t.Fatal("Endpoints lack the skip-mirror label while the operator writes EndpointSlices")
	}
	if got := testutil.ToFloat64(f.metrics.syncs.WithLabelValues("endpointslice")); got != 1 {
		t.Fatalf("endpointslice syncs %v, want 1", got)
	}
	if got := testutil.ToFloat64(f.metrics.managedRes.WithLabelValues("endpoints")); got != 1 {
		t.Fatalf("managed endpoints gauge %v, want 1", got)
	}
}

func TestNodeChangesAndZeroWritesOnResync(t *testing.T) {
	cfg := testConfig()
	cfg.EndpointSlices = true
	f := newFixture(t, cfg, node("a", "10.0.0.1"), node("b", "10.0.0.2"))
	f.reconcile()
	if f.writesOf("Service", "create") != 1 || f.writesOf("Endpoints", "create") != 1 || f.writesOf("EndpointSlice", "create") != 1 {
		t.Fatalf("first pass: want one create of each kind, got %v writes", f.totalWrites())
	}
	before := f.totalWrites()
	f.reconcile()
	f.reconcile()
	if got := f.totalWrites(); got != before {
		t.Fatalf("resync with nothing changed wrote %v times", got-before)
	}

	step := func(what string, change func(), endpoints, slices []string) {
		t.Helper()
		change()
		w := f.totalWrites()
		f.reconcile()
		eq(t, what+": Endpoints", f.endpointIPs(), endpoints)
		eq(t, what+": EndpointSlices", f.slices(), slices)
		if f.totalWrites() == w {
			t.Fatalf("%s: nothing written", what)
		}
		if f.writesOf("Service", "update") != 0 {
			t.Fatalf("%s: the Service was rewritten", what)
		}
		w = f.totalWrites()
		f.reconcile()
		if f.totalWrites() != w {
			t.Fatalf("%s: the resync after it wrote again", what)
		}
	}
	step("node added", func() { f.create(node("c", "10.0.0.3")) },
		[]string{"10.0.0.1@a", "10.0.0.2@b", "10.0.0.3@c"}, []string{"kubelet-ipv4-0: 10.0.0.1 10.0.0.2 10.0.0.3"})
	step("node removed", func() { f.delete(node("a", "")) },
		[]string{"10.0.0.2@b", "10.0.0.3@c"}, []string{"kubelet-ipv4-0: 10.0.0.2 10.0.0.3"})
	step("address changed", func() {
		n := f.node("b")
		n.Status.Addresses[0].Address = "10.0.1.2"
		f.updateStatus(n)
	}, []string{"10.0.1.2@b", "10.0.0.3@c"}, []string{"kubelet-ipv4-0: 10.0.0.3 10.0.1.2"})
	step("readiness unknown and address taken over", func() {
		n := f.node("c")
		n.Status.Conditions[0].Status = corev1.ConditionUnknown
		f.updateStatus(n)
		f.create(node("d", "10.0.0.3"))
	}, []string{"10.0.1.2@b", "10.0.0.3@d"}, []string{"kubelet-ipv4-0: 10.0.0.3 10.0.1.2"})
	step("every node gone", func() {
		f.delete(node("b", ""))
		f.delete(node("c", ""))
		f.delete(node("d", ""))
	}, nil, nil)
	if f.writesOf("EndpointSlice", "delete") != 1 {
		t.Fatalf("EndpointSlice deletes %d, want 1", f.writesOf("EndpointSlice", "delete"))
	}
}

func TestStaleSlicesAreDeleted(t *testing.T) {
	cfg := testConfig()
	cfg.EndpointSlices, cfg.Endpoints = true, false
	var objs []client.Object
	for i := 0; i < 1100; i++ {
		objs = append(objs, node(fmt.Sprintf("n%04d", i), fmt.Sprintf("10.0.%d.%d", i/256, i%256)))
	}
	f := newFixture(t, cfg, objs...)
	f.reconcile()
	if got := len(f.slices()); got != 3 {
		t.Fatalf("%d slices for 1100 nodes, want 3", got)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "kubelet"}, &corev1.Endpoints{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Endpoints written although disabled: %v", err)
	}
	for i := 0; i < 600; i++ {
		f.delete(node(fmt.Sprintf("n%04d", i), ""))
	}
	f.reconcile()
	got := f.slices()
	if len(got) != 1 || len(strings.Fields(got[0])) != 501 {
		t.Fatalf("after 600 of 1100 nodes left: %d slices (%v...), want one of 500", len(got), strings.Join(got, " ")[:80])
	}
	if f.writesOf("EndpointSlice", "delete") != 2 {
		t.Fatalf("deleted %d slices, want 2", f.writesOf("EndpointSlice", "delete"))
	}
}

func TestSelector(t *testing.T) {
	cfg := testConfig()
	cfg.Selector = labels.SelectorFromSet(labels.Set{"pool": "default"})
	other := node("gpu", "10.0.0.9")
	other.Labels = map[string]string{"pool": "gpu"}
	f := newFixture(t, cfg, node("a", "10.0.0.1"), other)
	f.reconcile()
	eq(t, "Endpoints", f.endpointIPs(), []string{"10.0.0.1@a"})
}

func TestForeignServiceIsLeftAlone(t *testing.T) {
	users := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", UID: "user-svc", Labels: map[string]string{"k8s-app": "kubelet"}},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "web", Port: 80}}, Selector: map[string]string{"app": "mine"}},
	}
	f := newFixture(t, testConfig(), users, node("a", "10.0.0.1"))
	f.reconcile()
	f.reconcile()
	svc := &corev1.Service{}
	f.get(svc, "kubelet")
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Name != "web" || svc.Annotations[layout.InputHashAnnotation] != "" {
		t.Fatalf("the user's Service was changed: %+v", svc)
	}
	if f.totalWrites() != 0 {
		t.Fatalf("%v writes next to a foreign Service, want none", f.totalWrites())
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "kubelet"}, &corev1.Endpoints{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Endpoints written for a foreign Service: %v", err)
	}
	if got := testutil.ToFloat64(f.metrics.syncFailures.WithLabelValues("endpoints")); got != 2 {
		t.Fatalf("failed endpoints syncs %v, want 2", got)
	}
	// One event, not one per reconcile.
	if n := len(f.recorder.Events); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
	if e := <-f.recorder.Events; !strings.Contains(e, "Warning NotOwned") || !strings.Contains(e, "app.kubernetes.io/managed-by=prometheus-operator") {
		t.Fatalf("event %q", e)
	}

	// The user hands it over by labelling it.
	svc.Labels["app.kubernetes.io/managed-by"] = "prometheus-operator"
	f.update(svc)
	f.reconcile()
	f.get(svc, "kubelet")
	if len(svc.Spec.Ports) != 3 || len(svc.Spec.Selector) != 0 {
		t.Fatalf("the handed-over Service was not rewritten: %+v", svc.Spec)
	}
	eq(t, "Endpoints", f.endpointIPs(), []string{"10.0.0.1@a"})
}

func TestForeignEndpointsAreLeftAlone(t *testing.T) {
	users := &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", UID: "user-ep"},
		Subsets:    []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "192.168.1.1"}}, Ports: []corev1.EndpointPort{{Port: 1}}}},
	}
	cfg := testConfig()
	cfg.EndpointSlices = true
	f := newFixture(t, cfg, users, node("a", "10.0.0.1"))
	f.reconcile()
	eq(t, "Endpoints", f.endpointIPs(), []string{"192.168.1.1@"})
	eq(t, "EndpointSlices", f.slices(), []string{"kubelet-ipv4-0: 10.0.0.1"})
	if n := len(f.recorder.Events); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
}

// TestTakeOverFromUpstream starts from what prometheus-operator leaves behind: its
// Service, Endpoints and EndpointSlices (generated names), with a label someone added.
func TestTakeOverFromUpstream(t *testing.T) {
	upstreamLabels := func(extra map[string]string) map[string]string {
		l := map[string]string{"k8s-app": "kubelet", "app.kubernetes.io/name": "kubelet", "app.kubernetes.io/managed-by": "prometheus-operator"}
		for k, v := range extra {
			l[k] = v
		}
		return l
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", UID: "upstream-svc", Labels: upstreamLabels(map[string]string{"team": "infra"})},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP, ClusterIP: "None", ClusterIPs: []string{"None"}, Ports: []corev1.ServicePort{
			{Name: "https-metrics", Port: 10250}, {Name: "cadvisor", Port: 4194}, {Name: "http-metrics", Port: 10255},
		}},
	}
	ep := &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", Labels: upstreamLabels(map[string]string{discoveryv1.LabelSkipMirror: "true"})},
		Subsets:    []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}, {IP: "10.0.0.7"}}, Ports: []corev1.EndpointPort{{Name: "https-metrics", Port: 10250}}}},
	}
	sliceLabels := upstreamLabels(map[string]string{discoveryv1.LabelServiceName: "kubelet", discoveryv1.LabelManagedBy: "prometheus-operator"})
	keep := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: "kubelet-x7k2p", Labels: sliceLabels},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.1"}}, {Addresses: []string{"10.0.0.7"}}},
	}
	empty := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: "kubelet-b2m4q", Labels: sliceLabels},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.8"}}},
	}
	mirrored := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet-mirror", Labels: map[string]string{
			discoveryv1.LabelServiceName: "kubelet", discoveryv1.LabelManagedBy: "endpointslicemirroring-controller.k8s.io",
		}},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	cfg := testConfig()
	cfg.EndpointSlices = true
	f := newFixture(t, cfg, svc, ep, keep, empty, mirrored, node("a", "10.0.0.1"), node("b", "10.0.0.2"))
	f.reconcile()

	f.get(svc, "kubelet")
	if svc.UID != "upstream-svc" || svc.Labels["team"] != "infra" || svc.Annotations[layout.InputHashAnnotation] == "" {
		t.Fatalf("Service not taken over in place, or its extra label lost: %+v", svc.ObjectMeta)
	}
	eq(t, "Endpoints", f.endpointIPs(), []string{"10.0.0.1@a", "10.0.0.2@b"})
	eq(t, "EndpointSlices", f.slices(), []string{"kubelet-mirror: ", "kubelet-x7k2p: 10.0.0.1 10.0.0.2"})
	f.get(keep, "kubelet-x7k2p")
	if keep.OwnerReferences[0].UID != "upstream-svc" {
		t.Fatalf("slice owner %v", keep.OwnerReferences)
	}
	if f.writesOf("EndpointSlice", "create") != 0 || f.writesOf("EndpointSlice", "delete") != 1 || f.writesOf("Service", "create") != 0 {
		t.Fatal("the takeover created or deleted more than the empty slice")
	}
	w := f.totalWrites()
	f.reconcile()
	if f.totalWrites() != w {
		t.Fatal("the resync after the takeover wrote")
	}
}

// TestDriftIsRepaired edits the Endpoints behind the operator's back, keeping its hash
// annotation (as upstream does when it writes an object Lookout wrote before).
func TestDriftIsRepaired(t *testing.T) {
	f := newFixture(t, testConfig(), node("a", "10.0.0.1"))
	f.reconcile()
	ep := &corev1.Endpoints{}
	f.get(ep, "kubelet")
	ep.Subsets[0].Addresses[0].IP = "10.9.9.9"
	ep.Labels["added"] = "by-hand"
	f.update(ep)
	f.reconcile()
	eq(t, "Endpoints", f.endpointIPs(), []string{"10.0.0.1@a"})
	f.get(ep, "kubelet")
	if ep.Labels["added"] != "by-hand" {
		t.Fatal("a label someone added was dropped")
	}
}

func TestSliceNamesOfOthersAreAvoided(t *testing.T) {
	squatter := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: "kubelet-ipv4-0", Labels: map[string]string{discoveryv1.LabelServiceName: "other"}},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	cfg := testConfig()
	cfg.EndpointSlices = true
	f := newFixture(t, cfg, squatter, node("a", "10.0.0.1"))
	f.reconcile()
	eq(t, "EndpointSlices", f.slices(), []string{"kubelet-ipv4-1: 10.0.0.1"})
	f.get(squatter, "kubelet-ipv4-0")
	if len(squatter.Endpoints) != 0 || squatter.Labels[discoveryv1.LabelServiceName] != "other" {
		t.Fatal("another Service's slice was written")
	}
}

func TestServiceRecreatedOutOfBand(t *testing.T) {
	cfg := testConfig()
	cfg.EndpointSlices = true
	f := newFixture(t, cfg, node("a", "10.0.0.1"))
	f.reconcile()
	svc := &corev1.Service{}
	f.get(svc, "kubelet")
	f.delete(svc)
	// The Applier trusts its own recent writes over a read for a few seconds (a cache
	// may lag): the controller looks again soon rather than at the next sync, and then
	// sees the deletion.
	if res := f.reconcile(); res.RequeueAfter != recheckAfter {
		t.Fatalf("RequeueAfter %s right after the deletion, want %s", res.RequeueAfter, recheckAfter)
	}
	f.clock.Step(time.Minute)
	if res := f.reconcile(); res.RequeueAfter != DefaultSyncPeriod {
		t.Fatalf("RequeueAfter %s once recreated, want %s", res.RequeueAfter, DefaultSyncPeriod)
	}
	f.get(svc, "kubelet")
	sl := &discoveryv1.EndpointSlice{}
	f.get(sl, "kubelet-ipv4-0")
	if sl.OwnerReferences[0].UID != svc.UID {
		t.Fatalf("slice owned by %s, the new Service is %s", sl.OwnerReferences[0].UID, svc.UID)
	}
}

func TestConfig(t *testing.T) {
	nsName, name, err := ParseService("kube-system/kubelet")
	if err != nil || nsName != "kube-system" || name != "kubelet" {
		t.Fatalf("ParseService: %q %q %v", nsName, name, err)
	}
	for _, bad := range []string{"kubelet", "/kubelet", "kube-system/", "a/b/c"} {
		if _, _, err := ParseService(bad); err == nil {
			t.Errorf("ParseService(%q) accepted", bad)
		}
	}
	c := testConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Endpoints = false
	if err := c.Validate(); err == nil {
		t.Fatal("a config writing nothing validated")
	}
	d := DefaultConfig()
	if !d.Endpoints || d.EndpointSlices || !d.HTTPMetrics || d.AddressPriority != kubelet.InternalFirst || d.SyncPeriod != 3*time.Minute {
		t.Fatalf("defaults differ from upstream's: %+v", d)
	}
}
