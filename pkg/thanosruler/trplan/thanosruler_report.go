package trplan

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// ThanosRulerOptions are the pod options for t: the reloader reports the rules it loaded
// (Options.ReloaderReportConfig) only with t's own service account, never the
// namespace's default one (ADR 17).
func ThanosRulerOptions(t *monitoringv1.ThanosRuler, opts workload.Options) workload.Options {
	if t.Spec.ServiceAccountName == "" {
		opts.ReloaderReportConfig = false
	}
	return opts
}

// ThanosRulerReloaderRoleName names the Role and RoleBinding of a ThanosRuler's
// config-reloader.
func ThanosRulerReloaderRoleName(t *monitoringv1.ThanosRuler) string {
	return fmt.Sprintf("thanos-ruler-%s-config-reloader", t.Name)
}

// ThanosRulerPodNames are the names of t's pods, every replica's.
func ThanosRulerPodNames(t *monitoringv1.ThanosRuler) ([]string, error) {
	replicas := ptr.Deref(t.Spec.Replicas, 1)
	if replicas < 0 {
		return nil, workload.ErrNegative("spec.replicas", replicas)
	}
	return workload.StatefulSetPods(layout.ThanosRuler(t.Name).StatefulSet(), replicas), nil
}

// thanosRulerReloaderRBAC is the plan's reloader RBAC of t: with
// Options.ReloaderReportConfig (ThanosRulerOptions) a Role with patch on the status of
// t's own pods, by name, bound to t's service account; without it, when the controller
// manages reloader Roles (manages), the deletion of one left from before; else none.
func thanosRulerReloaderRBAC(t *monitoringv1.ThanosRuler, opts workload.Options, manages bool) (*plan.RBAC, error) {
	name := ThanosRulerReloaderRoleName(t)
	labels := map[string]string{
		layout.ManagedByLabel: layout.ManagedByValue, layout.NameLabel: ThanosRulerNameValue,
		layout.InstanceLabel: t.Name, layout.ThanosRulerNameLabel: t.Name,
	}
	role, err := workload.ReloaderRoleFor(name, t.Namespace, labels, nil, opts.ReloaderReportConfig, func() ([]string, error) { return ThanosRulerPodNames(t) })
	if err != nil {
		return nil, err
	}
	return plan.ReloaderRBAC(name, role, workload.NewReloaderRoleBinding(name, t.Namespace, labels, t.Spec.ServiceAccountName), manages), nil
}
