package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
)

// statusCeiling measures how fast the control plane itself takes status writes, with the
// operator stopped: a bare client applies a binding of a made-up Prometheus to the
// status of the first m monitors, workers at a time, with server-side apply as the
// operator does and no client-side limit. No operator can write the start-up bindings of
// N monitors faster than N over this rate on the same machine.
func statusCeiling(ctx context.Context, cl *cluster, k *benchKind, sc scenario, m, workers int) (rate float64, err error) {
	var (
		next     atomic.Int64
		failed   atomic.Bool
		firstErr error
		once     sync.Once
		wg       sync.WaitGroup
	)
	now := metav1.Now()
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= m || failed.Load() {
					return
				}
				status := struct {
					Bindings []monitoringv1.WorkloadBinding `json:"bindings"`
				}{[]monitoringv1.WorkloadBinding{{
					Group: monitoringv1.SchemeGroupVersion.Group, Resource: monitoringv1.PrometheusName, Namespace: promNamespace, Name: "ceiling",
					Conditions: []monitoringv1.ConfigResourceCondition{{Type: monitoringv1.Accepted, Status: monitoringv1.ConditionTrue, Reason: "Accepted", LastTransitionTime: now, ObservedGeneration: 1}},
				}}}
				if _, err := resourcestatus.ApplyStatusAs(ctx, cl.c, "bench-ceiling", monitoringv1.SchemeGroupVersion.String(), monitoringv1.ServiceMonitorsKind, sc.namespace(i), k.itemName(i), status); err != nil {
					// Errors of several types: an atomic.Value would panic on the second.
					once.Do(func() { firstErr = err })
					failed.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return 0, fmt.Errorf("measuring the status write ceiling: %w", firstErr)
	}
	return float64(m) / time.Since(start).Seconds(), nil
}
