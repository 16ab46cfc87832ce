//lint:file-ignore SA1019 the tests check the Endpoints upstream writes.

package kubelet

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

func sliceIPs(s *discoveryv1.EndpointSlice) []string {
	out := make([]string, len(s.Endpoints))
	for i, ep := range s.Endpoints {
		out[i] = ep.Addresses[0]
	}
	return out
}

// checkSlices asserts the invariants of a placement: every address of want exactly once,
// no slice over the limit or empty, one family per slice, and the fewest slices.
func checkSlices(t *testing.T, slices []*discoveryv1.EndpointSlice, want []string, limit int) {
	t.Helper()
	seen := map[string]string{}
	for _, s := range slices {
		if len(s.Endpoints) == 0 || len(s.Endpoints) > limit {
			t.Fatalf("slice %s has %d endpoints (limit %d)", s.Name, len(s.Endpoints), limit)
		}
		for _, ip := range sliceIPs(s) {
			if prev, dup := seen[ip]; dup {
				t.Fatalf("%s is in %s and %s", ip, prev, s.Name)
			}
			seen[ip] = s.Name
			if strings.Contains(ip, ":") != (s.AddressType == discoveryv1.AddressTypeIPv6) {
				t.Fatalf("%s in a slice of type %s", ip, s.AddressType)
			}
		}
	}
	for _, ip := range want {
		if _, ok := seen[ip]; !ok {
			t.Fatalf("%s is in no slice", ip)
		}
	}
	if len(seen) != len(want) {
		t.Fatalf("%d addresses in the slices, want %d", len(seen), len(want))
	}
	addrs, got := map[discoveryv1.AddressType]int{}, map[discoveryv1.AddressType]int{}
	for _, ip := range want {
		if strings.Contains(ip, ":") {
			addrs[discoveryv1.AddressTypeIPv6]++
		} else {
			addrs[discoveryv1.AddressTypeIPv4]++
		}
	}
	for _, s := range slices {
		got[s.AddressType]++
	}
	for _, f := range []discoveryv1.AddressType{discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6} {
		if n := (addrs[f] + limit - 1) / limit; got[f] != n {
			t.Fatalf("%d %s slices for %d addresses, want %d", got[f], f, addrs[f], n)
		}
	}
}

func TestThousandsOfNodesAreSplitAcrossSlices(t *testing.T) {
	o := withSlices(defaults())
	ns := nodes(0, 1100)
	objs := Build(o, Input{Nodes: ns, ServiceUID: serviceUID})
	var want []string
	for _, a := range objs.Addresses {
		want = append(want, a.IP)
	}
	checkSlices(t, objs.EndpointSlices, want, MaxEndpointsPerSlice)
	sizes := []int{}
	for _, s := range objs.EndpointSlices {
		sizes = append(sizes, len(s.Endpoints))
	}
	if !reflect.DeepEqual(sizes, []int{512, 512, 76}) {
		t.Fatalf("slice sizes %v, want [512 512 76]", sizes)
	}
	if got := len(objs.Endpoints.Subsets[0].Addresses); got != 1100 {
		t.Fatalf("Endpoints lists %d addresses, want 1100", got)
	}
}

