package explain

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// mon is one monitor as explain follows it through one Prometheus: the selectors that
// decide it, and its generated jobs with what each asks for (a port, a prober).
type mon struct {
	kind, ns, name string
	lsel, nsel     *metav1.LabelSelector
	lbls           map[string]string
	jobs, ports    []string
	// svcSel is a ServiceMonitor's Service selector (nil for other kinds).
	svcSel *metav1.LabelSelector
}

// probeMonitors are the Probes of probes as p selects them: one job each
// (probe/<namespace>/<name>), with static targets or discovered Ingresses.
func probeMonitors(p *promserver.Server, probes []*monitoringv1.Probe) []mon {
	var out []mon
	for _, pr := range probes {
		what := []string{}
		if pr.Spec.Targets.StaticConfig != nil {
			what = append(what, "static targets")
		}
		if pr.Spec.Targets.Ingress != nil {
			what = append(what, "Ingresses")
		}
		if u := pr.Spec.ProberSpec.URL; u != "" {
			what = append(what, "prober "+u)
		}
		out = append(out, mon{kind: KindProbe, ns: pr.Namespace, name: pr.Name,
			lsel: p.Spec.ProbeSelector, nsel: p.Spec.ProbeNamespaceSelector, lbls: pr.Labels,
			jobs: []string{"probe/" + pr.Namespace + "/" + pr.Name}, ports: []string{strings.Join(what, ", ")}})
	}
	return out
}

// scrapeConfigMonitors are the ScrapeConfigs of scs as p selects them: one job each
// (scrapeConfig/<namespace>/<name>), whatever discovery it uses.
func scrapeConfigMonitors(p *promserver.Server, scs []*monitoringv1alpha1.ScrapeConfig) []mon {
	var out []mon
	for _, sc := range scs {
		out = append(out, mon{kind: KindScrapeConfig, ns: sc.Namespace, name: sc.Name,
			lsel: p.Spec.ScrapeConfigSelector, nsel: p.Spec.ScrapeConfigNamespaceSelector, lbls: sc.Labels,
			jobs: []string{"scrapeConfig/" + sc.Namespace + "/" + sc.Name}, ports: []string{""}})
	}
	return out
}
