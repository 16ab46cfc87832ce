package amplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// AlertmanagerOptions are the pod options of a: opts, except that in API-watch mode
// (ReloaderWatchAPI) an Alertmanager without spec.serviceAccountName gets a reloader that
// reads the mounted volume, because the Role that reads the generated config Secret (every
// receiver credential) is never bound to the namespace's default service account, which
// any pod of the namespace may run as. watchDropped reports that case.
//
// Nor is a's reloader granted patch on its pods' status without a's own service account:
// it does not report the configuration it loaded (ReloaderReportConfig).
func AlertmanagerOptions(a *monitoringv1.Alertmanager, opts workload.Options) (_ workload.Options, watchDropped bool) {
	if a.Spec.ServiceAccountName == "" {
		opts.ReloaderReportConfig = false
	}
	if opts.ReloaderWatchAPI && a.Spec.ServiceAccountName == "" {
		opts.ReloaderWatchAPI = false
		return opts, true
	}
	return opts, false
}
