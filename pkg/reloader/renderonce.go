package reloader

import (
	"context"
	"errors"
	"time"
)

// RenderOnce writes the output once and returns, without reloading anything: the init
// container's job, so Prometheus starts with a rendered config. A missing input is waited
// for (watching its directory) until ctx is done; a corrupt input is an error.
func (r *Reloader) RenderOnce(ctx context.Context) error {
	if r.o.ConfigFile == "" || r.o.ConfigOutFile == "" {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := newDirWatcher(r.configDirs(), r.m, r.log)
	if err != nil {
		return err
	}
	go w.run(ctx)
	ticker := time.NewTicker(r.o.WatchInterval)
	defer ticker.Stop()
	for {
		res := Result{Cause: CauseStart, Started: time.Now()}
		done, err := r.renderOnce(&res)
		if r.o.Observe != nil {
			r.o.Observe(res)
		}
		if done || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(errors.New("config file never appeared"), ctx.Err())
		case <-w.Changed():
		case <-ticker.C:
		}
	}
}

// renderOnce makes one attempt; done is false while the input is missing.
func (r *Reloader) renderOnce(res *Result) (done bool, err error) {
	snap, err := takeSnapshot(r.o.ConfigFile, r.o.ConfigPartFiles, nil)
	if errors.Is(err, ErrInputMissing) {
		if !r.waiting {
			r.log.Info("waiting for the config input to be complete", "file", r.o.ConfigFile, "reason", err.Error())
		}
		r.waiting = true
		res.Action = ActionWaiting
		return false, nil
	}
	if err != nil {
		res.Action, res.Err = ActionFailed, err
		return true, err
	}
	defer snap.close()
	res.Hash, res.ConfigHash = snap.hash, snap.configHash
	differs, err := r.outputDiffers(snap)
	if err == nil && differs {
		var out rendering
		out, err = r.writeOutput(snap)
		res.UnsetVars = out.unset
	}
	if err != nil {
		res.Action, res.Err = ActionFailed, err
		return true, err
	}
	res.Action = ActionRendered
	r.log.Info("config rendered", "file", r.o.ConfigOutFile, "config_hash", shortHash(snap.configHash))
	return true, nil
}
