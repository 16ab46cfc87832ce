package kubelet

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ManagedSlice reports whether a live EndpointSlice is one of the kubelet Service's
// slices that this operator writes: upstream's and Lookout's carry the Service name label
// and endpointslice.kubernetes.io/managed-by=prometheus-operator. Other slices of the
// Service (kube-controller-manager mirroring the Endpoints, another tool) are left alone.
func (o Options) ManagedSlice(live metav1.Object) bool {
	l := live.GetLabels()
	return live.GetNamespace() == o.Namespace && l[discoveryv1.LabelServiceName] == o.Name && l[discoveryv1.LabelManagedBy] == ManagedByValue
}

// Slices places the addresses in EndpointSlices of at most Options.MaxEndpointsPerSlice
// endpoints, one slice per address family, and names the live slices no longer needed.
//
// The placement is stable, so a node joining or leaving rewrites one slice rather than
// all of them: an address stays in the live slice that holds it; new addresses fill the
// live slices with room (in name order), then new slices named <service>-ipv4-<n> or
// <service>-ipv6-<n> (the lowest n no slice of the namespace has); when fewer slices
// would do, the emptiest are drained into the others. Upstream's slices (random names)
// are reused the same way, so a takeover creates nothing and moves nothing. An address
// shared by several nodes is listed once, for the first node by name. live is every
// EndpointSlice of the namespace that Build may see; only ManagedSlice ones are reused
// or deleted, the others only reserve their names.
func Slices(o Options, addrs []Address, live []discoveryv1.EndpointSlice, serviceUID types.UID) (desired []*discoveryv1.EndpointSlice, stale []string) {
	limit := o.maxPerSlice()
	taken := map[string]bool{}
	var ours []*discoveryv1.EndpointSlice
	for i := range live {
		taken[live[i].Name] = true
		if o.ManagedSlice(&live[i]) {
			ours = append(ours, &live[i])
		}
	}
	sort.Slice(ours, func(i, j int) bool { return ours[i].Name < ours[j].Name })

	for _, s := range ours {
		if s.AddressType != discoveryv1.AddressTypeIPv4 && s.AddressType != discoveryv1.AddressTypeIPv6 {
			stale = append(stale, s.Name)
		}
	}
	for _, family := range []discoveryv1.AddressType{discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6} {
		var want []Address
		byIP := map[string]Address{}
		for _, a := range addrs {
			if a.IPv6 != (family == discoveryv1.AddressTypeIPv6) {
				continue
			}
			if _, dup := byIP[a.IP]; !dup {
				byIP[a.IP] = a
				want = append(want, a)
			}
		}
		var same []*discoveryv1.EndpointSlice
		for _, s := range ours {
			if s.AddressType == family {
				same = append(same, s)
			}
		}
		buckets, drained := place(want, byIP, same, limit, func() string { return freeName(o.Name, family, taken) })
		stale = append(stale, drained...)
		for _, b := range buckets {
			desired = append(desired, slice(o, b.name, family, b.addrs, serviceUID))
		}
	}
	sort.Strings(stale)
	return desired, stale
}

type bucket struct {
	name  string
	addrs []Address
}

// place keeps each wanted address in the live slice holding it, puts the others in the
// first slices with room or in new ones, then drains the emptiest slices while fewer
// would hold everything. It returns the non-empty buckets (live slices that kept
// addresses in name order, then reused ones, then new ones) and the names of the live
// slices left empty.
func place(want []Address, byIP map[string]Address, live []*discoveryv1.EndpointSlice, limit int, newName func() string) ([]*bucket, []string) {
	placed := make(map[string]bool, len(want))
	buckets := make([]*bucket, 0, len(live))
	for _, s := range live {
		b := &bucket{name: s.Name}
		for _, ep := range s.Endpoints {
			if len(ep.Addresses) != 1 {
				continue
			}
			a, ok := byIP[ep.Addresses[0]]
			if !ok || placed[a.IP] || len(b.addrs) >= limit {
				continue
			}
			b.addrs = append(b.addrs, a)
			placed[a.IP] = true
		}
		buckets = append(buckets, b)
	}
	// New addresses go to the slices that kept some first, then to the emptied ones
	// (reused rather than deleted), then to new slices.
	sort.SliceStable(buckets, func(i, j int) bool { return len(buckets[i].addrs) > 0 && len(buckets[j].addrs) == 0 })
	next := 0
	for _, a := range want {
		if placed[a.IP] {
			continue
		}
		for next < len(buckets) && len(buckets[next].addrs) >= limit {
			next++
		}
		if next == len(buckets) {
			buckets = append(buckets, &bucket{name: newName()})
		}
		buckets[next].addrs = append(buckets[next].addrs, a)
		placed[a.IP] = true
	}

	var drained []string
	kept := buckets[:0]
	for _, b := range buckets {
		if len(b.addrs) == 0 {
			drained = append(drained, b.name)
			continue
		}
		kept = append(kept, b)
	}
	buckets = kept
	needed := (len(want) + limit - 1) / limit
	for len(buckets) > needed {
		// Drain the emptiest slice (the last of equals) into the others, in order.
		k := 0
		for i, b := range buckets {
			if len(b.addrs) <= len(buckets[k].addrs) {
				k = i
			}
		}
		moved := buckets[k].addrs
		drained = append(drained, buckets[k].name)
		buckets = append(buckets[:k], buckets[k+1:]...)
		for _, b := range buckets {
			room := limit - len(b.addrs)
			if room > len(moved) {
				room = len(moved)
			}
			b.addrs = append(b.addrs, moved[:room]...)
			moved = moved[room:]
		}
	}
	return buckets, drained
}

// freeName returns the first <service>-<family>-<n> not taken, and takes it.
func freeName(service string, family discoveryv1.AddressType, taken map[string]bool) string {
	for n := 0; ; n++ {
		name := fmt.Sprintf("%s-%s-%d", service, strings.ToLower(string(family)), n)
		if !taken[name] {
			taken[name] = true
			return name
		}
	}
}

// slice is one EndpointSlice with upstream's labels, ports and endpoints (ready, with the
// node name and a reference to the node), owned by the Service so that deleting the
// Service deletes it.
func slice(o Options, name string, family discoveryv1.AddressType, addrs []Address, serviceUID types.UID) *discoveryv1.EndpointSlice {
	s := &discoveryv1.EndpointSlice{
		TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: o.Namespace, Name: name,
			Labels: o.labels(map[string]string{
				discoveryv1.LabelServiceName: o.Name,
				discoveryv1.LabelManagedBy:   ManagedByValue,
			}),
			Annotations: o.annotations(),
		},
		AddressType: family,
		Endpoints:   make([]discoveryv1.Endpoint, len(addrs)),
	}
	if serviceUID != "" {
		s.OwnerReferences = []metav1.OwnerReference{{
			APIVersion: "v1", Kind: "Service", Name: o.Name, UID: serviceUID,
			Controller: ptr(true), BlockOwnerDeletion: ptr(true),
		}}
	}
	for i, a := range addrs {
		s.Endpoints[i] = discoveryv1.Endpoint{
			Addresses:  []string{a.IP},
			Conditions: discoveryv1.EndpointConditions{Ready: ptr(true)},
			NodeName:   ptr(a.Node),
			TargetRef:  nodeRef(a),
		}
	}
	for _, p := range ports(o) {
		s.Ports = append(s.Ports, discoveryv1.EndpointPort{Name: ptr(p.name), Port: ptr(p.port), Protocol: ptr(corev1.ProtocolTCP)})
	}
	setHash(s)
	return s
}
