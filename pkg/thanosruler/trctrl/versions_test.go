package trctrl

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// TestDefaultVersion: a ThanosRuler without spec.version runs the Thanos version the
// operator's --default-versions gives (issue 33); a version given wins.
func TestDefaultVersion(t *testing.T) {
	for _, c := range []struct {
		version *string
		want    string
	}{{nil, "quay.io/thanos/thanos:v0.42.2"}, {ptr.To("v0.40.0"), "quay.io/thanos/thanos:v0.40.0"}} {
		cfg := Config{}
		cfg.DefaultVersions = versions.Defaults{Thanos: "v0.42.2"}
		f := newFixture(t, cfg, thanosRuler(func(t *monitoringv1.ThanosRuler) { t.Spec.Version = c.version }), rule("app", "r", "up == 0"))
		if err := f.reconcile(); err != nil {
			t.Fatal(err)
		}
		sts := &appsv1.StatefulSet{}
		f.get(sts, "mon", "thanos-ruler-tr")
		if got := sts.Spec.Template.Spec.Containers[0].Image; got != c.want {
			t.Errorf("image %s, want %s", got, c.want)
		}
	}
}
