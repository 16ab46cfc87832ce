// Package outcome is the result of one reconcile of a top-level object (Prometheus,
// Alertmanager, ...), shared by their controllers: a failure with the reason the
// Reconciled condition shows, or a success with something to say, and the Reconciled
// condition built from it.
package outcome

import (
	"errors"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
)

// Reasons of the Reconciled condition every controller uses.
const (
	ReasonReconciled           = "ReconcileSucceeded"
	ReasonInvalidConfiguration = "InvalidConfiguration"
	ReasonApplyFailed          = "ApplyFailed"
	ReasonPaused               = "Paused"
	// ReasonNameConflict: an object the reconciled object needs exists and belongs to
	// someone else (a user, another object whose generated names collide); it is left
	// alone.
	ReasonNameConflict = "NameConflict"
	// ReasonAPIWatchNeedsServiceAccount: --reloader-watch-api is on but the object has no
	// service account of its own; its reloader reads the mounted volume.
	ReasonAPIWatchNeedsServiceAccount = "APIWatchNeedsServiceAccount"
)

// reconcileError is a failure with the reason the Reconciled condition shows.
type reconcileError struct {
	reason string
	err    error
}

func (e *reconcileError) Error() string { return e.err.Error() }
func (e *reconcileError) Unwrap() error { return e.err }

// Invalid is a failure caused by the object's own spec or inputs: retrying cannot fix it.
func Invalid(err error) error {
	if err == nil {
		return nil
	}
	return &reconcileError{ReasonInvalidConfiguration, err}
}

// Failed is a failure with a reason of the caller's.
func Failed(reason string, err error) error {
	if err == nil {
		return nil
	}
	return &reconcileError{reason, err}
}

// ApplyFailed is a failure to read or write through the API (retried), or a name
// conflict with an object the operator does not own.
func ApplyFailed(err error) error {
	if err == nil {
		return nil
	}
	if apply.IsNotOwned(err) {
		return &reconcileError{ReasonNameConflict, err}
	}
	return &reconcileError{ReasonApplyFailed, err}
}

// Reason returns the Reconciled reason of an outcome.
func Reason(err error) string {
	var re *reconcileError
	var n *Note
	switch {
	case err == nil:
		return ReasonReconciled
	case errors.As(err, &n):
		return n.Reason
	case errors.As(err, &re):
		return re.reason
	default:
		return ReasonApplyFailed
	}
}

// Note is a successful outcome that still says something in the Reconciled condition
// (paused, unmanaged configuration): the condition stays True with its reason.
type Note struct{ Reason, Message string }

func (n *Note) Error() string { return n.Message }

// Succeeded reports whether the outcome is a success: nil or a *Note.
func Succeeded(err error) bool {
	var n *Note
	return err == nil || errors.As(err, &n)
}

// ReconciledCondition turns the outcome into the Reconciled condition (ok is its message
// on plain success), keeping the transition time of prev's while its status does not
// change.
func ReconciledCondition(prev []monitoringv1.Condition, result error, ok string, now metav1.Time) monitoringv1.Condition {
	c := monitoringv1.Condition{Type: monitoringv1.Reconciled, Status: monitoringv1.ConditionTrue, Reason: ReasonReconciled, Message: ok, LastTransitionTime: now}
	var n *Note
	switch {
	case result == nil:
	case errors.As(result, &n):
		c.Reason, c.Message = n.Reason, n.Message
	default:
		c.Status, c.Reason, c.Message = monitoringv1.ConditionFalse, Reason(result), resourcestatus.Truncate(result.Error(), resourcestatus.MaxMessageBytes)
	}
	for _, old := range prev {
		if old.Type == c.Type && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	return c
}
