package explain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/prometheus/discovery"
	"github.com/prometheus/prometheus/discovery/file"
	"github.com/prometheus/prometheus/discovery/targetgroup"
)

// otherDiscovered is the outcome of a discovery other than Kubernetes's.
type otherDiscovered struct {
	// what names the discovery for the report ("static targets", "file_sd files ...").
	what   string
	groups []*targetgroup.Group
	err    error
	// unknown, when set, says why the input cannot answer (a file_sd file that lives in
	// the Prometheus pod and not here).
	unknown string
}

// discoverOther runs a discovery other than Kubernetes's with Prometheus's own code:
// static targets as written; file_sd when its files are on this machine (otherwise it is
// unknown: they live in the Prometheus pod); any other mechanism (HTTP, DNS, Consul, ...)
// by running its discoverer until its first answer, within the discovery timeout. Those
// reach their endpoints from this machine, which may not see what the Prometheus pod sees:
// a failure says so.
func (e *explainer) discoverOther(ctx context.Context, sd discovery.Config) otherDiscovered {
	switch c := sd.(type) {
	case discovery.StaticConfig:
		n := 0
		for _, g := range c {
			n += len(g.Targets)
		}
		return otherDiscovered{what: fmt.Sprintf("static targets (%d)", n), groups: c}
	case *file.SDConfig:
		what := "file_sd " + strings.Join(c.Files, ", ")
		var missing []string
		for _, pattern := range c.Files {
			if m, err := filepath.Glob(pattern); err != nil || len(m) == 0 {
				missing = append(missing, pattern)
			}
		}
		if len(missing) > 0 {
			return otherDiscovered{what: what, unknown: fmt.Sprintf("file_sd file %s is read in the Prometheus pod and is not on this machine", strings.Join(missing, ", "))}
		}
		d := runDiscoverer(ctx, sd, e.opts.Timeout)
		d.what = what
		return d
	}
	d := runDiscoverer(ctx, sd, e.opts.Timeout)
	d.what = sd.Name() + " discovery (run from this machine)"
	return d
}

// runDiscoverer runs sd's discoverer with Prometheus's code and returns its first
// answer: a refresh error (HTTP, DNS, ...) is the error, no answer within timeout too.
func runDiscoverer(ctx context.Context, sd discovery.Config, timeout time.Duration) otherDiscovered {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reg := prometheus.NewRegistry()
	refresh := discovery.NewRefreshMetrics(reg)
	metrics := sd.NewDiscovererMetrics(reg, refresh)
	if err := metrics.Register(); err != nil {
		return otherDiscovered{err: err}
	}
	defer metrics.Unregister()
	errs := make(chan string, 1)
	d, err := sd.NewDiscoverer(discovery.DiscovererOptions{Logger: slog.New(errorHandler{ch: errs}), Metrics: metrics})
	if err != nil {
		return otherDiscovered{err: err}
	}
	ch := make(chan []*targetgroup.Group, 1)
	go d.Run(ctx, ch)
	// A discoverer may answer in several updates (file_sd: one per file): after the
	// first, take what follows within a short quiet period.
	groups := map[string]*targetgroup.Group{}
	var quiet <-chan time.Time
	for {
		select {
		case tgs := <-ch:
			for _, g := range tgs {
				if g != nil {
					groups[g.Source] = g
				}
			}
			quiet = time.After(quietPeriod)
		case <-quiet:
			out := make([]*targetgroup.Group, 0, len(groups))
			for _, g := range groups {
				out = append(out, g)
			}
			sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
			return otherDiscovered{groups: out}
		case msg := <-errs:
			return otherDiscovered{err: errors.New(msg)}
		case <-ctx.Done():
			return otherDiscovered{err: fmt.Errorf("no answer within %s", timeout)}
		}
	}
}

// quietPeriod is how long runDiscoverer waits for more updates after one.
const quietPeriod = 200 * time.Millisecond

// errorHandler is a slog handler that passes on the message and "err" attribute of each
// error record a discoverer logs (a refresh failure is only logged by Prometheus's
// discoverers), so that explain can report it at once.
type errorHandler struct{ ch chan<- string }

func (h errorHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (h errorHandler) WithAttrs([]slog.Attr) slog.Handler           { return h }
func (h errorHandler) WithGroup(string) slog.Handler                { return h }

func (h errorHandler) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			msg += ": " + a.Value.String()
		}
		return true
	})
	select {
	case h.ch <- msg:
	default:
	}
	return nil
}
