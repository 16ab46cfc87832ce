//lint:file-ignore SA1019 the kubelet controller writes the Endpoints upstream writes.

package integration

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/lookout-operator/lookout/pkg/apply"
	kubeletctrl "github.com/lookout-operator/lookout/pkg/controller/kubelet"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// kubeletSelectorLabel selects the nodes of one test: Nodes are cluster-wide, and each
// test's controller lists only its own.
const kubeletSelectorLabel = "lookout-test/kubelet"

// kubeletHarness is a manager running only the kubelet controller.
type kubeletHarness struct {
	t   *testing.T
	reg *prometheus.Registry
	cfg kubeletctrl.Config
	mu  sync.Mutex
	log []string
}

// startKubelet runs the kubelet controller in a manager of its own, with restCfg's
// identity, until the test ends.
func startKubelet(t *testing.T, restCfg *rest.Config, cfg kubeletctrl.Config) *kubeletHarness {
	t.Helper()
	h := &kubeletHarness{t: t, reg: prometheus.NewRegistry(), cfg: cfg}
	logger := funcr.New(func(prefix, args string) {
		h.mu.Lock()
		h.log = append(h.log, prefix+" "+args)
		h.mu.Unlock()
	}, funcr.Options{Verbosity: 0})
	mgr, err := ctrl.NewManager(restCfg, manager.Options{
		Scheme:                 operator.NewScheme(),
		Logger:                 logger,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             ctrlconfig.Controller{SkipNameValidation: ptrTo(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	wm, err := apply.NewMetrics(h.reg)
	if err != nil {
		t.Fatal(err)
	}
	km, err := kubeletctrl.NewMetrics(h.reg)
	if err != nil {
		t.Fatal(err)
	}
	r := kubeletctrl.New(kubeletctrl.Deps{WriteMetrics: wm, Metrics: km, Recorder: mgr.GetEventRecorder("lookout-operator")}, cfg)
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	mctx, mcancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		mcancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	return h
}

func ptrTo[T any](v T) *T { return &v }

// writes is the controller's lookout_api_writes_total, all kinds and verbs.
func (h *kubeletHarness) writes() float64 {
	h.t.Helper()
	families, err := h.reg.Gather()
	if err != nil {
		h.t.Fatal(err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() == "lookout_api_writes_total" {
			for _, m := range f.GetMetric() {
				total += m.GetCounter().GetValue()
			}
		}
	}
	return total
}

func (h *kubeletHarness) logged(s string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, l := range h.log {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func kubeletConfig(ns string) kubeletctrl.Config {
	cfg := kubeletctrl.DefaultConfig()
	cfg.Namespace, cfg.Name = ns, "kubelet"
	cfg.Selector = labels.SelectorFromSet(labels.Set{kubeletSelectorLabel: ns})
	cfg.SyncPeriod = 2 * time.Second
	return cfg
}

// createNode creates a node selected for the test and sets its address and readiness
// through the status subresource, as a kubelet would; it is deleted when the test ends.
func createNode(t *testing.T, group, name, ip string, ready corev1.ConditionStatus) {
	t.Helper()
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{kubeletSelectorLabel: group}}}
	if err := k8s.Create(ctx, n); err != nil {
		t.Fatalf("creating node %s: %v", name, err)
	}
	t.Cleanup(func() { _ = k8s.Delete(ctx, n) })
	setNodeStatus(t, name, ip, ready)
}

func setNodeStatus(t *testing.T, name, ip string, ready corev1.ConditionStatus) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		n := &corev1.Node{}
		if err := k8s.Get(ctx, types.NamespacedName{Name: name}, n); err != nil {
			return err
		}
		n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: ip}, {Type: corev1.NodeHostName, Address: name}}
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready, Reason: "Test", LastHeartbeatTime: metav1.Now()}}
		return k8s.Status().Update(ctx, n)
	})
	if err != nil {
		t.Fatalf("setting the status of node %s: %v", name, err)
	}
}

func deleteNode(t *testing.T, name string) {
	t.Helper()
	if err := k8s.Delete(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
		t.Fatalf("deleting node %s: %v", name, err)
	}
}

