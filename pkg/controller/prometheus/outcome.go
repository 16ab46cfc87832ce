package prometheus

import (
	"errors"

	"github.com/lookout-operator/lookout/pkg/apply"
)

// Reasons of the Reconciled condition.
const (
	ReasonReconciled           = "ReconcileSucceeded"
	ReasonInvalidConfiguration = "InvalidConfiguration"
	ReasonApplyFailed          = "ApplyFailed"
	ReasonPaused               = "Paused"
	// ReasonNameConflict: an object the Prometheus needs exists and belongs to someone
	// else (a user, another Prometheus whose generated names collide); it is left alone.
	ReasonNameConflict = "NameConflict"
	// ReasonConfigurationUnmanaged: the Prometheus selects no monitors of any kind, so its
	// config Secret is the user's (prometheus-operator's unmanaged configuration).
	ReasonConfigurationUnmanaged = "ConfigurationUnmanaged"
	// ReasonAPIWatchNeedsServiceAccount: --reloader-watch-api is on but the Prometheus has
	// no service account of its own; its reloader reads the mounted volume.
	ReasonAPIWatchNeedsServiceAccount = "APIWatchNeedsServiceAccount"
)

// reconcileError is a failure with the reason the Reconciled condition shows.
type reconcileError struct {
	reason string
	err    error
}

func (e *reconcileError) Error() string { return e.err.Error() }
func (e *reconcileError) Unwrap() error { return e.err }

// invalid is a failure caused by the Prometheus's own spec: retrying cannot fix it.
func invalid(err error) error { return &reconcileError{ReasonInvalidConfiguration, err} }

// applyFailed is a failure to read or write through the API (retried), or a name
// conflict with an object the operator does not own.
func applyFailed(err error) error {
	if err == nil {
		return nil
	}
	if apply.IsNotOwned(err) {
		return &reconcileError{ReasonNameConflict, err}
	}
	return &reconcileError{ReasonApplyFailed, err}
}

// reasonOf returns the Reconciled reason of an outcome.
func reasonOf(err error) string {
	var re *reconcileError
	switch {
	case err == nil:
		return ReasonReconciled
	case errors.As(err, &re):
		return re.reason
	default:
		return ReasonApplyFailed
	}
}

// note is a successful outcome that still says something in the Reconciled condition
// (paused, unmanaged configuration): the condition stays True with its reason.
type note struct{ reason, message string }

func (n *note) Error() string { return n.message }
