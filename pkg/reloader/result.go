package reloader

import "time"

// Cause is what started a check.
type Cause string

// Causes of a check.
const (
	CauseStart    Cause = "start"
	CauseEvent    Cause = "event"
	CausePeriodic Cause = "periodic"
	CauseRetry    Cause = "retry"
)

// Action is what a check did.
type Action string

// Actions of a check.
const (
	// ActionWaiting: the config input does not exist yet.
	ActionWaiting Action = "waiting"
	// ActionUnchanged: the content equals what Prometheus last loaded.
	ActionUnchanged Action = "unchanged"
	// ActionRendered: the output was written (RenderOnce, or Run without reload).
	ActionRendered Action = "rendered"
	// ActionReloaded: Prometheus loaded the new content, confirmed.
	ActionReloaded Action = "reloaded"
	// ActionPending: Prometheus has not answered a reload within the reload timeout; the
	// check keeps waiting for the answer rather than requesting another (observed once per
	// timeout, before the check's own result).
	ActionPending Action = "pending"
	// ActionFailed: rendering, writing or reloading failed; see Err.
	ActionFailed Action = "failed"
)

// Result describes one check.
type Result struct {
	Cause  Cause
	Action Action
	// Err is set when Action is ActionFailed.
	Err error
	// Hash covers the config input and the watched files; ConfigHash names the
	// decompressed config input before expansion (package confighash); FilesHash is the
	// hash of the watched directories' files alone (package dirhash).
	Hash, ConfigHash, FilesHash string
	// Started is when the check began; ReloadDuration how long the reload took.
	Started        time.Time
	ReloadDuration time.Duration
	// UnsetVars lists the $(VAR) references left unexpanded in the written output, by
	// name, once per occurrence, at most 64 of them.
	UnsetVars []string
}