// kubeletEndpoints lists the Endpoints' addresses as ip@node, in order.
func kubeletEndpoints(ns string) ([]string, error) {
	ep := &corev1.Endpoints{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, ep); err != nil {
		return nil, err
	}
	var out []string
	for _, s := range ep.Subsets {
		for _, a := range s.Addresses {
			out = append(out, a.IP+"@"+*a.NodeName)
		}
	}
	return out, nil
}

// kubeletSlices lists the Service's EndpointSlices as "name: ip ...", sorted by name.
func kubeletSlices(ns string) ([]string, []discoveryv1.EndpointSlice, error) {
	var list discoveryv1.EndpointSliceList
	if err := k8s.List(ctx, &list, client.InNamespace(ns), client.MatchingLabels{discoveryv1.LabelServiceName: "kubelet"}); err != nil {
		return nil, nil, err
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
	return out, list.Items, nil
}

func same(what string, got, want []string) error {
	if strings.Join(got, ",") != strings.Join(want, ",") {
		return fmt.Errorf("%s: got %q, want %q", what, got, want)
	}
	return nil
}

// waitKubelet waits until the Endpoints and, when wanted, the EndpointSlices list exactly
// what is given.
func waitKubelet(t *testing.T, ns, what string, endpoints, slices []string) {
	t.Helper()
	eventually(t, 30*time.Second, what, func() error {
		if endpoints != nil {
			got, err := kubeletEndpoints(ns)
			if err != nil {
				return err
			}
			if err := same("Endpoints", got, endpoints); err != nil {
				return err
			}
		}
		if slices != nil {
			got, _, err := kubeletSlices(ns)
			if err != nil {
				return err
			}
			return same("EndpointSlices", got, slices)
		}
		return nil
	})
}

// assertNoWrites checks that the controller writes nothing for d.
func (h *kubeletHarness) assertNoWrites(what string, d time.Duration) {
	h.t.Helper()
	before := h.writes()
	time.Sleep(d)
	if after := h.writes(); after != before {
		h.t.Fatalf("%s: %v writes with nothing changed", what, after-before)
	}
}

func TestKubeletEndpoints(t *testing.T) {
	ns := newNamespace(t, nil)
	createNode(t, ns, ns+"-a", "10.1.0.1", corev1.ConditionTrue)
	createNode(t, ns, ns+"-b", "10.1.0.2", corev1.ConditionFalse)
	createNode(t, "someone-else", ns+"-unselected", "10.1.0.99", corev1.ConditionTrue)
	cfg := kubeletConfig(ns)
	cfg.EndpointSlices = true
	h := startKubelet(t, env.Config, cfg)
	a, b := "10.1.0.1@"+ns+"-a", "10.1.0.2@"+ns+"-b"
	waitKubelet(t, ns, "initial nodes", []string{a, b}, []string{"kubelet-ipv4-0: 10.1.0.1 10.1.0.2"})

	// Upstream's shapes, as stored by the API server.
	svc := &corev1.Service{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, svc); err != nil {
		t.Fatal(err)
	}
	wantLabels := map[string]string{"k8s-app": "kubelet", "app.kubernetes.io/name": "kubelet", "app.kubernetes.io/managed-by": "prometheus-operator"}
	for k, v := range wantLabels {
		if svc.Labels[k] != v {
			t.Errorf("Service label %s=%q, want %q", k, svc.Labels[k], v)
		}
	}
	var ports []string
	for _, p := range svc.Spec.Ports {
		ports = append(ports, fmt.Sprintf("%s:%d/%s->%s", p.Name, p.Port, p.Protocol, p.TargetPort.String()))
	}
	if err := same("Service ports", ports, []string{"https-metrics:10250/TCP->10250", "cadvisor:4194/TCP->4194", "http-metrics:10255/TCP->10255"}); err != nil || svc.Spec.ClusterIP != "None" {
		t.Fatalf("%v (clusterIP %q)", err, svc.Spec.ClusterIP)
	}
	ep := &corev1.Endpoints{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, ep); err != nil {
		t.Fatal(err)
	}
	if ep.Labels[discoveryv1.LabelSkipMirror] != "true" || ep.Subsets[0].Addresses[0].TargetRef.Kind != "Node" || len(ep.Subsets[0].Ports) != 3 {
		t.Fatalf("unexpected Endpoints: %+v", ep)
	}
	_, slices, err := kubeletSlices(ns)
	if err != nil {
		t.Fatal(err)
	}
	sl := slices[0]
	if sl.Labels[discoveryv1.LabelManagedBy] != "prometheus-operator" || sl.OwnerReferences[0].UID != svc.UID || !*sl.Endpoints[1].Conditions.Ready ||
		*sl.Endpoints[0].NodeName != ns+"-a" || sl.AddressType != discoveryv1.AddressTypeIPv4 {
		t.Fatalf("unexpected EndpointSlice: %+v", sl)
	}

	if h.writes() != 3 {
		t.Fatalf("first pass: %v writes, want 3 (Service, Endpoints, EndpointSlice created)", h.writes())
	}
	h.assertNoWrites("after the first pass", 3*h.cfg.SyncPeriod+time.Second)

	// A label someone adds to the Service stays, and causes no write.
	svc.Labels["team"] = "infra"
	if err := k8s.Update(ctx, svc); err != nil {
		t.Fatal(err)
	}
	h.assertNoWrites("after a label was added to the Service", 3*h.cfg.SyncPeriod+time.Second)

	setNodeStatus(t, ns+"-a", "10.1.1.1", corev1.ConditionTrue)
	a = "10.1.1.1@" + ns + "-a"
	waitKubelet(t, ns, "address change", []string{a, b}, []string{"kubelet-ipv4-0: 10.1.0.2 10.1.1.1"})

	// b stops reporting and its address goes to a new node c.
	setNodeStatus(t, ns+"-b", "10.1.0.2", corev1.ConditionUnknown)
	createNode(t, ns, ns+"-c", "10.1.0.2", corev1.ConditionTrue)
	c := "10.1.0.2@" + ns + "-c"
	waitKubelet(t, ns, "readiness unknown, address taken over", []string{a, c}, []string{"kubelet-ipv4-0: 10.1.0.2 10.1.1.1"})
	eventually(t, 10*time.Second, "slice entry points at c", func() error {
		_, slices, err := kubeletSlices(ns)
		if err != nil {
			return err
		}
		if n := *slices[0].Endpoints[0].NodeName; n != ns+"-c" {
			return fmt.Errorf("10.1.0.2 is node %s", n)
		}
		return nil
	})

	createNode(t, ns, ns+"-d", "10.1.0.4", corev1.ConditionTrue)
	createNode(t, ns, ns+"-e", "fd00:10::5", corev1.ConditionTrue)
	d, e := "10.1.0.4@"+ns+"-d", "fd00:10::5@"+ns+"-e"
	waitKubelet(t, ns, "nodes added", []string{a, c, d, e}, []string{"kubelet-ipv4-0: 10.1.0.2 10.1.1.1 10.1.0.4", "kubelet-ipv6-0: fd00:10::5"})

	deleteNode(t, ns+"-a")
	deleteNode(t, ns+"-b")
	waitKubelet(t, ns, "nodes removed", []string{c, d, e}, []string{"kubelet-ipv4-0: 10.1.0.2 10.1.0.4", "kubelet-ipv6-0: fd00:10::5"})
	deleteNode(t, ns+"-e")
	waitKubelet(t, ns, "the IPv6 node removed", []string{c, d}, []string{"kubelet-ipv4-0: 10.1.0.2 10.1.0.4"})

	// Deleted by hand: recreated.
	if err := k8s.Delete(ctx, &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet"}}); err != nil {
		t.Fatal(err)
	}
	waitKubelet(t, ns, "Endpoints recreated", []string{c, d}, nil)
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, svc); err != nil || svc.Labels["team"] != "infra" {
		t.Fatalf("the Service lost the label someone added (%v): %v", err, svc.Labels)
	}
	h.assertNoWrites("at the end", 3*h.cfg.SyncPeriod+time.Second)
}

