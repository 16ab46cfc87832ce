package main

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// sampleAlertmanagerConfig is the shape of the operator's generated configuration for
// the harness's AlertmanagerConfigs (see pkg/alertmanager/amcfg/testdata), with a quoted name and URL
// and a look-alike receiver that is not the harness's.
const sampleAlertmanagerConfig = `route:
  receiver: "null"
  routes:
  - receiver: bench-00/amc-00000/r
    matchers:
    - namespace="bench-00"
    continue: true
  - receiver: bench-01/amc-00001/r
receivers:
- name: "null"
- name: bench-00/amc-00000/r
  webhook_configs:
  - http_config:
      authorization:
        type: Bearer
        credentials: bench-token-bench-00
    url: https://hooks.bench.invalid/bench-00/amc-00000/10
- name: "bench-01/amc-00001/r"
  webhook_configs:
  - url: "https://hooks.bench.invalid/bench-01/amc-00001/0"
- name: bench-02/amc-00002/other
`

func TestAlertmanagerConfigMarkers(t *testing.T) {
	k := alertmanagerConfigKind
	sc := scenario{items: 3, namespaces: 50}
	cfg := []byte(sampleAlertmanagerConfig)
	want := map[string]bool{}
	for i := 0; i < sc.items; i++ {
		want[k.expected(sc, i)] = true
	}
	if got := k.count(cfg, want); got != 2 {
		t.Errorf("count = %d, want 2 (object 2's receiver is missing)", got)
	}
	// A receiver listed twice counts once.
	if got := k.count(append(cfg, "- name: bench-00/amc-00000/r\n"...), want); got != 2 {
		t.Errorf("count with a repeated receiver = %d, want 2", got)
	}
	for _, c := range []struct {
		i, k int
		want bool
	}{
		{0, 9, true},   // url .../10
		{0, 0, false},  // .../1 is a prefix of .../10, not the URL
		{0, 99, false}, // .../100 is not there
		{1, -1, true},  // the creation URL, quoted
		{2, 0, false},
	} {
		if got := k.changed(cfg, sc, c.i, c.k); got != c.want {
			t.Errorf("changed(object %d, change %d) = %v, want %v", c.i, c.k, got, c.want)
		}
	}
}

// TestAlertmanagerConfigGenerated runs the objects the harness creates through the
// operator's generator and checks that the harness finds every receiver, and a change
// only once it is in the config.
func TestAlertmanagerConfigGenerated(t *testing.T) {
	k := alertmanagerConfigKind
	sc := scenario{items: 4, namespaces: 3}
	assets := amcfg.MapAssets{}
	var configs []*monitoringv1alpha1.AlertmanagerConfig
	want := map[string]bool{}
	for i := 0; i < sc.items; i++ {
		configs = append(configs, sc.amcObject(i))
		want[k.expected(sc, i)] = true
		sec := credSecret(sc.namespace(i))
		assets["secret/"+sec.Namespace+"/"+sec.Name+"/"+amcCredKey] = string(sec.Data[amcCredKey])
	}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: promNamespace, Name: promName}}
	gen := func() []byte {
		t.Helper()
		res, err := amcfg.Generate(amcfg.Input{Alertmanager: am, Configs: configs, Assets: assets})
		if err != nil {
			t.Fatal(err)
		}
		for key, v := range res.Verdicts {
			if !v.Accepted {
				t.Fatalf("%s rejected: %s %s: %s", key, v.Reason, v.Field, v.Message)
			}
		}
		return res.Config
	}
	cfg := gen()
	if got := k.count(cfg, want); got != sc.items {
		t.Fatalf("count = %d, want %d in\n%s", got, sc.items, cfg)
	}
	if !strings.Contains(string(cfg), "bench-token-bench-01") {
		t.Errorf("the credentials Secret was not used:\n%s", cfg)
	}
	i, c := 2, 7
	if k.changed(cfg, sc, i, c) {
		t.Fatal("change seen before it was made")
	}
	if err := k.mutate(configs[i], sc, i, c); err != nil {
		t.Fatal(err)
	}
	cfg = gen()
	if !k.changed(cfg, sc, i, c) {
		t.Errorf("change %d of object %d not recognised in\n%s", c, i, cfg)
	}
	if k.changed(cfg, sc, i+1, c) || k.changed(cfg, sc, i, c+1) {
		t.Error("a change that was not made is recognised")
	}
	if got := k.count(cfg, want); got != sc.items {
		t.Errorf("count after the change = %d, want %d", got, sc.items)
	}
}

func TestServiceMonitorChange(t *testing.T) {
	k := serviceMonitorKind
	sc := scenario{items: 3, namespaces: 50}
	// sampleConfig has job 0 at 31s: change 0.
	if !k.changed([]byte(sampleConfig), sc, 0, 0) || k.changed([]byte(sampleConfig), sc, 0, 1) || k.changed([]byte(sampleConfig), sc, 1, 0) {
		t.Error("ServiceMonitor change recogniser")
	}
}
