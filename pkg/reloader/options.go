package reloader

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"
)

// Defaults of the timing options.
const (
	DefaultWatchInterval = 3 * time.Minute
	DefaultDelayInterval = 100 * time.Millisecond
	DefaultRetryInterval = 5 * time.Second
	DefaultReloadTimeout = 30 * time.Second
	DefaultMaxAwait      = 15 * time.Minute
)

// Options configure a Reloader.
type Options struct {
	// ConfigFile is the config input, gzipped or plain; empty means none.
	ConfigFile string
	// ConfigPartFiles are further parts of the config, read after ConfigFile in order
	// (each gzipped or plain) as one config: the operator spreads a config too large
	// for one Secret over several.
	ConfigPartFiles []string
	// ConfigOutFile receives ConfigFile decompressed and $(VAR)-expanded; empty means
	// the input is only watched.
	ConfigOutFile string
	// WatchedDirs are directories whose files (not recursively) trigger a reload when
	// they change; nothing is written for them.
	WatchedDirs []string

	// WatchInterval spaces the periodic full checks that back up the file events.
	WatchInterval time.Duration
	// DelayInterval is the debounce: how long after a first event the check runs.
	DelayInterval time.Duration
	// RetryInterval is the delay before the first retry of a failed reload; it doubles
	// with each further failure up to eight times its value.
	RetryInterval time.Duration
	// ReloadTimeout is how long a reload may go unanswered before it is logged as
	// overdue (once per timeout); the reloader keeps waiting for the answer.
	ReloadTimeout time.Duration
	// MaxAwait bounds the wait for one reload's answer (default DefaultMaxAwait): a
	// Prometheus that has not answered by then is taken as stuck, and the reload fails
	// and is retried.
	MaxAwait time.Duration

	// Trigger reloads Prometheus; required by Run.
	Trigger Trigger
	// Metrics receives the reloader's metrics; nil keeps them unregistered.
	Metrics *Metrics
	// Logger logs; nil discards.
	Logger *slog.Logger
	// LookupEnv resolves $(VAR); nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Observe, if set, is called after every check with its result, from the goroutine
	// running Run or RenderOnce; it must not block.
	Observe func(Result)
}

// withDefaults fills unset fields and validates the rest.
func (o Options) withDefaults() (Options, error) {
	if o.ConfigFile == "" && len(o.WatchedDirs) == 0 {
		return o, errors.New("nothing to watch: set a config file or at least one watched directory")
	}
	if len(o.ConfigPartFiles) > 0 && o.ConfigFile == "" {
		return o, errors.New("config parts need a config file")
	}
	if o.ConfigOutFile != "" && o.ConfigFile == "" {
		return o, errors.New("an output file needs a config file")
	}
	if o.WatchInterval < 0 || o.DelayInterval < 0 || o.RetryInterval < 0 || o.ReloadTimeout < 0 || o.MaxAwait < 0 {
		return o, fmt.Errorf("negative interval in options")
	}
	if o.WatchInterval == 0 {
		o.WatchInterval = DefaultWatchInterval
	}
	if o.RetryInterval == 0 {
		o.RetryInterval = DefaultRetryInterval
	}
	if o.ReloadTimeout == 0 {
		o.ReloadTimeout = DefaultReloadTimeout
	}
	if o.MaxAwait == 0 {
		o.MaxAwait = DefaultMaxAwait
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.Metrics == nil {
		m, err := NewMetrics(nil)
		if err != nil {
			return o, err
		}
		o.Metrics = m
	}
	return o, nil
}
