package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// configEvent is a version of the config Secret as the harness saw it.
type configEvent struct {
	// at is when the watch delivered the object, before the harness decoded its data.
	at     time.Time
	config []byte
	stored int // bytes of the key's value as stored (compressed when .gz)
	// hash is the configuration's hash as the Secret's input hash annotation gives it
	// (Lookout's; what ConfigLoaded names), else the config's name (package confighash).
	hash string
	err  error
}

// watchConfig watches the config Secret name and the Secrets of the parts the operator
// spreads a large configuration over (name-config-part-<k>, ADR 20), and sends the
// configuration (key's content, gunzipped when key ends in .gz, of every part in order)
// each time one of them changes. It relists and rewatches when the watch ends.
func watchConfig(ctx context.Context, cs kubernetes.Interface, ns, name, key string) <-chan configEvent {
	out := make(chan configEvent, 1024)
	parts := map[int]configEvent{} // by part number; the config Secret is part 0
	partOf := func(secret string) (int, bool) {
		if secret == name {
			return 0, true
		}
		k, err := strconv.Atoi(strings.TrimPrefix(secret, name+"-config-part-"))
		return k, err == nil && k > 0 && strings.HasPrefix(secret, name+"-config-part-")
	}
	send := func(at time.Time) {
		ev := configEvent{at: at}
		first, ok := parts[0]
		if !ok {
			return // parts are waited for, as the reloader does
		}
		if first.err != nil {
			ev.err = first.err
		}
		var all [][]byte
		for k := 0; ; k++ {
			p, ok := parts[k]
			if !ok {
				break
			}
			if p.err != nil && ev.err == nil {
				ev.err = p.err
			}
			all = append(all, p.config)
			ev.stored += p.stored
		}
		ev.config = bytes.Join(all, nil)
		if first.hash != "" {
			ev.hash = first.hash
		} else if ev.err == nil {
			ev.hash = confighash.Sum(ev.config)
		}
		select {
		case out <- ev:
		case <-ctx.Done():
		}
	}
	update := func(s *corev1.Secret) bool {
		k, ok := partOf(s.Name)
		if !ok {
			return false
		}
		var p configEvent
		data, ok := s.Data[key]
		p.stored = len(data)
		switch {
		case !ok:
			p.err = fmt.Errorf("secret %s/%s has no key %q", ns, s.Name, key)
		case strings.HasSuffix(key, ".gz"):
			p.config, p.err = gunzip(data)
		default:
			p.config = data
		}
		p.hash = s.Annotations[layout.InputHashAnnotation]
		parts[k] = p
		return true
	}
	go func() {
		defer close(out)
		for ctx.Err() == nil {
			list, err := cs.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			clear(parts)
			for i := range list.Items {
				update(&list.Items[i])
			}
			send(time.Now())
			rv := list.ResourceVersion
			for ctx.Err() == nil {
				w, err := cs.CoreV1().Secrets(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
				if err != nil {
					break // relist
				}
				expired := false
				for st := range stampEvents(w.ResultChan()) {
					at, ev := st.at, st.ev
					switch ev.Type {
					case watch.Added, watch.Modified:
						s := ev.Object.(*corev1.Secret)
						rv = s.ResourceVersion
						st.settle()
						if update(s) {
							send(at)
						}
					case watch.Deleted:
						s := ev.Object.(*corev1.Secret)
						rv = s.ResourceVersion
						if k, ok := partOf(s.Name); ok {
							delete(parts, k)
						}
					case watch.Bookmark:
						if m, err := metaOf(ev.Object); err == nil {
							rv = m
						}
					case watch.Error:
						expired = true
					}
				}
				w.Stop()
				if expired {
					break
				}
			}
		}
	}()
	return out
}

// settleQuiet is how long no config Secret event must have arrived before the harness
// decodes one: each version costs the harness a gunzip of the whole configuration (about
// 100 ms of CPU at 20,000 monitors), which during a burst ran on the cores the operator
// and the API server measured on, and delayed the reading of the next event.
const settleQuiet = 250 * time.Millisecond

// stampedEvent is a watch event and when the watch delivered it.
type stampedEvent struct {
	at   time.Time
	ev   watch.Event
	last *atomic.Int64 // when the latest event arrived (UnixNano)
}

// settle waits until no event has arrived for settleQuiet, so that the versions of a
// burst are decoded after it, with the times they arrived at.
func (s stampedEvent) settle() {
	for {
		d := time.Until(time.Unix(0, s.last.Load()).Add(settleQuiet))
		if d <= 0 {
			return
		}
		time.Sleep(d)
	}
}

// stampEvents reads a watch's events as they arrive, stamping each with its arrival,
// whatever the reader of the returned channel is busy with.
func stampEvents(in <-chan watch.Event) <-chan stampedEvent {
	out := make(chan stampedEvent, 4096)
	last := new(atomic.Int64)
	go func() {
		defer close(out)
		for ev := range in {
			now := time.Now()
			last.Store(now.UnixNano())
			out <- stampedEvent{at: now, ev: ev, last: last}
		}
	}()
	return out
}

func metaOf(o any) (string, error) {
	if m, ok := o.(metav1.Object); ok {
		return m.GetResourceVersion(), nil
	}
	return "", fmt.Errorf("no metadata")
}

func gunzip(b []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

const jobPrefix = "- job_name: "

// countJobs returns how many of the expected job names the config holds.
func countJobs(cfg []byte, expected map[string]bool) int { return countNamed(cfg, jobPrefix, expected) }

// jobBlock returns the text of one scrape job, from its job_name line to the next job.
func jobBlock(cfg []byte, job string) []byte {
	for _, q := range []string{job, `"` + job + `"`, "'" + job + "'"} {
		start := bytes.Index(cfg, []byte(jobPrefix+q+"\n"))
		if start < 0 {
			continue
		}
		rest := cfg[start+len(jobPrefix):]
		if end := bytes.Index(rest, []byte("\n- job_name: ")); end >= 0 {
			rest = rest[:end+1]
		}
		// A job list nested deeper than the top level ends at the next line of lower indent;
		// good enough: scrape_configs entries are siblings at the same indent.
		return rest
	}
	return nil
}

// hasInterval reports whether job's block sets scrape_interval to iv.
func hasInterval(cfg []byte, job, iv string) bool {
	b := jobBlock(cfg, job)
	return b != nil && bytes.Contains(b, []byte("scrape_interval: "+iv+"\n"))
}
