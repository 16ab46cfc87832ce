//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Objects the cluster's controllers would create and the suite creates itself (envtest
// runs no kube-controller-manager): namespaces with their default service account and
// kube-root-ca.crt, Endpoints and EndpointSlices for Services, Pod status.

// discoveryRole is the ClusterRole Prometheus needs for Kubernetes service discovery (as
// kube-prometheus grants it).
const discoveryRole = "lookout-e2e-prometheus"

// prometheusSA is the service account the scenarios' Prometheus pods run as.
const prometheusSA = "prometheus"

func createDiscoveryRole(ctx context.Context, c client.Client) error {
	read := []string{"get", "list", "watch"}
	return c.Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: discoveryRole},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"services", "endpoints", "pods", "nodes"}, Verbs: read},
			{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: read},
			{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}},
		},
	})
}

// createNamespace creates a namespace as a cluster would have it: the default and
// prometheus service accounts, kube-root-ca.crt holding the API server's CA, and the
// prometheus account bound to the discovery ClusterRole.
func createNamespace(ctx context.Context, name string, labels map[string]string) error {
	objs := []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: name, Name: "default"}},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: name, Name: prometheusSA}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: name, Name: "kube-root-ca.crt"}, Data: map[string]string{"ca.crt": string(s.caPEM)}},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: discoveryRole + "-" + name},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: discoveryRole},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: name, Name: prometheusSA}},
		},
	}
	for _, o := range objs {
		if err := s.k8s.Create(ctx, o); err != nil {
			return fmt.Errorf("creating %T %s: %w", o, o.GetName(), err)
		}
	}
	return nil
}

// endpoint is one address behind a Service: an IP and, optionally, the Pod holding it.
type endpoint struct {
	ip  string
	pod string
}

// createService creates a headless Service with one port and the Endpoints and
// EndpointSlice the endpoint controllers would derive from it.
func createService(ctx context.Context, ns, name string, labels map[string]string, portName string, port int32, eps []endpoint) error {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone,
			Selector:  labels,
			Ports:     []corev1.ServicePort{{Name: portName, Port: port, Protocol: corev1.ProtocolTCP}},
		},
	}
	if err := s.k8s.Create(ctx, svc); err != nil {
		return fmt.Errorf("creating Service %s/%s: %w", ns, name, err)
	}
	return createEndpoints(ctx, svc, eps, nil)
}

// createEndpoints creates the EndpointSlice and the Endpoints the endpoint controllers
// would derive from svc for eps, every endpoint ready. targetPort gives the number behind
// a Service port (nil: the Service port itself).
func createEndpoints(ctx context.Context, svc *corev1.Service, eps []endpoint, targetPort func(corev1.ServicePort) (int32, error)) error {
	ns, name := svc.Namespace, svc.Name
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-e2e", Labels: map[string]string{
			discoveryv1.LabelServiceName: name,
			discoveryv1.LabelManagedBy:   "e2e.lookout.dev",
		}},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	var subset corev1.EndpointSubset
	for _, sp := range svc.Spec.Ports {
		port := sp.Port
		if targetPort != nil {
			var err error
			if port, err = targetPort(sp); err != nil {
				return fmt.Errorf("Service %s/%s port %s: %w", ns, name, sp.Name, err)
			}
		}
		slice.Ports = append(slice.Ports, discoveryv1.EndpointPort{Name: ptr.To(sp.Name), Port: ptr.To(port), Protocol: ptr.To(sp.Protocol)})
		subset.Ports = append(subset.Ports, corev1.EndpointPort{Name: sp.Name, Port: port, Protocol: sp.Protocol})
	}
	for _, e := range eps {
		se := discoveryv1.Endpoint{Addresses: []string{e.ip}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true), Serving: ptr.To(true), Terminating: ptr.To(false)}}
		addr := corev1.EndpointAddress{IP: e.ip}
		if e.pod != "" {
			ref := &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: e.pod}
			se.TargetRef, addr.TargetRef = ref, ref.DeepCopy()
		}
		slice.Endpoints = append(slice.Endpoints, se)
		subset.Addresses = append(subset.Addresses, addr)
	}
	endpoints := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: svc.Labels}, Subsets: []corev1.EndpointSubset{subset}}
	for _, o := range []client.Object{slice, endpoints} {
		if err := s.k8s.Create(ctx, o); err != nil {
			return fmt.Errorf("creating %T %s/%s: %w", o, ns, o.GetName(), err)
		}
	}
	return nil
}

