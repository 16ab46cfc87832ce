package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Names and labels of the generated objects.
const (
	promNamespace = "lookout-bench"
	promName      = "bench"
	selectLabel   = "lookout-bench/scale"
	portName      = "web"
	baseInterval  = "30s"
)

// scenario is what one run creates.
type scenario struct {
	monitors, namespaces, secrets, secretSize int
}

func (s scenario) namespace(i int) string { return fmt.Sprintf("bench-%02d", i%s.namespaces) }
func monitorName(i int) string            { return fmt.Sprintf("sm-%05d", i) }

// job is the scrape job name a monitor's first endpoint produces.
func (s scenario) job(i int) string {
	return fmt.Sprintf("serviceMonitor/%s/%s/0", s.namespace(i), monitorName(i))
}

// populate creates the namespaces, Secrets, Services, EndpointSlices, ServiceMonitors and
// the Prometheus with the given number of concurrent workers.
func populate(ctx context.Context, cl *cluster, s scenario, workers int) (int, error) {
	nss := []string{promNamespace}
	for i := 0; i < s.namespaces; i++ {
		nss = append(nss, s.namespace(i))
	}
	var jobs []func(context.Context) error
	for _, ns := range nss {
		jobs = append(jobs, func(ctx context.Context) error {
			_, err := cl.cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
			return err
		})
	}
	if err := runJobs(ctx, "namespaces", jobs, workers); err != nil {
		return 0, err
	}
	total := len(jobs)

	jobs = nil
	for i := 0; i < s.secrets; i++ {
		jobs = append(jobs, func(ctx context.Context) error {
			data := make([]byte, s.secretSize)
			r := rand.New(rand.NewPCG(uint64(i), 7))
			for j := range data {
				data[j] = byte(r.Uint32())
			}
			sec := &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("unrelated-%05d", i), Namespace: s.namespace(i), Labels: map[string]string{"app": "unrelated"}},
				Data:       map[string][]byte{"blob": data},
			}
			_, err := cl.cs.CoreV1().Secrets(sec.Namespace).Create(ctx, sec, metav1.CreateOptions{})
			return err
		})
	}
	for i := 0; i < s.monitors; i++ {
		ns, name := s.namespace(i), monitorName(i)
		labels := map[string]string{"app": name}
		jobs = append(jobs, func(ctx context.Context) error {
			svc := &corev1.Service{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
				Spec: corev1.ServiceSpec{
					ClusterIP: corev1.ClusterIPNone,
					Selector:  labels,
					Ports:     []corev1.ServicePort{{Name: portName, Port: 8080, TargetPort: intstr.FromString(portName)}},
				},
			}
			_, err := cl.cs.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{})
			return err
		}, func(ctx context.Context) error {
			eps := &discoveryv1.EndpointSlice{
				ObjectMeta:  metav1.ObjectMeta{Name: name + "-1", Namespace: ns, Labels: map[string]string{discoveryv1.LabelServiceName: name}},
				AddressType: discoveryv1.AddressTypeIPv4,
				Endpoints: []discoveryv1.Endpoint{{
					Addresses:  []string{fmt.Sprintf("10.%d.%d.%d", 1+i/(250*250), (i/250)%250, 1+i%250)},
					Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)},
				}},
				Ports: []discoveryv1.EndpointPort{{Name: ptr.To(portName), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
			}
			_, err := cl.cs.DiscoveryV1().EndpointSlices(ns).Create(ctx, eps, metav1.CreateOptions{})
			return err
		}, func(ctx context.Context) error {
			sm := &monitoringv1.ServiceMonitor{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{selectLabel: "true"}},
				Spec: monitoringv1.ServiceMonitorSpec{
					Selector:  metav1.LabelSelector{MatchLabels: labels},
					Endpoints: []monitoringv1.Endpoint{{Port: portName, Interval: baseInterval}},
				},
			}
			return cl.c.Create(ctx, sm)
		})
	}
	jobs = append(jobs, func(ctx context.Context) error {
		p := &monitoringv1.Prometheus{
			ObjectMeta: metav1.ObjectMeta{Name: promName, Namespace: promNamespace},
			Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
				ServiceMonitorSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{selectLabel: "true"}},
				ServiceMonitorNamespaceSelector: &metav1.LabelSelector{},
			}},
		}
		return cl.c.Create(ctx, p)
	})
	if err := runJobs(ctx, "objects", jobs, workers); err != nil {
		return 0, err
	}
	return total + len(jobs), nil
}

// runJobs runs jobs on workers goroutines, retrying transient failures, and stops at the
// first permanent error.
func runJobs(ctx context.Context, what string, jobs []func(context.Context) error, workers int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan func(context.Context) error)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
		done     atomic.Int64
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range ch {
				if err := retry(ctx, job); err != nil {
					once.Do(func() { firstErr = err; cancel() })
				}
				done.Add(1)
			}
		}()
	}
	start := time.Now()
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
feed:
	for _, j := range jobs {
		for {
			select {
			case ch <- j:
				continue feed
			case <-tick.C:
				logf("  created %d/%d %s (%.0f/s)", done.Load(), len(jobs), what, float64(done.Load())/time.Since(start).Seconds())
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(ch)
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("creating %s: %w", what, firstErr)
	}
	return ctx.Err()
}

func retry(ctx context.Context, job func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 6; attempt++ {
		err = job(ctx)
		switch {
		case err == nil, apierrors.IsAlreadyExists(err):
			return nil
		case apierrors.IsTooManyRequests(err), apierrors.IsServerTimeout(err), apierrors.IsTimeout(err),
			apierrors.IsInternalError(err), apierrors.IsServiceUnavailable(err):
		default:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(100<<attempt) * time.Millisecond):
		}
	}
	return err
}