// TestKubeletManyNodes lists 600 nodes (LOOKOUT_TEST_KUBELET_NODES to change it) in
// EndpointSlices of at most 512, then deletes the slices no longer needed when a quarter
// of the nodes leave, and times the syncs.
func TestKubeletManyNodes(t *testing.T) {
	ns := newNamespace(t, nil)
	n := 600
	if v := os.Getenv("LOOKOUT_TEST_KUBELET_NODES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > 60000 {
			t.Fatalf("LOOKOUT_TEST_KUBELET_NODES=%q: want 1 to 60000", v)
		}
	}
	name := func(i int) string { return fmt.Sprintf("%s-%05d", ns, i) }
	ip := func(i int) string { return fmt.Sprintf("10.2.%d.%d", i/250, i%250+1) }
	parallel(t, n, func(i int) { createNode(t, ns, name(i), ip(i), corev1.ConditionTrue) })
	cfg := kubeletConfig(ns)
	cfg.EndpointSlices = true
	cfg.SyncPeriod = time.Minute // the syncs timed are those the changes cause
	start := time.Now()
	h := startKubelet(t, env.Config, cfg)
	listed := func(count int) func() error {
		return func() error {
			_, slices, err := kubeletSlices(ns)
			if err != nil {
				return err
			}
			total := 0
			for _, s := range slices {
				if len(s.Endpoints) > 512 {
					return fmt.Errorf("slice %s has %d endpoints", s.Name, len(s.Endpoints))
				}
				total += len(s.Endpoints)
			}
			if want := (count + 511) / 512; len(slices) != want || total != count {
				return fmt.Errorf("%d slices listing %d addresses, want %d listing %d", len(slices), total, want, count)
			}
			addrs, err := kubeletEndpoints(ns)
			if err != nil {
				return err
			}
			if len(addrs) != count {
				return fmt.Errorf("Endpoints lists %d addresses, want %d", len(addrs), count)
			}
			return nil
		}
	}
	eventually(t, 120*time.Second, fmt.Sprintf("%d nodes listed", n), listed(n))
	t.Logf("%d nodes listed %s after the start; %s", n, time.Since(start).Round(time.Millisecond), h.syncTimes())
	if n == 600 {
		if err := listed(600)(); err != nil || h.writes() != 4 {
			t.Fatalf("600 nodes: want a Service, an Endpoints and two EndpointSlices created, got %v writes (%v)", h.writes(), err)
		}
	}
	h.assertNoWrites(fmt.Sprintf("%d nodes, nothing changed", n), 5*time.Second)

	// One node's address changes: the Endpoints and one slice are rewritten.
	before := h.writes()
	changed := time.Now()
	setNodeStatus(t, name(n-1), "10.3.0.1", corev1.ConditionTrue)
	eventually(t, 60*time.Second, "address change listed", func() error {
		addrs, err := kubeletEndpoints(ns)
		if err != nil {
			return err
		}
		if last := addrs[len(addrs)-1]; last != "10.3.0.1@"+name(n-1) {
			return fmt.Errorf("last address %s", last)
		}
		return nil
	})
	t.Logf("one address change listed %s after the update (1 s of it batching); %s", time.Since(changed).Round(time.Millisecond), h.syncTimes())
	eventually(t, 10*time.Second, "two writes for one address change", func() error {
		if w := h.writes() - before; w != 2 {
			return fmt.Errorf("%v writes, want 2 (the Endpoints and one EndpointSlice)", w)
		}
		return nil
	})

	gone := n / 4
	parallel(t, gone, func(i int) { deleteNode(t, name(i)) })
	eventually(t, 120*time.Second, fmt.Sprintf("%d nodes listed", n-gone), listed(n-gone))

	// Deleted by hand, long before the next sync: the watches bring them back.
	_, slices, err := kubeletSlices(ns)
	if err != nil {
		t.Fatal(err)
	}
	if err := k8s.Delete(ctx, &slices[0]); err != nil {
		t.Fatal(err)
	}
	if err := k8s.Delete(ctx, &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet"}}); err != nil {
		t.Fatal(err)
	}
	deleted := time.Now()
	eventually(t, 30*time.Second, "deleted objects recreated", listed(n-gone))
	t.Logf("the Endpoints and an EndpointSlice deleted by hand were recreated after %s", time.Since(deleted).Round(time.Millisecond))
}

