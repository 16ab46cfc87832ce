package main

import (
	"context"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
	"sigs.k8s.io/controller-runtime/pkg/client"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/operator"
)

// condEvent is a ConfigLoaded condition of the bench Prometheus as the watch saw it.
type condEvent struct {
	at      time.Time
	status  monitoringv1.ConditionStatus
	message string
}

// condLog is every ConfigLoaded condition the watch delivered.
type condLog struct {
	mu     sync.Mutex
	evs    []condEvent
	cancel context.CancelFunc
	done   chan struct{}
}

// watchConditions watches the bench Prometheus and records its ConfigLoaded condition
// whenever it changes.
func watchConditions(ctx context.Context, cl *cluster) (*condLog, error) {
	cfg := rest.CopyConfig(cl.env.Config)
	cfg.RateLimiter = flowcontrol.NewFakeAlwaysRateLimiter()
	wc, err := client.NewWithWatch(cfg, client.Options{Scheme: operator.NewScheme()})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	l := &condLog{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(l.done)
		var last condEvent
		for ctx.Err() == nil {
			w, err := wc.Watch(ctx, &monitoringv1.PrometheusList{}, client.InNamespace(promNamespace),
				client.MatchingFields{"metadata.name": promName})
			if err != nil {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			for ev := range w.ResultChan() {
				at := time.Now()
				p, ok := ev.Object.(*monitoringv1.Prometheus)
				if !ok {
					continue
				}
				for _, c := range p.Status.Conditions {
					if c.Type != instance.ConditionConfigLoaded {
						continue
					}
					if c.Status != last.status || c.Message != last.message {
						last = condEvent{at: at, status: c.Status, message: c.Message}
						l.mu.Lock()
						l.evs = append(l.evs, last)
						l.mu.Unlock()
					}
				}
			}
			w.Stop()
		}
	}()
	return l, nil
}

// firstTrue is when ConfigLoaded first turned True, at or after t, naming hash (any
// hash when empty).
func (l *condLog) firstTrue(t time.Time, hash string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return firstTrueIn(l.evs, t, hash)
}

func (l *condLog) trueSince(t time.Time, hash string) bool {
	_, ok := l.firstTrue(t, hash)
	return ok
}

func firstTrueIn(evs []condEvent, t time.Time, hash string) (time.Time, bool) {
	for _, ev := range evs {
		if ev.at.Before(t) || ev.status != monitoringv1.ConditionTrue {
			continue
		}
		if hash == "" || strings.Contains(ev.message, hash) {
			return ev.at, true
		}
	}
	return time.Time{}, false
}

func (l *condLog) stop() {
	l.cancel()
	<-l.done
}
