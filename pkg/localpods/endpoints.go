package localpods

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The EndpointSlices the runner writes, one per Service that selects its pods, play the
// EndpointSlice controller's part so Prometheus's discovery finds the pods (an
// Alertmanager behind alertmanager-operated, a Prometheus behind prometheus-operated).
const (
	managedBy      = "localpods.lookout-operator.io"
	sliceSuffix    = "-localpods"
	serviceNameKey = discoveryv1.LabelServiceName
)

// podIPs hands out the pods' addresses from Options.PodSubnet. The address is what the
// API shows (EndpointSlices); what answers is 127.0.0.1:<host port>, via the address map.
type podIPs struct {
	next netip.Addr
	end  netip.Prefix
}

func newPodIPs(subnet string) (*podIPs, error) {
	p, err := netip.ParsePrefix(subnet)
	if err != nil {
		return nil, fmt.Errorf("pod subnet: %w", err)
	}
	if !p.Addr().Is4() {
		return nil, fmt.Errorf("pod subnet %s: IPv4 only", subnet)
	}
	p = p.Masked()
	return &podIPs{next: p.Addr().Next().Next(), end: p}, nil
}

func (a *podIPs) allocate() (string, error) {
	if !a.end.Contains(a.next) {
		return "", fmt.Errorf("pod subnet %s is exhausted", a.end)
	}
	ip := a.next
	a.next = ip.Next()
	return ip.String(), nil
}

// addressMap is Options.Addresses plus <pod ip>:<container port> -> 127.0.0.1:<host
// port> for every pod with an address.
func (r *Runner) addressMap() map[string]string {
	out := make(map[string]string, len(r.o.Addresses))
	for k, v := range r.o.Addresses {
		out[k] = v
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.pods {
		if p.ip == "" {
			continue
		}
		for cport, host := range p.ports {
			out[p.ip+":"+strconv.Itoa(int(cport))] = "127.0.0.1:" + strconv.Itoa(host)
		}
	}
	return out
}

// syncEndpointSlices writes, for every Service with a selector that matches pods the
// runner runs, an EndpointSlice listing them (ready as their readiness probes say), and
// deletes the slices of Services that no longer match any.
func (r *Runner) syncEndpointSlices(ctx context.Context) error {
	r.mu.Lock()
	pods := make([]*pod, 0, len(r.pods))
	for _, p := range r.pods {
		if p.ip != "" {
			pods = append(pods, p)
		}
	}
	r.mu.Unlock()
	sort.Slice(pods, func(i, j int) bool { return pods[i].name < pods[j].name })
	if r.slices == nil {
		var own discoveryv1.EndpointSliceList
		if err := r.o.Client.List(ctx, &own, client.MatchingLabels{discoveryv1.LabelManagedBy: managedBy}); err != nil {
			return fmt.Errorf("listing EndpointSlices: %w", err)
		}
		r.slices = map[string]bool{}
		for _, s := range own.Items {
			r.slices[s.Namespace+"/"+s.Labels[serviceNameKey]] = true
		}
	}
	// Only the namespaces of the pods and of the runner's slices can hold a Service
	// to write a slice for.
	namespaces := map[string]bool{}
	for _, p := range pods {
		namespaces[p.namespace] = true
	}
	for key := range r.slices {
		ns, _, _ := strings.Cut(key, "/")
		namespaces[ns] = true
	}
	var services corev1.ServiceList
	for ns := range namespaces {
		var in corev1.ServiceList
		if err := r.o.Client.List(ctx, &in, client.InNamespace(ns)); err != nil {
			return fmt.Errorf("listing Services: %w", err)
		}
		services.Items = append(services.Items, in.Items...)
	}
	for i := range services.Items {
		svc := &services.Items[i]
		if len(svc.Spec.Selector) == 0 {
			continue
		}
		sel := labels.SelectorFromSet(svc.Spec.Selector)
		var slice *discoveryv1.EndpointSlice
		for _, p := range pods {
			pl, spec, ready := p.endpointView()
			if p.namespace != svc.Namespace || spec == nil || !sel.Matches(labels.Set(pl)) {
				continue
			}
			if slice == nil {
				slice = newSlice(svc, spec)
			}
			ep := discoveryv1.Endpoint{
				Addresses:  []string{p.ip},
				Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(ready), Serving: ptr.To(ready), Terminating: ptr.To(false)},
				TargetRef:  &corev1.ObjectReference{Kind: "Pod", Namespace: p.namespace, Name: p.name},
			}
			if svc.Spec.ClusterIP == corev1.ClusterIPNone {
				ep.Hostname = ptr.To(p.name)
			}
			slice.Endpoints = append(slice.Endpoints, ep)
		}
		// A Service selecting none of the pods, with no slice of the runner's, needs no
		// API request: with thousands of Services (the scale harness) asking about each
		// one every sync held the sync loop for minutes.
		key := svc.Namespace + "/" + svc.Name
		if slice == nil && !r.slices[key] {
			continue
		}
		if err := r.writeSlice(ctx, svc, slice); err != nil {
			return err
		}
		if slice != nil {
			r.slices[key] = true
		} else {
			delete(r.slices, key)
		}
	}
	return nil
}

// newSlice is an empty EndpointSlice of svc with its ports resolved against a pod spec.
func newSlice(svc *corev1.Service, spec *corev1.PodSpec) *discoveryv1.EndpointSlice {
	s := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: svc.Namespace, Name: svc.Name + sliceSuffix,
			Labels: map[string]string{serviceNameKey: svc.Name, discoveryv1.LabelManagedBy: managedBy},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
		},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	for _, sp := range svc.Spec.Ports {
		port, ok := int32(0), false
		if sp.TargetPort.IntValue() > 0 {
			port, ok = int32(sp.TargetPort.IntValue()), true
		} else {
			name := sp.TargetPort.String()
			if name == "" || name == "0" {
				port, ok = sp.Port, true
			}
			for _, c := range spec.Containers {
				for _, cp := range c.Ports {
					if cp.Name == name {
						port, ok = cp.ContainerPort, true
					}
				}
			}
		}
		if !ok {
			continue
		}
		s.Ports = append(s.Ports, discoveryv1.EndpointPort{
			Name: ptr.To(sp.Name), Port: ptr.To(port), Protocol: ptr.To(sp.Protocol), AppProtocol: sp.AppProtocol,
		})
	}
	return s
}

// writeSlice creates, updates or (want nil) deletes the runner's slice of svc, writing
// only when something differs.
func (r *Runner) writeSlice(ctx context.Context, svc *corev1.Service, want *discoveryv1.EndpointSlice) error {
	var live discoveryv1.EndpointSlice
	err := r.o.Client.Get(ctx, client.ObjectKey{Namespace: svc.Namespace, Name: svc.Name + sliceSuffix}, &live)
	switch {
	case apierrors.IsNotFound(err):
		if want == nil {
			return nil
		}
		return r.o.Client.Create(ctx, want)
	case err != nil:
		return err
	case live.Labels[discoveryv1.LabelManagedBy] != managedBy:
		return nil // someone else's
	case want == nil:
		return client.IgnoreNotFound(r.o.Client.Delete(ctx, &live))
	case equality.Semantic.DeepEqual(live.Endpoints, want.Endpoints) && equality.Semantic.DeepEqual(live.Ports, want.Ports):
		return nil
	}
	live.Endpoints, live.Ports = want.Endpoints, want.Ports
	return r.o.Client.Update(ctx, &live)
}
