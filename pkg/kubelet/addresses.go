package kubelet

import (
	"fmt"
	"net/netip"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Address is one scrape address of a node's kubelet.
type Address struct {
	IP   string
	IPv6 bool
	// Node and UID name the node, for the target reference.
	Node string
	UID  types.UID
	// ReadyKnown is false when the node's Ready condition is missing or Unknown: its
	// kubelet stopped reporting. Such a node is still listed (its kubelet may serve
	// metrics, and a target that disappears hides the outage), unless another node whose
	// readiness is known has the same address, which is then the address's current owner.
	ReadyKnown bool
}

// Problem says why a node, or one of its addresses, is left out.
type Problem struct {
	Node    string
	Message string
}

func (p Problem) String() string { return "node " + p.Node + ": " + p.Message }

// Addresses lists the kubelet addresses of nodes, ordered by node name and, within a
// node, in the node's order: every address of the preferred type (InternalIP for
// "internal"), or every address of the other type when it has none. A dual-stack node
// gives an IPv4 and an IPv6 address. Nodes without a usable address, and addresses that
// are not IPs, are reported as problems.
func Addresses(nodes []corev1.Node, priority AddressPriority) ([]Address, []Problem) {
	sorted := make([]*corev1.Node, len(nodes))
	for i := range nodes {
		sorted[i] = &nodes[i]
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })

	first, second := corev1.NodeInternalIP, corev1.NodeExternalIP
	if priority == ExternalFirst {
		first, second = second, first
	}
	var (
		out      = make([]Address, 0, len(nodes))
		problems []Problem
		known    = map[string]bool{} // addresses of nodes whose readiness is known
	)
	for _, n := range sorted {
		ips := addressesOfType(n, first)
		if len(ips) == 0 {
			ips = addressesOfType(n, second)
		}
		if len(ips) == 0 {
			problems = append(problems, Problem{n.Name, fmt.Sprintf("no %s or %s address (priority %s)", first, second, priorityName(priority))})
			continue
		}
		ready := readyKnown(n)
		for _, s := range ips {
			ip, err := netip.ParseAddr(s)
			if err != nil || ip.Zone() != "" {
				problems = append(problems, Problem{n.Name, fmt.Sprintf("address %q is not an IP address", s)})
				continue
			}
			ip = ip.Unmap()
			out = append(out, Address{IP: ip.String(), IPv6: ip.Is6(), Node: n.Name, UID: n.UID, ReadyKnown: ready})
			if ready {
				known[ip.String()] = true
			}
		}
	}
	kept := out[:0]
	for _, a := range out {
		if !a.ReadyKnown && known[a.IP] {
			continue // a stale node holding an address another node now has
		}
		kept = append(kept, a)
	}
	return kept, problems
}

func addressesOfType(n *corev1.Node, t corev1.NodeAddressType) []string {
	var out []string
	for _, a := range n.Status.Addresses {
		if a.Type == t {
			out = append(out, a.Address)
		}
	}
	return out
}

// readyKnown reports whether the node has a Ready condition that is True or False.
func readyKnown(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady && c.Status != corev1.ConditionUnknown && c.Status != "" {
			return true
		}
	}
	return false
}

func priorityName(p AddressPriority) string {
	if p == "" {
		return string(InternalFirst)
	}
	return string(p)
}
