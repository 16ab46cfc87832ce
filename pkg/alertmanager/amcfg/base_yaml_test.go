package amcfg_test

import (
	"reflect"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/alertmanager/config"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// TestBaseMergeKeys: a base configuration with anchors and YAML merge keys means in the
// generated file what it means to Alertmanager (issue 33): a route that inherits
// group_wait from an anchor keeps it (it was dropped), and its own keys win.
func TestBaseMergeKeys(t *testing.T) {
	t.Parallel()
	base := `route:
  receiver: a
  routes:
  - &r {receiver: b, group_wait: 5s, repeat_interval: 2h}
  - <<: *r
    receiver: a
  - <<: [{group_interval: 7m}, *r]
    receiver: b
receivers:
- name: a
- name: b
`
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "m", Name: "x"}}
	res, err := amcfg.Generate(amcfg.Input{Alertmanager: am, Base: []byte(base), Assets: amcfg.MapAssets{}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := config.Load(base)
	if err != nil {
		t.Fatal(err)
	}
	got, err := config.Load(string(res.Config))
	if err != nil {
		t.Fatalf("the generated configuration does not load: %v\n%s", err, res.Config)
	}
	if !reflect.DeepEqual(got.Route, want.Route) {
		t.Errorf("routes differ from what Alertmanager reads in the base:\n%s", res.Config)
	}
}
