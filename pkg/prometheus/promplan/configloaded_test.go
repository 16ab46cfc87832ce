package promplan

import (
	"slices"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// With ReloaderReportConfig the sidecar (not the init container) gets --report-pod, and
// the Role lets the service account patch the status of exactly the pods of every shard.
func TestReportConfig(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) {
		p.Spec.Replicas, p.Spec.Shards = ptr.To[int32](2), ptr.To[int32](2)
		p.Spec.AutomountServiceAccountToken = ptr.To(false)
	})
	opts := workload.DefaultOptions()
	opts.ConfigReloaderImage = "reloader:test"
	opts.ReloaderReportConfig = true
	sts, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	var sidecarArgs, initArgs []string
	var tokenMounted bool
	for _, c := range sts.Spec.Template.Spec.Containers {
		if c.Name == workload.ReloaderContainerName {
			sidecarArgs = c.Args
			for _, m := range c.VolumeMounts {
				tokenMounted = tokenMounted || m.Name == workload.APIAccessVolume
			}
		}
	}
	for _, c := range sts.Spec.Template.Spec.InitContainers {
		if c.Name == workload.ReloaderInitName {
			initArgs = c.Args
		}
	}
	if !slices.Contains(sidecarArgs, "--report-pod=monitoring/$(POD_NAME)") {
		t.Errorf("sidecar args %q lack --report-pod", sidecarArgs)
	}
	if slices.ContainsFunc(initArgs, func(a string) bool { return a == "--report-pod=monitoring/$(POD_NAME)" }) {
		t.Errorf("init container args %q have --report-pod", initArgs)
	}
	if !tokenMounted {
		t.Error("the reloader has no token although the pod does not mount one")
	}

	role, err := ReloaderRoleFor(Input{Prometheus: promserver.Of(p)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"pods/status"}, Verbs: []string{"patch"},
		ResourceNames: []string{"prometheus-k8s-0", "prometheus-k8s-1", "prometheus-k8s-shard-1-0", "prometheus-k8s-shard-1-1"}}}
	if role == nil || !slices.EqualFunc(role.Rules, want, func(a, b rbacv1.PolicyRule) bool {
		return slices.Equal(a.ResourceNames, b.ResourceNames) && slices.Equal(a.Verbs, b.Verbs) && slices.Equal(a.Resources, b.Resources)
	}) {
		t.Errorf("role %+v, want rules %+v", role, want)
	}

	// With API-watch mode too, the read rules come first.
	opts.ReloaderWatchAPI = true
	if role, err = ReloaderRoleFor(Input{Prometheus: promserver.Of(p)}, opts); err != nil || len(role.Rules) != 3 || role.Rules[2].Resources[0] != "pods/status" {
		t.Errorf("API-watch and report role %+v, %v", role, err)
	}
	// Neither: no Role.
	opts.ReloaderWatchAPI, opts.ReloaderReportConfig = false, false
	if role, err = ReloaderRoleFor(Input{Prometheus: promserver.Of(p)}, opts); err != nil || role != nil {
		t.Errorf("role without API use %+v, %v", role, err)
	}
}
