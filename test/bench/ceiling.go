package main

import (
	"context"
	"fmt"
	"io"
	"slices"
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

// listFloorRuns is how many bare lists listFloor times.
const listFloorRuns = 3

// listFloor measures how long the control plane takes to serve the list of every object
// of the kind, as an informer's first list asks for it (resourceVersion=0: from the watch
// cache, in one response), to a bare client that reads the body and decodes nothing, with
// the operator stopped: the median of listFloorRuns lists and the body's size. No
// operator can have a complete configuration sooner after its start on this machine.
func listFloor(ctx context.Context, cl *cluster, k *benchKind) (time.Duration, int64, error) {
	var times []time.Duration
	var size int64
	for range listFloorRuns {
		start := time.Now()
		body, err := cl.cs.Discovery().RESTClient().Get().AbsPath(k.listPath).Param("resourceVersion", "0").Stream(ctx)
		if err != nil {
			return 0, 0, fmt.Errorf("measuring the list floor: %w", err)
		}
		size, err = io.Copy(io.Discard, body)
		body.Close()
		if err != nil {
			return 0, 0, fmt.Errorf("measuring the list floor: %w", err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times[len(times)/2], size, nil
}