// TestPlacementUnderChurn replays random node joins and departures and checks after
// each step that the slices are valid and minimal, and that an address only moves when
// its slice is drained.
func TestPlacementUnderChurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	o := withSlices(defaults())
	o.MaxEndpointsPerSlice = 8
	present := map[int]bool{}
	var live []discoveryv1.EndpointSlice
	drains, most := 0, 0
	for step := 0; step < 400; step++ {
		// Grow in the first half, shrink in the second, with noise.
		grow := rng.IntN(100) < 70
		if step >= 200 {
			grow = !grow
		}
		for k := rng.IntN(12); k > 0; k-- {
			i := rng.IntN(120)
			present[i] = grow
		}
		var ns []corev1.Node
		var want []string
		for i := 0; i < 120; i++ {
			if present[i] {
				n := node(fmt.Sprintf("n%03d", i), ipv4(i))
				if i%5 == 0 {
					n = node(n.Name, ipv4(i), fmt.Sprintf("fd00::%x", i+1))
				}
				ns = append(ns, n)
			}
		}
		objs := Build(o, Input{Nodes: ns, Slices: live, ServiceUID: serviceUID})
		for _, a := range objs.Addresses {
			want = append(want, a.IP)
		}
		checkSlices(t, objs.EndpointSlices, want, 8)
		// Stability: an address of a slice that is kept stays in it.
		before := map[string]string{}
		for _, s := range live {
			for _, ep := range s.Endpoints {
				before[ep.Addresses[0]] = s.Name
			}
		}
		drained := map[string]bool{}
		for _, name := range objs.StaleSlices {
			drained[name] = true
		}
		drains += len(drained)
		most = max(most, len(objs.EndpointSlices))
		for _, s := range objs.EndpointSlices {
			for _, ip := range sliceIPs(s) {
				if prev, ok := before[ip]; ok && prev != s.Name && !drained[prev] {
					t.Fatalf("step %d: %s moved from %s (kept) to %s", step, ip, prev, s.Name)
				}
			}
		}
		// Stale slices are live ones that are no longer desired.
		desired := map[string]bool{}
		for _, s := range objs.EndpointSlices {
			desired[s.Name] = true
		}
		for _, s := range live {
			if !desired[s.Name] && !drained[s.Name] {
				t.Fatalf("step %d: live slice %s is neither desired nor deleted", step, s.Name)
			}
		}
		live = liveSlices(objs.EndpointSlices)
	}
	if drains < 10 || most < 12 {
		t.Fatalf("the churn drained %d slices and peaked at %d slices: too little to test placement", drains, most)
	}
	t.Logf("%d slices drained, at most %d slices", drains, most)
}

func TestOneNodeJoiningRewritesOneSlice(t *testing.T) {
	o := withSlices(defaults())
	ns := nodes(0, 5000)
	first := Build(o, Input{Nodes: ns, ServiceUID: serviceUID})
	live := liveSlices(first.EndpointSlices)
	// A node whose name sorts first joins, and one in the middle leaves.
	ns = append(ns[:2500:2500], ns[2501:]...)
	ns = append(ns, node("a-new-node", "10.200.0.1"))
	second := Build(o, Input{Nodes: ns, Slices: live, ServiceUID: serviceUID})
	changed := 0
	for i, s := range second.EndpointSlices {
		if s.Annotations[layout.InputHashAnnotation] != first.EndpointSlices[i].Annotations[layout.InputHashAnnotation] {
			changed++
		}
	}
	if changed != 1 || len(second.StaleSlices) != 0 {
		t.Fatalf("%d slices changed and %d deleted, want 1 and 0", changed, len(second.StaleSlices))
	}
	// Unchanged input: the same objects, the same hashes.
	again := Build(o, Input{Nodes: ns, Slices: liveSlices(second.EndpointSlices), ServiceUID: serviceUID})
	if !reflect.DeepEqual(again.EndpointSlices, second.EndpointSlices) || !reflect.DeepEqual(again.Endpoints, second.Endpoints) {
		t.Fatal("building twice from the same input differs")
	}
}

func TestHashFollowsContent(t *testing.T) {
	o := withSlices(defaults())
	a := Build(o, Input{Nodes: []corev1.Node{node("a", "10.0.0.1")}, ServiceUID: serviceUID})
	b := Build(o, Input{Nodes: []corev1.Node{node("a", "10.0.0.2")}, ServiceUID: serviceUID})
	hash := func(m metav1.Object) string { return m.GetAnnotations()[layout.InputHashAnnotation] }
	if hash(a.Service) != hash(b.Service) {
		t.Error("the Service's hash changed with a node address")
	}
	if hash(a.Endpoints) == hash(b.Endpoints) || hash(a.EndpointSlices[0]) == hash(b.EndpointSlices[0]) {
		t.Error("the Endpoints' or EndpointSlice's hash did not change with a node address")
	}
	c := Build(o, Input{Nodes: []corev1.Node{node("a", "10.0.0.1")}, ServiceUID: "other"})
	if hash(c.EndpointSlices[0]) == hash(a.EndpointSlices[0]) {
		t.Error("the EndpointSlice's hash did not change with its owner")
	}
	o.HTTPMetrics = false
	d := Build(o, Input{Nodes: []corev1.Node{node("a", "10.0.0.1")}, ServiceUID: serviceUID})
	if hash(d.Service) == hash(a.Service) {
		t.Error("the Service's hash did not change with its ports")
	}
}

