package promctrl

import (
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
)

// Reasons of the Reconciled condition (the shared ones come from package outcome).
const (
	ReasonReconciled           = outcome.ReasonReconciled
	ReasonInvalidConfiguration = outcome.ReasonInvalidConfiguration
	ReasonApplyFailed          = outcome.ReasonApplyFailed
	ReasonPaused               = outcome.ReasonPaused
	ReasonNameConflict         = outcome.ReasonNameConflict
	// ReasonConfigurationUnmanaged: the Prometheus selects no monitors of any kind, so its
	// config Secret is the user's (prometheus-operator's unmanaged configuration).
	ReasonConfigurationUnmanaged = instance.ReasonConfigurationUnmanaged
	// ReasonAPIWatchNeedsServiceAccount: --reloader-watch-api is on but the Prometheus has
	// no service account of its own; its reloader reads the mounted volume.
	ReasonAPIWatchNeedsServiceAccount = outcome.ReasonAPIWatchNeedsServiceAccount
	// ReasonNoRemoteWrite: a PrometheusAgent without spec.remoteWrite runs, as with
	// prometheus-operator, but its samples go nowhere.
	ReasonNoRemoteWrite = "NoRemoteWrite"
	// ReasonShardsNotCreated: some shards' StatefulSet names are too long for their pods;
	// the other shards run.
	ReasonShardsNotCreated = "ShardsNotCreated"
)

// invalid is a failure caused by the Prometheus's own spec: retrying cannot fix it.
func invalid(err error) error { return outcome.Invalid(err) }

// applyFailed is a failure to read or write through the API (retried), or a name
// conflict with an object the operator does not own.
func applyFailed(err error) error { return outcome.ApplyFailed(err) }

// note is a successful outcome that still says something in the Reconciled condition.
type note = outcome.Note
