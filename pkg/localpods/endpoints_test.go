package localpods

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// TestRunnerEndpointSlices: with a pod subnet, a pod gets an address, the Service
// selecting it gets an EndpointSlice with that address and the named target port
// resolved, the address map sends <pod ip>:<port> to the pod's loopback port, and the
// slice goes when the StatefulSet does.
func TestRunnerEndpointSlices(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"},
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr.To[int32](1),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "main", Image: "local/shell", Command: []string{"sh", "-c", "sleep 60"},
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 9999}},
				}}},
			},
		},
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-operated"},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone,
			Selector:  map[string]string{"app": "web"},
			Ports:     []corev1.ServicePort{{Name: "web", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP}},
		},
	}
	other := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "other"},
		Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "other"}, Ports: []corev1.ServicePort{{Port: 80}}},
	}
	// A slice an earlier runner left for "other", which selects no pod now: removed.
	stale := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "other" + sliceSuffix, Labels: map[string]string{
			discoveryv1.LabelManagedBy: managedBy, discoveryv1.LabelServiceName: "other"}},
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	// A Service selecting no pod, with no slice: never asked about.
	quiet := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "quiet"},
		Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "quiet"}, Ports: []corev1.ServicePort{{Port: 80}}},
	}
	var quietGets atomic.Int32
	c := fakeCluster(sts, svc, other, stale, quiet).
		WithInterceptorFuncs(interceptor.Funcs{Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if key.Name == "quiet"+sliceSuffix {
				quietGets.Add(1)
			}
			return c.Get(ctx, key, obj, opts...)
		}}).Build()
	r := New(Options{
		Client: c, Dir: filepath.Join(t.TempDir(), "pods"), SyncPeriod: 50 * time.Millisecond, Logf: t.Logf,
		PodSubnet: "10.244.0.0/24",
		Images: func(image string) (Image, error) {
			if image == "local/shell" {
				return Image{Binary: sh}, nil
			}
			return Image{}, errors.New("no such image")
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()

	var slice discoveryv1.EndpointSlice
	key := client.ObjectKey{Namespace: "ns", Name: "web-operated" + sliceSuffix}
	eventually(t, "an EndpointSlice for web-operated", func() bool {
		return c.Get(ctx, key, &slice) == nil && len(slice.Endpoints) == 1 && ptr.Deref(slice.Endpoints[0].Conditions.Ready, false)
	})
	ep := slice.Endpoints[0]
	if ep.Addresses[0] != "10.244.0.2" || ptr.Deref(ep.Hostname, "") != "web-0" || ep.TargetRef.Name != "web-0" {
		t.Errorf("endpoint %+v", ep)
	}
	if len(slice.Ports) != 1 || ptr.Deref(slice.Ports[0].Port, 0) != 9999 || ptr.Deref(slice.Ports[0].Name, "") != "web" {
		t.Errorf("ports %+v", slice.Ports)
	}
	if slice.Labels[discoveryv1.LabelServiceName] != "web-operated" {
		t.Errorf("labels %v", slice.Labels)
	}
	pods := r.Pods()
	if got, want := r.addressMap()["10.244.0.2:9999"], "127.0.0.1:"+strconv.Itoa(pods[0].Ports["http"]); got != want {
		t.Errorf("address map: 10.244.0.2:9999 -> %q, want %q", got, want)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "other" + sliceSuffix}, &slice); !apierrors.IsNotFound(err) {
		t.Errorf("a Service selecting no pod kept its slice: %v", err)
	}
	if n := quietGets.Load(); n != 0 {
		t.Errorf("the slice of a Service selecting no pod was asked for %d times", n)
	}

	// The Pod object, as kubectl shows it; deleting it recreates the pod.
	var po corev1.Pod
	eventually(t, "a running, ready Pod object", func() bool {
		return c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "web-0"}, &po) == nil &&
			po.Status.Phase == corev1.PodRunning && po.Status.PodIP == "10.244.0.2" && len(po.Status.Conditions) == 4 &&
			po.Status.Conditions[3].Status == corev1.ConditionTrue
	})
	if po.Labels["app"] != "web" || po.Labels[appsv1.StatefulSetPodNameLabel] != "web-0" || po.Spec.NodeName != NodeName {
		t.Errorf("pod object: labels %v, node %q", po.Labels, po.Spec.NodeName)
	}
	pid := pods[0].PIDs["main"]
	if err := c.Delete(ctx, &po); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the pod recreated after kubectl delete pod", func() bool {
		var again corev1.Pod
		ps := r.Pods()
		return c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "web-0"}, &again) == nil &&
			len(ps) == 1 && ps[0].PIDs["main"] != 0 && ps[0].PIDs["main"] != pid
	})

	if err := c.Delete(ctx, sts); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the slice and the Pod object removed with the pod", func() bool {
		return apierrors.IsNotFound(c.Get(ctx, key, &slice)) && apierrors.IsNotFound(c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "web-0"}, &po))
	})
}
