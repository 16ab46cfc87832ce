//lint:file-ignore SA1019 the stand-in derives core/v1 Endpoints

package explain

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func testPod(name, ip string, ready bool, ports ...corev1.ContainerPort) corev1.Pod {
	st := corev1.ConditionFalse
	if ready {
		st = corev1.ConditionTrue
	}
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"app": "a"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Ports: ports}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, PodIP: ip, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: st}}},
	}
}

func endpointsOf(t *testing.T, o Objects, name string) corev1.Endpoints {
	t.Helper()
	for _, e := range o.Endpoints {
		if e.Namespace == "ns" && e.Name == name {
			return e
		}
	}
	t.Fatalf("no Endpoints ns/%s in %+v", name, o.Endpoints)
	return corev1.Endpoints{}
}

func slicesOf(o Objects, name string) []discoveryv1.EndpointSlice {
	var out []discoveryv1.EndpointSlice
	for _, s := range o.EndpointSlices {
		if s.Namespace == "ns" && s.Labels[discoveryv1.LabelServiceName] == name {
			out = append(out, s)
		}
	}
	return out
}

// TestDeriveFromPods: a named targetPort resolves on each Pod (a Pod without it has no
// address for it), the hostname is set when the subdomain is the Service, a terminating
// Pod is only in the slices (not ready, serving), a finished Pod nowhere.
func TestDeriveFromPods(t *testing.T) {
	svc := corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s", Labels: map[string]string{"app": "a"}},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "a"}, Ports: []corev1.ServicePort{{Name: "web", Port: 80, TargetPort: intstr.FromString("http")}}}}
	p0 := testPod("p0", "10.0.0.1", true, corev1.ContainerPort{Name: "http", ContainerPort: 8080})
	p0.Spec.Hostname, p0.Spec.Subdomain, p0.Spec.NodeName = "p0", "s", "n1"
	p1 := testPod("p1", "10.0.0.2", false, corev1.ContainerPort{Name: "http", ContainerPort: 9090})
	p2 := testPod("p2", "10.0.0.3", true, corev1.ContainerPort{Name: "other", ContainerPort: 7070})
	p3 := testPod("p3", "10.0.0.4", true, corev1.ContainerPort{Name: "http", ContainerPort: 8080})
	p3.DeletionTimestamp = &metav1.Time{}
	p4 := testPod("p4", "10.0.0.5", false, corev1.ContainerPort{Name: "http", ContainerPort: 8080})
	p4.Status.Phase = corev1.PodSucceeded
	o, missing := Derive(&Objects{Services: []corev1.Service{svc}, Pods: []corev1.Pod{p0, p1, p2, p3, p4}})
	if len(missing) != 0 {
		t.Errorf("missing %v", missing)
	}
	ep := endpointsOf(t, o, "s")
	want := []corev1.EndpointSubset{
		{Ports: []corev1.EndpointPort{{Name: "web", Port: 8080, Protocol: corev1.ProtocolTCP}},
			Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1", Hostname: "p0", NodeName: ptr.To("n1"), TargetRef: podRef(&p0)}}},
		{Ports: []corev1.EndpointPort{{Name: "web", Port: 9090, Protocol: corev1.ProtocolTCP}},
			NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.0.0.2", TargetRef: podRef(&p1)}}},
	}
	if !reflect.DeepEqual(ep.Subsets, want) {
		t.Errorf("subsets\n%+v\nwant\n%+v", ep.Subsets, want)
	}
	got := map[string]discoveryv1.EndpointConditions{}
	ports := map[string]int32{}
	for _, s := range slicesOf(o, "s") {
		if s.Labels[discoveryv1.LabelManagedBy] != sliceController || s.Labels["app"] != "a" {
			t.Errorf("labels %v", s.Labels)
		}
		for _, e := range s.Endpoints {
			got[e.Addresses[0]] = e.Conditions
			if len(s.Ports) == 1 {
				ports[e.Addresses[0]] = *s.Ports[0].Port
			}
		}
	}
	c := func(r, s, term bool) discoveryv1.EndpointConditions {
		return discoveryv1.EndpointConditions{Ready: &r, Serving: &s, Terminating: &term}
	}
	wantC := map[string]discoveryv1.EndpointConditions{"10.0.0.1": c(true, true, false), "10.0.0.2": c(false, false, false), "10.0.0.3": c(true, true, false), "10.0.0.4": c(false, true, true)}
	if !reflect.DeepEqual(got, wantC) {
		t.Errorf("slice conditions %v", got)
	}
	if want := map[string]int32{"10.0.0.1": 8080, "10.0.0.2": 9090, "10.0.0.4": 8080}; !reflect.DeepEqual(ports, want) {
		t.Errorf("slice ports %v, want %v (p2 in a slice without ports)", ports, want)
	}
}

// TestDeriveFromSlicesAndMirror: Endpoints from slices keep hostname, nodeName,
// targetRef and ports by name, merge the slices' addresses by port set, and leave out
// terminating endpoints unless the Service publishes not-ready addresses; Endpoints of a
// selector-less Service are mirrored unless skip-mirror.
func TestDeriveFromSlicesAndMirror(t *testing.T) {
	sliced := corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "sliced"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "x"}}}
	published := corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "published"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "y"}, PublishNotReadyAddresses: true}}
	mirrored := corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "mirrored"}}
	skipped := corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "skipped"}}
	ref := &corev1.ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p"}
	slice := func(svc, name string, eps ...discoveryv1.Endpoint) discoveryv1.EndpointSlice {
		return discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
			AddressType: discoveryv1.AddressTypeIPv4, Ports: []discoveryv1.EndpointPort{{Name: ptr.To("web"), Port: ptr.To[int32](8080)}}, Endpoints: eps}
	}
	term := discoveryv1.Endpoint{Addresses: []string{"10.0.0.9"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(false), Terminating: ptr.To(true)}}
	objs := &Objects{
		Services: []corev1.Service{sliced, published, mirrored, skipped},
		EndpointSlices: []discoveryv1.EndpointSlice{
			slice("sliced", "sliced-1", discoveryv1.Endpoint{Addresses: []string{"10.0.0.1"}, Hostname: ptr.To("h"), NodeName: ptr.To("n"), TargetRef: ref, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}, term),
			slice("sliced", "sliced-2", discoveryv1.Endpoint{Addresses: []string{"10.0.0.2"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(false)}}),
			slice("published", "published-1", term),
		},
		Endpoints: []corev1.Endpoints{
			{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "mirrored", Labels: map[string]string{"team": "a"}},
				Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.1.1", Hostname: "h"}}, NotReadyAddresses: []corev1.EndpointAddress{{IP: "fd00::1"}}, Ports: []corev1.EndpointPort{{Name: "m", Port: 9100}}}}},
			{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "skipped", Labels: map[string]string{discoveryv1.LabelSkipMirror: "true"}},
				Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.2.1"}}, Ports: []corev1.EndpointPort{{Name: "m", Port: 9100}}}}},
		},
	}
	o, missing := Derive(objs)
	if len(missing) != 0 {
		t.Errorf("missing %v", missing)
	}
	want := []corev1.EndpointSubset{{Ports: []corev1.EndpointPort{{Name: "web", Port: 8080, Protocol: corev1.ProtocolTCP}},
		Addresses:         []corev1.EndpointAddress{{IP: "10.0.0.1", Hostname: "h", NodeName: ptr.To("n"), TargetRef: ref}},
		NotReadyAddresses: []corev1.EndpointAddress{{IP: "10.0.0.2"}}}}
	if got := endpointsOf(t, o, "sliced").Subsets; !reflect.DeepEqual(got, want) {
		t.Errorf("sliced\n%+v\nwant\n%+v", got, want)
	}
	if got := endpointsOf(t, o, "published").Subsets; len(got) != 1 || len(got[0].Addresses) != 1 || got[0].Addresses[0].IP != "10.0.0.9" {
		t.Errorf("published %+v", got)
	}
	m := slicesOf(o, "mirrored")
	if len(m) != 2 || m[0].AddressType != discoveryv1.AddressTypeIPv4 || m[1].AddressType != discoveryv1.AddressTypeIPv6 {
		t.Fatalf("mirrored %+v", m)
	}
	if m[0].Labels["team"] != "a" || m[0].Labels[discoveryv1.LabelManagedBy] != mirroringController ||
		!*m[0].Endpoints[0].Conditions.Ready || *m[0].Endpoints[0].Hostname != "h" || *m[1].Endpoints[0].Conditions.Ready || *m[0].Ports[0].Name != "m" {
		t.Errorf("mirrored %+v", m)
	}
	if s := slicesOf(o, "skipped"); len(s) != 0 {
		t.Errorf("skip-mirror mirrored: %+v", s)
	}
}

// TestDeriveMissing: what the files lack, per Service; ExternalName Services need nothing.
func TestDeriveMissing(t *testing.T) {
	_, missing := Derive(&Objects{Services: []corev1.Service{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "bare"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "sel"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "a"}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ext"}, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "example.com"}},
	}})
	want := map[string]string{
		"ns/bare": "the files hold no Endpoints or EndpointSlices for Service ns/bare, which has no selector",
		"ns/sel":  "the files hold no Endpoints, EndpointSlices or Pods for Service ns/sel (selector app=a)",
	}
	if !reflect.DeepEqual(missing, want) {
		t.Errorf("missing %v", missing)
	}
}
