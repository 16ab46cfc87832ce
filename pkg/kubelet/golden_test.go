package kubelet

import (
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/test/goldentest"
)

func defaults() Options {
	return Options{Namespace: "kube-system", Name: "kubelet", Endpoints: true, HTTPMetrics: true, AddressPriority: InternalFirst}
}

func withSlices(o Options) Options {
	o.EndpointSlices = true
	return o
}

const serviceUID = "svc-uid"

// upstreamSlice is an EndpointSlice as prometheus-operator writes it (generated name, no
// protocol on the ports: the API server defaults it).
func upstreamSlice(name string, family discoveryv1.AddressType, ns ...corev1.Node) discoveryv1.EndpointSlice {
	s := discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "kube-system", Name: name,
			Labels: map[string]string{
				"kubernetes.io/service-name": "kubelet", "endpointslice.kubernetes.io/managed-by": "prometheus-operator",
				"k8s-app": "kubelet", "app.kubernetes.io/name": "kubelet", "app.kubernetes.io/managed-by": "prometheus-operator",
			},
		},
		AddressType: family,
	}
	for _, n := range ns {
		s.Endpoints = append(s.Endpoints, discoveryv1.Endpoint{
			Addresses: []string{n.Status.Addresses[0].Address}, Conditions: discoveryv1.EndpointConditions{Ready: ptr(true)},
			NodeName: ptr(n.Name), TargetRef: &corev1.ObjectReference{Kind: "Node", Name: n.Name, UID: n.UID},
		})
	}
	for _, p := range []struct {
		name string
		port int32
	}{{"https-metrics", 10250}, {"cadvisor", 4194}, {"http-metrics", 10255}} {
		s.Ports = append(s.Ports, discoveryv1.EndpointPort{Name: ptr(p.name), Port: ptr(p.port)})
	}
	return s
}

// previous returns the slices Build made for o and ns, as the API server holds them.
func previous(o Options, ns []corev1.Node) []discoveryv1.EndpointSlice {
	return liveSlices(Build(o, Input{Nodes: ns, ServiceUID: serviceUID}).EndpointSlices)
}

type goldenCase struct {
	name  string
	opts  Options
	nodes []corev1.Node
	live  []discoveryv1.EndpointSlice
}

