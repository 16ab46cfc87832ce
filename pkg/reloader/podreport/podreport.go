package podreport

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/reloader"
)

// ConditionType is the pod condition the reloader writes and the operator reads.
const ConditionType = layout.ConfigLoadedPodCondition

// Reason is the condition's reason.
const Reason = layout.ConfigLoadedPodReason

// Message is the condition's message for the configuration hash hash.
func Message(hash string) string { return layout.ConfigLoadedMessage(hash) }

// HashOf returns the hash a condition message written by Message carries.
func HashOf(message string) (string, bool) { return layout.ConfigLoadedHash(message) }

// Writer writes the condition with hash onto the pod.
type Writer interface {
	WriteConfigLoaded(ctx context.Context, hash string) error
}

// Defaults of Options.
const (
	DefaultRetryInterval = time.Second
	DefaultMaxRetry      = time.Minute
)

// Options configure a Reporter.
type Options struct {
	// RetryInterval is the delay before the first retry of a failed write; it doubles
	// per failure up to MaxRetry.
	RetryInterval, MaxRetry time.Duration
	// Logger logs; nil discards.
	Logger *slog.Logger
	// Written, if set, is called after each successful write (tests).
	Written func(hash string)
}

// Reporter writes the hash of each newly loaded configuration, the latest one only.
type Reporter struct {
	w      Writer
	o      Options
	latest chan string
}

// New returns a Reporter writing through w.
func New(w Writer, o Options) *Reporter {
	if o.RetryInterval <= 0 {
		o.RetryInterval = DefaultRetryInterval
	}
	if o.MaxRetry < o.RetryInterval {
		o.MaxRetry = max(DefaultMaxRetry, o.RetryInterval)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Reporter{w: w, o: o, latest: make(chan string, 1)}
}

// Observe takes a reloader check result (reloader.Options.Observe): a confirmed reload
// becomes the hash to report, the config hash, or without a config file (a ThanosRuler's
// reloader, which watches rule directories only) the hash of the watched files. It never
// blocks: a hash not written yet is replaced by the newer one.
func (r *Reporter) Observe(res reloader.Result) {
	if res.Action != reloader.ActionReloaded {
		return
	}
	if h := cmp.Or(res.ConfigHash, res.FilesHash); h != "" {
		r.offer(h)
	}
}

// offer makes hash the latest, dropping an older one not taken yet. Only the reloader's
// goroutine offers, so the second send cannot fail.
func (r *Reporter) offer(hash string) {
	for {
		select {
		case r.latest <- hash:
			return
		default:
		}
		select {
		case <-r.latest:
		default:
		}
	}
}

// Run writes the hashes offered until ctx is done: each new hash once, a failed write
// retried with backoff (and abandoned for a newer hash).
func (r *Reporter) Run(ctx context.Context) {
	var written, pending string
	failures := 0
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case pending = <-r.latest:
			retry.Stop()
			failures = 0
		case <-retry.C:
		}
		if pending == "" || pending == written {
			continue
		}
		if err := r.w.WriteConfigLoaded(ctx, pending); err != nil {
			if ctx.Err() != nil {
				return
			}
			failures++
			d := r.delay(failures)
			r.o.Logger.Warn("reporting the loaded configuration on the pod failed", "config_hash", short(pending), "err", err, "retry_in", d.String())
			retry.Reset(d)
			continue
		}
		written, failures = pending, 0
		r.o.Logger.Debug("reported the loaded configuration on the pod", "config_hash", short(pending))
		if r.o.Written != nil {
			r.o.Written(pending)
		}
	}
}

// delay is the wait before retry number n: RetryInterval doubled per further failure,
// at most MaxRetry.
func (r *Reporter) delay(n int) time.Duration {
	d := r.o.RetryInterval
	for i := 1; i < n && d < r.o.MaxRetry; i++ {
		d *= 2
	}
	return min(d, r.o.MaxRetry)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