// parallel runs f(0) ... f(n-1) on 8 workers.
func parallel(t *testing.T, n int, f func(int)) {
	t.Helper()
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

// syncTimes summarises lookout_kubelet_sync_duration_seconds.
func (h *kubeletHarness) syncTimes() string {
	families, err := h.reg.Gather()
	if err != nil {
		h.t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "lookout_kubelet_sync_duration_seconds" {
			hist := f.GetMetric()[0].GetHistogram()
			if hist.GetSampleCount() == 0 {
				return "no syncs"
			}
			return fmt.Sprintf("%d syncs, %s on average", hist.GetSampleCount(),
				time.Duration(hist.GetSampleSum()/float64(hist.GetSampleCount())*float64(time.Second)).Round(time.Microsecond))
		}
	}
	return "no sync metric"
}

// TestKubeletLeavesForeignServiceAlone: a Service of the kubelet name that the operator
// did not create is neither changed nor given Endpoints; a Warning event says why.
func TestKubeletLeavesForeignServiceAlone(t *testing.T) {
	ns := newNamespace(t, nil)
	createNode(t, ns, ns+"-a", "10.3.0.1", corev1.ConditionTrue)
	users := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", Labels: map[string]string{"k8s-app": "kubelet"}},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "web", Port: 8080}}, Selector: map[string]string{"app": "mine"}},
	}
	create(t, users)
	h := startKubelet(t, env.Config, kubeletConfig(ns))
	eventually(t, 30*time.Second, "NotOwned event", func() error {
		var list eventsv1.EventList
		if err := k8s.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return err
		}
		for _, e := range list.Items {
			if e.Reason == kubeletctrl.ReasonNotOwned && e.Regarding.Name == "kubelet" && e.Regarding.Kind == "Service" && e.Type == corev1.EventTypeWarning {
				return nil
			}
		}
		return fmt.Errorf("no NotOwned event among %d", len(list.Items))
	})
	h.assertNoWrites("next to a foreign Service", 3*h.cfg.SyncPeriod+time.Second)
	svc := &corev1.Service{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, svc); err != nil {
		t.Fatal(err)
	}
	if len(svc.Spec.Ports) != 1 || svc.Annotations[layout.InputHashAnnotation] != "" {
		t.Fatalf("the user's Service changed: %+v", svc)
	}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, &corev1.Endpoints{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Endpoints written for a foreign Service: %v", err)
	}
	if h.writes() != 0 {
		t.Fatalf("%v writes", h.writes())
	}
}

