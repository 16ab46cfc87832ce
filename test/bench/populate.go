package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	items, namespaces, secrets, secretSize int
}

func (s scenario) namespace(i int) string { return fmt.Sprintf("bench-%02d", i%s.namespaces) }
func monitorName(i int) string            { return fmt.Sprintf("sm-%05d", i) }

// job is the scrape job name a monitor's first endpoint produces.
func (s scenario) job(i int) string {
	return fmt.Sprintf("serviceMonitor/%s/%s/0", s.namespace(i), monitorName(i))
}

// populate creates the namespaces, the unrelated Secrets, the kind's objects and their
// owner with the given number of concurrent workers.
func populate(ctx context.Context, cl *cluster, k *benchKind, s scenario, workers int) (int, error) {
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
	bind := func(cjs []createJob) {
		for _, j := range cjs {
			jobs = append(jobs, func(ctx context.Context) error { return j(ctx, cl) })
		}
	}
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
	if k.perNamespace != nil {
		for _, ns := range nss[1:] {
			bind(k.perNamespace(s, ns))
		}
	}
	for i := 0; i < s.items; i++ {
		bind(k.item(s, i))
	}
	bind([]createJob{k.owner})
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
