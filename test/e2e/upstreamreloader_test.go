//go:build e2e

package e2e

import (
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// TestUpstreamReloader: an operator whose reloader image is prometheus-operator's
// prometheus-config-reloader (v0.93.1, bin/prometheus-config-reloader) generates a
// Prometheus pod that runs that binary, with the generated arguments as they are, in the
// init container and the sidecar. The init container renders the config ($(POD_NAME)
// expanded), and the sidecar reloads Prometheus after each of two config changes (an
// external label, from the config Secret) and after a rule change (the rule ConfigMap),
// never failing a reload.
func TestUpstreamReloader(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	if _, ok := s.images[upstreamReloaderImage]; !ok {
		_, err := binaryPath(s.bin, "prometheus-config-reloader")
		t.Fatalf("upstream's reloader is not built: %v", err)
	}
	sc.startOperator("upstream", "--config-reloader-image="+upstreamReloaderImage)
	prom := sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{operatorLabel: "upstream"}
		p.Spec.ExternalLabels = map[string]string{"stage": "one"}
	})
	mustCreate(t, prom)
	var sts appsv1.StatefulSet
	sc.step("StatefulSet generated", 30*time.Second, func() error {
		return s.k8s.Get(t.Context(), types.NamespacedName{Namespace: sc.ns, Name: statefulSetName("main", 0)}, &sts)
	})
	spec := sts.Spec.Template.Spec
	watched := map[string]bool{}
	for _, c := range append(spec.InitContainers, spec.Containers...) {
		if (c.Name == workload.ReloaderInitName || c.Name == workload.ReloaderContainerName) && c.Image != upstreamReloaderImage {
			t.Fatalf("container %s runs %s, want upstream's reloader", c.Name, c.Image)
		}
		for _, a := range c.Args {
			if c.Name != workload.ReloaderContainerName {
				continue
			}
			if dir, ok := strings.CutPrefix(a, "--watched-dir="); ok {
				watched[dir] = true
			}
			if file, ok := strings.CutPrefix(a, "--config-file="); ok {
				watched[path.Dir(file)] = true
			}
		}
	}
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	api := promAPI{base: pd.url("web")}

	// The process serving the reloader's port is upstream's: its build information says
	// so (Lookout's reloader reports its own version there). Upstream's reloader adds its
	// directory watches only after its first successful reload, and a config change
	// made before that waits for its --watch-interval (3m): the scenario waits for the
	// watches (reloader_watches).
	var synced map[string]float64
	sc.step("upstream's reloader synced and watching", 30*time.Second, func() error {
		m, err := scrapeMetrics(pd.url("reloader-web") + "/metrics")
		if err != nil {
			return err
		}
		synced = m
		upstream := false
		for k := range m {
			upstream = upstream || strings.HasPrefix(k, "prometheus_config_reloader_build_info{") && strings.Contains(k, `version="0.93.1"`)
		}
		if !upstream {
			return fmt.Errorf("no prometheus_config_reloader_build_info of version 0.93.1")
		}
		// Its watches: the config file and its directory, then each watched directory.
		if want := len(watched) + 1; m["reloader_last_reload_successful"] != 1 || int(m["reloader_watches"]) != want {
			return fmt.Errorf("last reload successful %v, %v of %d watches", m["reloader_last_reload_successful"], m["reloader_watches"], want)
		}
		return nil
	})
	sc.step("config rendered by the init container", 30*time.Second, func() error {
		return configHas(api, "prometheus_replica: "+pd.name, "stage: one")
	})

	// Two changes: the first one could be seen through a watch of the config file
	// itself, which the kubelet's swap removes; the second needs the directory watched.
	for _, stage := range []string{"two", "three"} {
		mustUpdate(t, prom, func() { prom.Spec.ExternalLabels = map[string]string{"stage": stage} })
		sc.step("config change to stage "+stage+" reloaded", 60*time.Second, func() error { return configHas(api, "stage: "+stage) })
	}

	rule := recordingRule(sc, "upstream", "e2e:upstream", "vector(1)")
	mustCreate(t, rule)
	sc.step("rule change reloaded", 60*time.Second, func() error { return servesRule(api, "e2e:upstream", "vector(1)") })

	// Its first attempt may fail, when Prometheus does not listen yet (both start
	// together); after that, every reload succeeds.
	m, err := scrapeMetrics(pd.url("reloader-web") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	reloads := m["reloader_reloads_total"] - synced["reloader_reloads_total"]
	failed := m["reloader_reloads_failed_total"] - synced["reloader_reloads_failed_total"]
	if reloads < 3 || failed != 0 || m["reloader_last_reload_successful"] != 1 {
		t.Errorf("upstream's reloader since it synced: %v reloads, %v failed, last successful %v", reloads, failed, m["reloader_last_reload_successful"])
	}
}

// configHas checks that the configuration Prometheus runs contains every string.
func configHas(api promAPI, want ...string) error {
	cfg, err := api.config()
	if err != nil {
		return err
	}
	for _, w := range want {
		if !strings.Contains(cfg, w) {
			return fmt.Errorf("running config lacks %q", w)
		}
	}
	return nil
}
