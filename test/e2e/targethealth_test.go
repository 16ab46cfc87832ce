//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// TestTargetHealth: a real Prometheus scrapes a healthy app of two instances and an app
// whose two addresses refuse connections; the operator (--target-health-interval=2s)
// reads the pod's /api/v1/targets and writes TargetsHealthy into each ServiceMonitor's
// binding: 2/2 up for the healthy one, 0/2 up with "connection refused" for the other.
func TestTargetHealth(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	sc.startOperator("health", "--target-health-interval=2s")
	healthy := startSampleApp(t, sc.ns, "healthy", allocateIPs(2))
	refusing := startRefusingApp(t, sc.ns, "refusing", allocateIPs(2))
	mustCreate(t,
		sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{operatorLabel: "health"} }),
		sampleServiceMonitor(sc, healthy),
		sampleServiceMonitor(sc, refusing),
	)
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	// The suite's kubelet runs the pod's processes but creates no Pod object; the
	// operator finds the pod to ask through one, as in a cluster.
	if err := createPodObject(ctx, pd); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct{ monitor, want string }{
		{"healthy", "True TargetsUp 2/2 up"},
		{"refusing", "False TargetsDown 0/2 up: connection refused"},
	} {
		sc.step(fmt.Sprintf("ServiceMonitor %s: %s", tc.monitor, tc.want), 60*time.Second, func() error {
			var sm monitoringv1.ServiceMonitor
			if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: tc.monitor}, &sm); err != nil {
				return err
			}
			if err := accepted(sm.Status.Bindings, sc.ns, "main", true); err != nil {
				return err
			}
			for _, b := range sm.Status.Bindings {
				for _, c := range b.Conditions {
					if c.Type != "TargetsHealthy" {
						continue
					}
					if got := fmt.Sprintf("%s %s %s", c.Status, c.Reason, c.Message); got != tc.want {
						return fmt.Errorf("TargetsHealthy: %q, want %q", got, tc.want)
					}
					return nil
				}
			}
			return fmt.Errorf("no TargetsHealthy condition in %+v", sm.Status.Bindings)
		})
	}
}

// startRefusingApp creates Pods, a headless Service and its endpoints at addresses that
// exist in the pod network but where nothing listens: every scrape is refused.
func startRefusingApp(t *testing.T, ns, name string, ips []string) *sampleApp {
	t.Helper()
	ctx := context.Background()
	app := &sampleApp{name: name}
	labels := map[string]string{"app": name}
	var eps []endpoint
	for n, ip := range ips {
		in := &sampleInstance{pod: fmt.Sprintf("%s-%d", name, n), ip: ip}
		if err := addHostAddress(ip); err != nil {
			t.Fatal(err)
		}
		ports := []corev1.ContainerPort{{Name: samplePortName, ContainerPort: samplePort, Protocol: corev1.ProtocolTCP}}
		if err := createRunningPod(ctx, ns, in.pod, ip, labels, "app", ports); err != nil {
			t.Fatal(err)
		}
		app.instances = append(app.instances, in)
		eps = append(eps, endpoint{ip: ip, pod: in.pod})
	}
	if err := createService(ctx, ns, name, labels, samplePortName, samplePort, eps); err != nil {
		t.Fatal(err)
	}
	return app
}

// createPodObject creates the Pod object of a pod the kubelet helper runs, with the
// template's labels and containers, running and ready at the pod's address.
func createPodObject(ctx context.Context, p *pod) error {
	p.mu.Lock()
	meta := *p.template.ObjectMeta.DeepCopy()
	var containers []corev1.Container
	for _, c := range p.spec.Containers {
		containers = append(containers, corev1.Container{Name: c.Name, Image: c.Image, Ports: c.Ports})
	}
	p.mu.Unlock()
	// Owned by its StatefulSet, as the StatefulSet controller makes it: the poller asks
	// only pods of the operator's own StatefulSets.
	sts := &appsv1.StatefulSet{}
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: p.namespace, Name: p.statefulSet}, sts); err != nil {
		return fmt.Errorf("reading StatefulSet %s/%s: %w", p.namespace, p.statefulSet, err)
	}
	obj := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: p.namespace, Name: p.name, Labels: meta.Labels,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: sts.Name, UID: sts.UID, Controller: ptr.To(true)}}},
		Spec: corev1.PodSpec{Containers: containers},
	}
	if err := s.k8s.Create(ctx, obj); err != nil {
		return fmt.Errorf("creating Pod %s/%s: %w", p.namespace, p.name, err)
	}
	now := metav1.Now()
	obj.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: p.ip, PodIPs: []corev1.PodIP{{IP: p.ip}}, StartTime: &now,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
		},
	}
	if err := s.k8s.Status().Update(ctx, obj); err != nil {
		return fmt.Errorf("setting the status of Pod %s/%s: %w", p.namespace, p.name, err)
	}
	return nil
}