// TestKubeletUpstreamTakeoverWithUpstreamRBAC swaps prometheus-operator for Lookout: the
// Service, Endpoints and EndpointSlice upstream made are there, and the operator runs
// with the permissions upstream's ClusterRole grants (no list or watch on Services and
// Endpoints, no watch on EndpointSlices). The objects are taken over in place, nodes are
// followed, and a deletion by hand is repaired at the next sync.
func TestKubeletUpstreamTakeoverWithUpstreamRBAC(t *testing.T) {
	ns := newNamespace(t, nil)
	user := "upstream-operator-" + ns
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		Rules: []rbacv1.PolicyRule{
			// From prometheus-operator's example/rbac ClusterRole...
			{APIGroups: []string{""}, Resources: []string{"services", "services/finalizers"}, Verbs: []string{"get", "create", "update", "delete"}},
			{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"get", "create", "update", "delete"}},
			{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"list", "watch"}},
			{APIGroups: []string{"events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"patch", "create"}},
			// ...and what the Helm chart adds for --kubelet-endpointslice.
			{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"get", "create", "list", "update", "delete"}},
		},
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: user},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: "User", Name: user}},
	}
	create(t, role, binding)
	t.Cleanup(func() { _ = k8s.Delete(ctx, binding); _ = k8s.Delete(ctx, role) })

	createNode(t, ns, ns+"-a", "10.4.0.1", corev1.ConditionTrue)
	createNode(t, ns, ns+"-b", "10.4.0.2", corev1.ConditionTrue)
	upstream := map[string]string{"k8s-app": "kubelet", "app.kubernetes.io/name": "kubelet", "app.kubernetes.io/managed-by": "prometheus-operator"}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range upstream {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", Labels: with(nil)},
		Spec: corev1.ServiceSpec{ClusterIP: "None", Ports: []corev1.ServicePort{
			{Name: "https-metrics", Port: 10250}, {Name: "cadvisor", Port: 4194}, {Name: "http-metrics", Port: 10255},
		}},
	}
	create(t, svc)
	ep := &corev1.Endpoints{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet", Labels: with(map[string]string{discoveryv1.LabelSkipMirror: "true"})},
		Subsets: []corev1.EndpointSubset{{
			Addresses: []corev1.EndpointAddress{{IP: "10.4.0.1", NodeName: ptrTo(ns + "-a")}, {IP: "10.4.0.9", NodeName: ptrTo("gone")}},
			Ports:     []corev1.EndpointPort{{Name: "https-metrics", Port: 10250}, {Name: "cadvisor", Port: 4194}, {Name: "http-metrics", Port: 10255}},
		}},
	}
	create(t, ep)
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, GenerateName: "kubelet-",
			Labels:          with(map[string]string{discoveryv1.LabelServiceName: "kubelet", discoveryv1.LabelManagedBy: "prometheus-operator"}),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Service", Name: "kubelet", UID: svc.UID, Controller: ptrTo(true), BlockOwnerDeletion: ptrTo(true)}},
		},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints: []discoveryv1.Endpoint{
			{Addresses: []string{"10.4.0.9"}, Conditions: discoveryv1.EndpointConditions{Ready: ptrTo(true)}, NodeName: ptrTo("gone")},
			{Addresses: []string{"10.4.0.1"}, Conditions: discoveryv1.EndpointConditions{Ready: ptrTo(true)}, NodeName: ptrTo(ns + "-a")},
		},
		Ports: []discoveryv1.EndpointPort{{Name: ptrTo("https-metrics"), Port: ptrTo(int32(10250))}},
	}
	create(t, slice)

	restCfg := rest.CopyConfig(env.Config)
	restCfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: []string{"system:authenticated"}}
	cfg := kubeletConfig(ns)
	cfg.EndpointSlices = true
	h := startKubelet(t, restCfg, cfg)

	a, b := "10.4.0.1@"+ns+"-a", "10.4.0.2@"+ns+"-b"
	waitKubelet(t, ns, "taken over", []string{a, b}, []string{slice.Name + ": 10.4.0.1 10.4.0.2"})
	live := &corev1.Service{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "kubelet"}, live); err != nil {
		t.Fatal(err)
	}
	if live.UID != svc.UID {
		t.Fatal("the Service was recreated instead of taken over")
	}
	for _, kind := range []string{"services", "endpoints", "endpointslices"} {
		if !h.logged("not watching the kubelet " + kind) {
			t.Errorf("no log line about not watching %s", kind)
		}
	}

	createNode(t, ns, ns+"-c", "10.4.0.3", corev1.ConditionTrue)
	c := "10.4.0.3@" + ns + "-c"
	waitKubelet(t, ns, "node added", []string{a, b, c}, []string{slice.Name + ": 10.4.0.1 10.4.0.2 10.4.0.3"})

	if err := k8s.Delete(ctx, &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kubelet"}}); err != nil {
		t.Fatal(err)
	}
	waitKubelet(t, ns, "Endpoints repaired at the next sync", []string{a, b, c}, nil)
	h.assertNoWrites("with upstream's RBAC", 3*h.cfg.SyncPeriod+time.Second)
}
