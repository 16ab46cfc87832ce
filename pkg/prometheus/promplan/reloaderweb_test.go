package promplan

import (
	"slices"
	"testing"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"
	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// TestReloaderServesTheWebConfig: the config-reloader's own listener gets the server's
// web configuration (TLS, basic auth), as prometheus-operator v0.93 passes it: always for
// Alertmanager (0.22 and later) and ThanosRuler, for Prometheus only with spec.web (issue
// 33). Its container mounts the web-config volume; the init container, which serves
// nothing, has no flag.
func TestReloaderServesTheWebConfig(t *testing.T) {
	withWeb := prom(func(p *monitoringv1.Prometheus) { p.Spec.Web = &monitoringv1.PrometheusWebSpec{} })
	promSTS := func(p *monitoringv1.Prometheus) *appsv1.StatefulSet {
		sts, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, workload.DefaultOptions(), 0)
		if err != nil {
			t.Fatal(err)
		}
		return sts
	}
	amSTS, err := amplan.AlertmanagerStatefulSet(amplan.AlertmanagerInput{Alertmanager: &monitoringv1.Alertmanager{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "Alertmanager"},
		ObjectMeta: metav1.ObjectMeta{Name: "main", Namespace: "monitoring", Generation: 2},
	}, TLSAssetSecrets: 1}, workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	trSTS, err := trplan.ThanosRulerStatefulSet(trplan.ThanosRulerInput{ThanosRuler: &monitoringv1.ThanosRuler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "ThanosRuler"},
		ObjectMeta: metav1.ObjectMeta{Name: "main", Namespace: "monitoring", Generation: 2},
		Spec: monitoringv1.ThanosRulerSpec{
			QueryEndpoints:     []string{"dnssrv+_http._tcp.thanos-query.monitoring.svc"},
			EvaluationInterval: "15s",
			Retention:          "24h",
		},
	}}, workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file, dir string
		sts             *appsv1.StatefulSet
	}{
		{"prometheus with spec.web", "/etc/prometheus/web_config/web-config.yaml", "/etc/prometheus/web_config", promSTS(withWeb)},
		{"prometheus without spec.web", "", "/etc/prometheus/web_config", promSTS(prom())},
		{"alertmanager", "/etc/alertmanager/web_config/web-config.yaml", "/etc/alertmanager/web_config", amSTS},
		{"thanosruler", "/etc/thanos/web_config/web-config.yaml", "/etc/thanos/web_config", trSTS},
	} {
		t.Run(c.name, func(t *testing.T) {
			sidecar := container(t, c.sts.Spec.Template.Spec.Containers, workload.ReloaderContainerName)
			hasFlag := slices.Contains(sidecar.Args, "--web-config-file="+c.file)
			if c.file == "" {
				hasFlag = slices.ContainsFunc(sidecar.Args, func(a string) bool { return len(a) > 17 && a[:17] == "--web-config-file" })
				if hasFlag {
					t.Errorf("sidecar args %q: a --web-config-file without spec.web", sidecar.Args)
				}
				if mounts(sidecar, c.dir) {
					t.Errorf("sidecar mounts %s without spec.web", c.dir)
				}
				return
			}
			if !hasFlag || !mounts(sidecar, c.dir) {
				t.Errorf("sidecar args %q, mounts %+v: want --web-config-file=%s and %s mounted", sidecar.Args, sidecar.VolumeMounts, c.file, c.dir)
			}
			for _, ic := range c.sts.Spec.Template.Spec.InitContainers {
				if slices.ContainsFunc(ic.Args, func(a string) bool { return len(a) > 17 && a[:17] == "--web-config-file" }) {
					t.Errorf("init container %s serves nothing, yet gets %q", ic.Name, ic.Args)
				}
			}
		})
	}
}

func container(t *testing.T, cs []corev1.Container, name string) corev1.Container {
	t.Helper()
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no container %s", name)
	return corev1.Container{}
}

func mounts(c corev1.Container, dir string) bool {
	return slices.ContainsFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == dir && m.Name == workload.WebConfigVolume })
}