func TestTrimNodeKeepsWhatBuildReads(t *testing.T) {
	full := withAddress(node("a", "10.0.0.1", "fd00::1"), corev1.NodeHostName, "a")
	full.Annotations = map[string]string{"big": strings.Repeat("x", 1000)}
	full.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubelet"}}
	full.Spec.PodCIDR = "10.244.0.0/24"
	full.Status.Images = []corev1.ContainerImage{{Names: []string{"registry/image:tag"}, SizeBytes: 1}}
	full.Status.Conditions = []corev1.NodeCondition{
		{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse},
		{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: metav1.Unix(100, 0)},
	}
	trimmed, err := TrimNode(full.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	tn := trimmed.(*corev1.Node)
	if tn.Annotations != nil || tn.ManagedFields != nil || tn.Spec.PodCIDR != "" || tn.Status.Images != nil || len(tn.Status.Conditions) != 1 || tn.Status.Conditions[0].Reason != "" {
		t.Fatalf("trimmed node keeps too much: %+v", tn)
	}
	for _, o := range []Options{defaults(), withSlices(defaults())} {
		a := Build(o, Input{Nodes: []corev1.Node{full}, ServiceUID: serviceUID})
		b := Build(o, Input{Nodes: []corev1.Node{*tn}, ServiceUID: serviceUID})
		if !reflect.DeepEqual(a, b) {
			t.Fatal("Build reads something TrimNode drops")
		}
	}
	other := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s", Annotations: map[string]string{"k": "v"}}}
	if got, _ := TrimNode(other); got != other {
		t.Fatal("TrimNode changed an object that is not a Node")
	}
}

func TestNodeChanged(t *testing.T) {
	base := node("a", "10.0.0.1")
	for _, c := range []struct {
		name string
		mut  func(*corev1.Node)
		want bool
	}{
		{"heartbeat", func(n *corev1.Node) {
			n.ResourceVersion = "2"
			n.Status.Conditions[0].LastHeartbeatTime = metav1.Unix(5, 0)
		}, false},
		{"label", func(n *corev1.Node) { n.Labels = map[string]string{"x": "y"} }, false},
		{"ready to not ready", func(n *corev1.Node) { n.Status.Conditions[0].Status = corev1.ConditionFalse }, false},
		{"ready to unknown", func(n *corev1.Node) { n.Status.Conditions[0].Status = corev1.ConditionUnknown }, true},
		{"condition gone", func(n *corev1.Node) { n.Status.Conditions = nil }, true},
		{"address changed", func(n *corev1.Node) { n.Status.Addresses[0].Address = "10.0.0.2" }, true},
		{"address added", func(n *corev1.Node) {
			n.Status.Addresses = append(n.Status.Addresses, corev1.NodeAddress{Type: corev1.NodeExternalIP, Address: "1.2.3.4"})
		}, true},
		{"recreated", func(n *corev1.Node) { n.UID = "new" }, true},
	} {
		cur := base.DeepCopy()
		c.mut(cur)
		if got := NodeChanged(&base, cur); got != c.want {
			t.Errorf("%s: NodeChanged = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestMergeMetadata(t *testing.T) {
	o := withSlices(defaults())
	desired := Build(o, Input{}).Endpoints
	live := desired.DeepCopy()
	live.Labels["team"] = "infra"
	live.Labels["operator.prometheus.io/reserved"] = "x"
	live.Labels["k8s-app"] = "edited"
	live.Annotations["note"] = "kept"
	live.Annotations[layout.InputHashAnnotation] = "old"
	o.EndpointSlices = false
	desired = Build(o, Input{}).Endpoints // no skip-mirror label any more
	hash := desired.Annotations[layout.InputHashAnnotation]
	MergeMetadata(desired, live)
	want := map[string]string{"k8s-app": "kubelet", "app.kubernetes.io/name": "kubelet", "app.kubernetes.io/managed-by": "prometheus-operator", "team": "infra"}
	if !reflect.DeepEqual(desired.Labels, want) {
		t.Errorf("labels %v, want %v", desired.Labels, want)
	}
	if !reflect.DeepEqual(desired.Annotations, map[string]string{"note": "kept", layout.InputHashAnnotation: hash}) {
		t.Errorf("annotations %v", desired.Annotations)
	}
}

func TestDrift(t *testing.T) {
	o := withSlices(defaults())
	objs := Build(o, Input{Nodes: []corev1.Node{node("a", "10.0.0.1")}, ServiceUID: serviceUID})
	svc, ep, sl := objs.Service, objs.Endpoints, objs.EndpointSlices[0]

	// What the API server stores (allocated fields, others' labels) is no drift.
	liveSvc := svc.DeepCopy()
	liveSvc.Spec.ClusterIPs = []string{"None"}
	liveSvc.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
	liveSvc.Spec.SessionAffinity = corev1.ServiceAffinityNone
	liveSvc.Labels["team"] = "infra"
	if ServiceDrifted(svc, liveSvc) || EndpointsDrifted(ep, ep.DeepCopy()) || SliceDrifted(sl, sl.DeepCopy()) {
		t.Fatal("unchanged objects reported as drifted")
	}
	for name, drifted := range map[string]bool{
		"service selector": ServiceDrifted(svc, func() *corev1.Service {
			l := liveSvc.DeepCopy()
			l.Spec.Selector = map[string]string{"a": "b"}
			return l
		}()),
		"service port": ServiceDrifted(svc, func() *corev1.Service {
			l := liveSvc.DeepCopy()
			l.Spec.Ports[0].Port = 1
			return l
		}()),
		"service label": ServiceDrifted(svc, func() *corev1.Service { l := liveSvc.DeepCopy(); delete(l.Labels, "k8s-app"); return l }()),
		"endpoints address": EndpointsDrifted(ep, func() *corev1.Endpoints {
			l := ep.DeepCopy()
			l.Subsets[0].Addresses[0].IP = "10.9.9.9"
			return l
		}()),
		"slice endpoints": SliceDrifted(sl, func() *discoveryv1.EndpointSlice { l := sl.DeepCopy(); l.Endpoints = nil; return l }()),
		"slice owner":     SliceDrifted(sl, func() *discoveryv1.EndpointSlice { l := sl.DeepCopy(); l.OwnerReferences = nil; return l }()),
	} {
		if !drifted {
			t.Errorf("%s: not reported as drifted", name)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		mut  func(*Options)
		want string
	}{
		{"valid", func(*Options) {}, ""},
		{"no name", func(o *Options) { o.Name = "" }, "needs a namespace and a name"},
		{"bad name", func(o *Options) { o.Name = "Kubelet" }, "kubelet Service name"},
		{"nothing to write", func(o *Options) { o.Endpoints = false }, "at least one of"},
		{"bad priority", func(o *Options) { o.AddressPriority = "hostname" }, "invalid node address priority"},
		{"slice too big", func(o *Options) { o.MaxEndpointsPerSlice = 1001 }, "want 1 to 1000"},
	} {
		o := defaults()
		c.mut(&o)
		err := o.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: Validate() = %v, want %q", c.name, err, c.want)
		}
	}
	for in, want := range map[string]AddressPriority{"": InternalFirst, "internal": InternalFirst, "external": ExternalFirst} {
		if got, err := ParseAddressPriority(in); err != nil || got != want {
			t.Errorf("ParseAddressPriority(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseAddressPriority("InternalIP"); err == nil {
		t.Error("ParseAddressPriority accepted InternalIP")
	}
}

func TestManagedSlice(t *testing.T) {
	o := withSlices(defaults())
	s := upstreamSlice("kubelet-abcde", discoveryv1.AddressTypeIPv4)
	if !o.ManagedSlice(&s) {
		t.Fatal("upstream's slice is not recognised")
	}
	for name, mut := range map[string]func(*discoveryv1.EndpointSlice){
		"mirrored": func(s *discoveryv1.EndpointSlice) {
			s.Labels[discoveryv1.LabelManagedBy] = "endpointslicemirroring-controller.k8s.io"
		},
		"other service":   func(s *discoveryv1.EndpointSlice) { s.Labels[discoveryv1.LabelServiceName] = "other" },
		"other namespace": func(s *discoveryv1.EndpointSlice) { s.Namespace = "default" },
	} {
		c := s.DeepCopy()
		mut(c)
		if o.ManagedSlice(c) {
			t.Errorf("%s: recognised as managed", name)
		}
	}
	keys := make([]string, 0)
	for k := range Service(o).Labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !Managed(Service(o)) {
		t.Fatalf("the Service Build makes is not Managed (labels %v)", keys)
	}
}

// BenchmarkBuild5000 measures a reconcile's computation for 5,000 nodes with both
// Endpoints and EndpointSlices, from the slices of the previous pass.
func BenchmarkBuild5000(b *testing.B) {
	o := withSlices(defaults())
	ns := nodes(0, 5000)
	live := liveSlices(Build(o, Input{Nodes: ns, ServiceUID: serviceUID}).EndpointSlices)
	b.ResetTimer()
	for b.Loop() {
		Build(o, Input{Nodes: ns, Slices: live, ServiceUID: serviceUID})
	}
}
