package promplan

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// TestPrometheusPlanNames: the plan of a Prometheus names every object in write order
// (assets, config parts before the config Secret, web config, Thanos HTTP client, rule
// ConfigMaps) and prunes the numbered families beyond what it writes.
func TestPrometheusPlanNames(t *testing.T) {
	opts := workload.DefaultOptions()
	pl, err := PrometheusPlan(PlanInput{Input: Input{Prometheus: promserver.Of(prom())}, Config: [][]byte{{1}, {2}}, ConfigHashes: []string{"a", "b"}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range pl.Objects() {
		got = append(got, o.GetObjectKind().GroupVersionKind().Kind+"/"+o.GetName())
	}
	want := "Secret/prometheus-k8s-tls-assets-0 Secret/prometheus-k8s-config-part-1 Secret/prometheus-k8s Secret/prometheus-k8s-web-config " +
		"Secret/prometheus-k8s-thanos-prometheus-http-client-file ConfigMap/prometheus-k8s-rulefiles-0 Service/prometheus-operated StatefulSet/prometheus-k8s"
	if strings.Join(got, " ") != want {
		t.Errorf("objects\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	keep := map[string]int{}
	for _, n := range pl.Prune {
		keep[n.Name(0)] = n.Keep
	}
	if keep["prometheus-k8s-rulefiles-0"] != 1 || keep["prometheus-k8s-tls-assets-0"] != 1 || keep["prometheus-k8s-config-part-1"] != 1 {
		t.Errorf("prune %v", keep)
	}
	if pl.Data[1].Write != plan.Ensure || pl.Data[4].Write != plan.UnlessForeign {
		t.Errorf("write modes %v %v", pl.Data[1].Write, pl.Data[4].Write)
	}
}

// TestConfigPartsNeedLookoutReloader: a configuration spread over several Secrets is
// refused, naming the image to run, when the configured config-reloader is
// prometheus-operator's (it has no --config-part-file and would crash-loop; issue 33).
func TestConfigPartsNeedLookoutReloader(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ConfigReloaderImage = "quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1"
	one := PlanInput{Input: Input{Prometheus: promserver.Of(prom())}, Config: [][]byte{{1}}, ConfigHashes: []string{"a"}}
	if _, err := PrometheusPlan(one, opts); err != nil {
		t.Fatalf("one Secret with upstream's reloader: %v", err)
	}
	two := PlanInput{Input: Input{Prometheus: promserver.Of(prom())}, Config: [][]byte{{1}, {2}}, ConfigHashes: []string{"a", "b"}}
	_, err := PrometheusPlan(two, opts)
	if err == nil || !strings.Contains(err.Error(), "takes 2 Secrets") || !strings.Contains(err.Error(), workload.DefaultOptions().ConfigReloaderImage) {
		t.Fatalf("two Secrets with upstream's reloader: %v", err)
	}
	if _, err := PrometheusPlan(two, workload.DefaultOptions()); err != nil {
		t.Fatalf("two Secrets with Lookout's reloader: %v", err)
	}
}
