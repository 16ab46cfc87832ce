package amcfg_test

import (
	"testing"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/alertmanager/config"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// FuzzGenerate feeds arbitrary AlertmanagerConfigs, bases and versions to Generate: it
// must not panic, and whatever configuration it returns must load.
func FuzzGenerate(f *testing.F) {
	for _, c := range goldenCases() {
		for _, o := range c.configs {
			f.Add([]byte(o), []byte(c.base), c.version)
		}
	}
	for _, c := range rejectCases() {
		f.Add([]byte(c.obj), []byte(""), c.version)
	}
	f.Fuzz(func(t *testing.T, obj, base []byte, version string) {
		var amc monitoringv1alpha1.AlertmanagerConfig
		if err := yaml.Unmarshal(obj, &amc); err != nil {
			return
		}
		in := tcase{version: version}.input(t)
		in.Base = base
		in.Configs = []*monitoringv1alpha1.AlertmanagerConfig{&amc, mustAMC(t, good)}
		res, err := amcfg.Generate(in)
		if err != nil {
			return
		}
		if _, err := config.Load(string(res.Config)); err != nil {
			t.Fatalf("Generate returned a configuration Alertmanager refuses: %v\n%s", err, res.Config)
		}
		if len(res.Verdicts) == 0 {
			t.Fatal("no verdicts")
		}
		_ = amcfg.Check(in.Alertmanager, &amc, in.Assets)
	})
}