// publishPods creates the endpoints of an existing Service (the operator's governing
// Service, say) for pods the kubelet helper runs, as the endpoint controllers would: every
// pod, ready (the suite's pods are waited for before), each Service port's target port
// looked up by name in the pods' containers.
func publishPods(ctx context.Context, ns, service string, pods []*pod) error {
	svc := &corev1.Service{}
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: service}, svc); err != nil {
		return fmt.Errorf("Service %s/%s: %w", ns, service, err)
	}
	if len(pods) == 0 {
		return fmt.Errorf("Service %s/%s: no pods to publish", ns, service)
	}
	pods[0].mu.Lock()
	containers := pods[0].spec.Containers
	pods[0].mu.Unlock()
	targetPort := func(sp corev1.ServicePort) (int32, error) {
		if sp.TargetPort.Type == intstr.Int {
			if n := sp.TargetPort.IntVal; n != 0 {
				return n, nil
			}
			return sp.Port, nil
		}
		for _, c := range containers {
			for _, cp := range c.Ports {
				if cp.Name == sp.TargetPort.StrVal && cp.Protocol == sp.Protocol {
					return cp.ContainerPort, nil
				}
			}
		}
		return 0, fmt.Errorf("no container port named %q (%s) in pod %s", sp.TargetPort.StrVal, sp.Protocol, pods[0].name)
	}
	eps := make([]endpoint, len(pods))
	for i, p := range pods {
		eps[i] = endpoint{ip: p.ip, pod: p.name}
	}
	return createEndpoints(ctx, svc, eps, targetPort)
}

// createRunningPod creates a Pod object and sets its status as the kubelet would report a
// running, ready pod at ip (there is no kubelet for it: the process behind ip is the
// suite's).
func createRunningPod(ctx context.Context, ns, name, ip string, labels map[string]string, container string, ports []corev1.ContainerPort) error {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: container, Image: "localhost/lookout/" + container + ":e2e", Ports: ports,
		}}},
	}
	if err := s.k8s.Create(ctx, p); err != nil {
		return fmt.Errorf("creating Pod %s/%s: %w", ns, name, err)
	}
	now := metav1.Now()
	p.Status = corev1.PodStatus{
		Phase:     corev1.PodRunning,
		PodIP:     ip,
		PodIPs:    []corev1.PodIP{{IP: ip}},
		StartTime: &now,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
		},
	}
	if err := s.k8s.Status().Update(ctx, p); err != nil {
		return fmt.Errorf("setting the status of Pod %s/%s: %w", ns, name, err)
	}
	return nil
}

// mustCreate creates objects or fails the test.
func mustCreate(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := s.k8s.Create(context.Background(), o); err != nil {
			t.Fatalf("creating %T %s/%s: %v", o, o.GetNamespace(), o.GetName(), err)
		}
	}
}

// mustUpdate reads obj (its namespace and name must be set), applies mutate and writes it
// back, retrying when the operator wrote the object (its status) in between.
func mustUpdate(t *testing.T, obj client.Object, mutate func()) {
	t.Helper()
	ctx := context.Background()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := s.k8s.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		mutate()
		return s.k8s.Update(ctx, obj)
	})
	if err != nil {
		t.Fatalf("updating %T %s/%s: %v", obj, obj.GetNamespace(), obj.GetName(), err)
	}
}
