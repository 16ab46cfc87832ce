package apiwatch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/lookout-operator/lookout/pkg/reloader/atomicdir"
	"github.com/lookout-operator/lookout/pkg/reloader/coreclient"
)

// Options tune a Mirror.
type Options struct {
	// Logger logs; nil discards.
	Logger *slog.Logger
	// Metrics receives the metrics; nil keeps them unregistered.
	Metrics *Metrics
	// UserAgent identifies the sidecar to the API server.
	UserAgent string
	// Writer projects the files; the zero value uses the kubelet's defaults.
	Writer atomicdir.Writer
}

// Mirror keeps one directory per Target equal to the object's keys.
type Mirror struct {
	rc      rest.Interface
	targets []Target
	o       Options
	synced  chan struct{}
}

// New returns a Mirror for targets, reading the API with cfg.
func New(cfg *rest.Config, targets []Target, o Options) (*Mirror, error) {
	if len(targets) == 0 {
		return nil, errors.New("no objects to watch")
	}
	seen := map[string]Target{}
	for _, t := range targets {
		if prev, dup := seen[t.Dir]; dup {
			return nil, fmt.Errorf("%s and %s share a directory", prev, t)
		}
		seen[t.Dir] = t
	}
	rc, err := coreclient.New(cfg, o.UserAgent)
	if err != nil {
		return nil, err
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Metrics == nil {
		if o.Metrics, err = NewMetrics(nil); err != nil {
			return nil, err
		}
	}
	return &Mirror{rc: rc, targets: targets, o: o, synced: make(chan struct{})}, nil
}

// Synced is closed once Run has written the initial state of every target.
func (m *Mirror) Synced() <-chan struct{} { return m.synced }

// Run watches every target and mirrors each change until ctx is done. API errors are
// retried with the client's backoff; a failed directory write is logged, counted and
// retried with the next event.
func (m *Mirror) Run(ctx context.Context) error {
	for _, t := range m.targets {
		if err := ensureDir(t.Dir); err != nil {
			return err
		}
	}
	var wg sync.WaitGroup
	var syncs []cache.InformerSynced
	for _, t := range m.targets {
		_, ctrl := cache.NewInformerWithOptions(cache.InformerOptions{
			ListerWatcher: m.listWatch(t),
			ObjectType:    newObject(t.Kind),
			Handler:       m.handler(t),
		})
		syncs = append(syncs, ctrl.HasSynced)
		wg.Go(func() { ctrl.RunWithContext(ctx) })
	}
	if cache.WaitForCacheSync(ctx.Done(), syncs...) {
		close(m.synced)
		m.o.Logger.Info("API objects mirrored", "targets", len(m.targets))
	}
	<-ctx.Done()
	wg.Wait()
	return nil
}

// listWatch lists and watches exactly t's object.
func (m *Mirror) listWatch(t Target) *cache.ListWatch {
	selector := fields.OneTermEqualSelector("metadata.name", t.Name).String()
	req := func(opts *metav1.ListOptions) *rest.Request {
		opts.FieldSelector = selector
		return m.rc.Get().Namespace(t.Namespace).Resource(t.Kind.resource()).VersionedParams(opts, coreclient.ParameterCodec)
	}
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			list := newList(t.Kind)
			if err := req(&opts).Do(ctx).Into(list); err != nil {
				m.o.Metrics.errors.WithLabelValues(t.labels()...).Inc()
				return nil, fmt.Errorf("listing %s: %w", t, err)
			}
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.Watch = true
			w, err := req(&opts).Watch(ctx)
			if err != nil {
				m.o.Metrics.errors.WithLabelValues(t.labels()...).Inc()
				return nil, fmt.Errorf("watching %s: %w", t, err)
			}
			return w, nil
		},
	}
}

// handler writes every version of the object. When a ConfigMap is deleted its directory
// is emptied, as the kubelet does for an optional ConfigMap; when a Secret is deleted the
// last files stay, so Prometheus keeps its last config rather than losing it.
func (m *Mirror) handler(t Target) cache.ResourceEventHandler {
	onChange := func(obj any) {
		if err := m.write(t, obj); err != nil {
			m.o.Logger.Error("mirroring object failed", "target", t.String(), "err", err)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    onChange,
		UpdateFunc: func(_, obj any) { onChange(obj) },
		DeleteFunc: func(any) {
			if t.Kind == KindSecret {
				m.o.Logger.Warn("secret deleted; keeping its last files", "target", t.String())
				return
			}
			m.o.Logger.Info("configmap deleted; emptying its directory", "target", t.String())
			m.writeFiles(t, map[string][]byte{})
		},
	}
}

// write projects obj into t.Dir.
func (m *Mirror) write(t Target, obj any) error {
	files, err := payload(obj)
	if err != nil {
		m.o.Metrics.errors.WithLabelValues(t.labels()...).Inc()
		return fmt.Errorf("%s: %w", t, err)
	}
	return m.writeFiles(t, files)
}

// writeFiles projects files into t.Dir and records the outcome.
func (m *Mirror) writeFiles(t Target, files map[string][]byte) error {
	changed, err := m.o.Writer.Write(t.Dir, files)
	if err != nil {
		m.o.Metrics.errors.WithLabelValues(t.labels()...).Inc()
		m.o.Logger.Error("writing mirrored files failed", "target", t.String(), "err", err)
		return fmt.Errorf("writing %s: %w", t, err)
	}
	m.o.Metrics.lastUpdate.WithLabelValues(t.labels()...).SetToCurrentTime()
	if changed {
		m.o.Metrics.updates.WithLabelValues(t.labels()...).Inc()
		m.o.Logger.Info("mirrored object updated", "target", t.String(), "keys", len(files))
	}
	return nil
}

// ensureDir creates dir with an empty kubelet-style projection unless it already has one
// (an emptyDir survives container restarts: its content is kept until the API says
// otherwise).
func ensureDir(dir string) error {
	_, err := os.Lstat(filepath.Join(dir, atomicdir.DataLink))
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("inspecting %s: %w", dir, err)
	}
	if _, err := atomicdir.Write(dir, map[string][]byte{}); err != nil {
		return fmt.Errorf("preparing %s: %w", dir, err)
	}
	return nil
}

func newObject(k Kind) runtime.Object {
	if k == KindSecret {
		return &corev1.Secret{}
	}
	return &corev1.ConfigMap{}
}

func newList(k Kind) runtime.Object {
	if k == KindSecret {
		return &corev1.SecretList{}
	}
	return &corev1.ConfigMapList{}
}
