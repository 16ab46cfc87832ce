package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// TestReloaderWatchAPIMode: with --reloader-watch-api the sidecar watches the config Secret
// and rule ConfigMaps through the API, and the operator grants the pod's service account
// read access to exactly those names.
func TestReloaderWatchAPIMode(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) { o.Workload.ReloaderWatchAPI = true })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	create(t, newPrometheus(ns, "apimode", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
		p.Spec.ServiceAccountName = "prom"
	}))
	eventually(t, 20*time.Second, "StatefulSet in API-watch mode with its Role", func() error {
		sts, err := statefulSet(ns, "prometheus-apimode")
		if err != nil {
			return err
		}
		var reloaderArgs string
		for _, c := range sts.Spec.Template.Spec.Containers {
			if c.Name == "config-reloader" {
				reloaderArgs = strings.Join(c.Args, " ")
			}
		}
		if !strings.Contains(reloaderArgs, "--watch-secret="+ns+"/prometheus-apimode=") || !strings.Contains(reloaderArgs, "--watch-configmap="+ns+"/prometheus-apimode-rulefiles-0=") {
			return fmt.Errorf("reloader args %s", reloaderArgs)
		}
		role := &rbacv1.Role{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-apimode-config-reloader"}, role); err != nil {
			return err
		}
		if len(role.Rules) == 0 || role.Rules[0].ResourceNames[0] != "prometheus-apimode" {
			return fmt.Errorf("role rules %+v", role.Rules)
		}
		rb := &rbacv1.RoleBinding{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-apimode-config-reloader"}, rb); err != nil {
			return err
		}
		if len(rb.Subjects) != 1 || rb.Subjects[0].Name != "prom" {
			return fmt.Errorf("role binding subjects %+v", rb.Subjects)
		}
		return nil
	})
}
