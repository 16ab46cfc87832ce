package reloader

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// dirWatcher watches directories with fsnotify and signals on changed whenever anything
// in them may have changed. A directory that does not exist yet is covered by watching
// its nearest existing ancestor until it appears, so a missing input is picked up as soon
// as it is created. Events are not interpreted: the kubelet's "..data" swap, plain writes,
// creations and removals all just mean "check again".
type dirWatcher struct {
	fs      *fsnotify.Watcher
	dirs    []string
	active  map[string]bool
	changed chan struct{}
	m       *Metrics
	log     *slog.Logger
}

// newDirWatcher starts watching dirs.
func newDirWatcher(dirs []string, m *Metrics, log *slog.Logger) (*dirWatcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("starting file watcher: %w", err)
	}
	w := &dirWatcher{
		fs:      fw,
		dirs:    dirs,
		active:  map[string]bool{},
		changed: make(chan struct{}, 1),
		m:       m,
		log:     log,
	}
	w.sync()
	return w, nil
}

// Changed is signalled (at most one pending signal) after events.
func (w *dirWatcher) Changed() <-chan struct{} { return w.changed }

// run consumes events until ctx is done, then closes the watcher.
func (w *dirWatcher) run(ctx context.Context) {
	defer w.fs.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.m.watchEvents.Inc()
			w.log.Debug("file event", "op", ev.Op.String(), "path", ev.Name)
			if ev.Has(fsnotify.Remove|fsnotify.Rename) && w.active[ev.Name] {
				// A watched directory itself went away: its watch is gone or follows the
				// moved inode, so forget it and let sync choose again.
				_ = w.fs.Remove(ev.Name)
				delete(w.active, ev.Name)
			}
			w.sync()
			w.notify()
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.m.watchErrors.Inc()
			// An overflow means events were lost: a check covers whatever they were.
			w.log.Warn("file watcher error", "err", err)
			w.sync()
			w.notify()
		}
	}
}

func (w *dirWatcher) notify() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// sync points the fsnotify watches at each directory, or at its nearest existing ancestor
// while it is missing. It repeats until stable, so a directory created between two steps
// is not missed; when the set changed it signals a check.
func (w *dirWatcher) sync() {
	for range 16 {
		want := map[string]bool{}
		for _, d := range w.dirs {
			if t := existingAncestor(d); t != "" {
				want[t] = true
			}
		}
		changed := false
		for t := range want {
			if w.active[t] {
				continue
			}
			if err := w.fs.Add(t); err != nil {
				// Removed again in between: the next round picks another target.
				w.log.Debug("adding watch", "path", t, "err", err)
				continue
			}
			w.active[t] = true
			changed = true
		}
		for t := range w.active {
			if !want[t] {
				// The watch is gone already when the directory was removed.
				_ = w.fs.Remove(t)
				delete(w.active, t)
				changed = true
			}
		}
		w.m.watches.Set(float64(len(w.active)))
		if !changed {
			return
		}
		w.notify()
	}
}

// existingAncestor returns dir if it is an existing directory, else its nearest existing
// ancestor directory, or "" if none.
func existingAncestor(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		if parent := filepath.Dir(d); parent == d {
			return ""
		}
	}
}