func goldenCases() []goldenCase {
	small := func(o Options) Options { o.MaxEndpointsPerSlice = 2; return o }
	five := []corev1.Node{node("a", "10.0.0.1"), node("b", "10.0.0.2"), node("c", "10.0.0.3"), node("d", "10.0.0.4"), node("e", "10.0.0.5")}
	return []goldenCase{
		{name: "defaults", opts: defaults(), nodes: []corev1.Node{node("node-b", "10.0.0.2"), node("node-a", "10.0.0.1")}},
		{name: "no-http-metrics", opts: func() Options { o := withSlices(defaults()); o.HTTPMetrics = false; return o }(), nodes: []corev1.Node{node("node-a", "10.0.0.1")}},
		{name: "endpoints-and-slices", opts: withSlices(defaults()), nodes: []corev1.Node{node("node-a", "10.0.0.1"), node("node-b", "10.0.0.2")}},
		{name: "slices-only", opts: func() Options { o := withSlices(defaults()); o.Endpoints = false; return o }(), nodes: []corev1.Node{node("node-a", "10.0.0.1")}},
		{
			name: "internal-priority-falls-back-to-external",
			opts: defaults(),
			nodes: []corev1.Node{
				withAddress(node("both", "192.168.0.1"), corev1.NodeExternalIP, "203.0.113.1"),
				withAddress(node("external-only"), corev1.NodeExternalIP, "203.0.113.2"),
			},
		},
		{
			name: "external-priority",
			opts: func() Options { o := defaults(); o.AddressPriority = ExternalFirst; return o }(),
			nodes: []corev1.Node{
				withAddress(node("both", "192.168.0.1"), corev1.NodeExternalIP, "203.0.113.1"),
				node("internal-only", "192.168.0.2"),
			},
		},
		{
			name:  "dual-stack",
			opts:  withSlices(defaults()),
			nodes: []corev1.Node{node("node-a", "10.0.0.1", "fd00::1"), node("node-b", "fd00::2"), node("node-c", "10.0.0.3")},
		},
		{
			name: "readiness",
			opts: withSlices(defaults()),
			nodes: []corev1.Node{
				withReady(node("ready-false", "10.0.0.1"), corev1.ConditionFalse),
				withReady(node("unknown", "10.0.0.2"), corev1.ConditionUnknown),
				withReady(node("no-condition", "10.0.0.3"), ""),
				// The address moved to a new node: the one whose kubelet stopped reporting
				// is left out.
				withReady(node("old-holder", "10.0.0.4"), corev1.ConditionUnknown),
				node("new-holder", "10.0.0.4"),
			},
		},
		{
			name: "duplicate-address",
			opts: withSlices(defaults()),
			// Two nodes that both report the address: Endpoints lists both (as upstream
			// does), an EndpointSlice cannot and lists the first.
			nodes: []corev1.Node{node("node-a", "10.0.0.1"), node("node-b", "10.0.0.1")},
		},
		{
			name: "problems",
			opts: defaults(),
			nodes: []corev1.Node{
				withAddress(node("hostname-only"), corev1.NodeHostName, "hostname-only"),
				node("not-an-ip", "node.example"),
				node("zone", "fe80::1%eth0"),
				node("mapped", "::ffff:10.0.0.9"),
				node("good", "10.0.0.1"),
			},
		},
		{
			name:  "no-nodes",
			opts:  withSlices(defaults()),
			nodes: nil,
			live:  previous(withSlices(defaults()), []corev1.Node{node("gone", "10.0.0.1")}),
		},
		{
			name: "operator-labels-and-annotations",
			opts: func() Options {
				o := withSlices(defaults())
				o.Labels = map[string]string{"team": "infra", "app.kubernetes.io/managed-by": "someone-else"}
				o.Annotations = map[string]string{"owner": "infra@example.com"}
				return o
			}(),
			nodes: []corev1.Node{node("node-a", "10.0.0.1")},
		},
		{name: "split", opts: small(withSlices(defaults())), nodes: five},
		{
			// c leaves and f joins: f takes c's place, no other slice changes.
			name:  "stable-placement",
			opts:  small(withSlices(defaults())),
			nodes: append(append([]corev1.Node{}, five[0], five[1], five[3], five[4]), node("f", "10.0.0.6")),
			live:  previous(small(withSlices(defaults())), five),
		},
		{
			// a, c and e leave: three slices would hold one node each, two do.
			name:  "compaction",
			opts:  small(withSlices(defaults())),
			nodes: []corev1.Node{five[1], five[3]},
			live:  previous(small(withSlices(defaults())), five),
		},
		{
			// Upstream's slices are reused under their generated names; a slice of the
			// Service that someone else manages is neither reused nor deleted, and its name
			// is not taken.
			name:  "takeover-from-upstream",
			opts:  withSlices(defaults()),
			nodes: []corev1.Node{node("node-a", "10.0.0.1"), node("node-b", "10.0.0.2"), node("node-c", "fd00::3")},
			live: []discoveryv1.EndpointSlice{
				upstreamSlice("kubelet-x7k2p", discoveryv1.AddressTypeIPv4, node("node-b", "10.0.0.2"), node("gone", "10.0.0.9")),
				func() discoveryv1.EndpointSlice {
					s := upstreamSlice("kubelet-ipv6-0", discoveryv1.AddressTypeIPv6)
					s.Labels["endpointslice.kubernetes.io/managed-by"] = "endpointslicemirroring-controller.k8s.io"
					return s
				}(),
			},
		},
	}
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range goldenCases() {
		if seen[c.name] {
			t.Fatalf("duplicate golden case %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			if err := c.opts.Validate(); err != nil {
				t.Fatal(err)
			}
			objs := Build(c.opts, Input{Nodes: c.nodes, Slices: c.live, ServiceUID: serviceUID})
			golden(t, c.name, render(t, objs))
		})
	}
	// A golden file without a case is a case that was renamed or removed: stale.
	orphans, err := goldentest.Orphans("testdata", seen)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range orphans {
		if *update {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s has no test case (run go test ./pkg/kubelet -update to remove it)", f)
	}
}
