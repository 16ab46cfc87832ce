package lint

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
)

func init() {
	register(&Check{
		Name:     "rule-unselected",
		Severity: Warning,
		Summary:  "no Prometheus or ThanosRuler in the files selects the PrometheusRule (checked only when the files hold one)",
		Run:      ruleUnselected,
	}, &Check{
		Name:     "monitor-unselected",
		Severity: Warning,
		Summary:  "no Prometheus in the files selects the monitor (checked only when the files hold a Prometheus and no PrometheusAgent)",
		Run:      monitorUnselected,
	}, &Check{
		Name:     "invalid",
		Severity: Error,
		Summary:  "a Prometheus or ThanosRuler selects the monitor or PrometheusRule but the operator rejects it (InvalidConfiguration)",
		Run:      func(in *Inputs) []Finding { return invalid(in, false) },
	}, &Check{
		Name:     "missing-reference",
		Severity: Warning,
		Summary:  "a selected monitor names a Secret or ConfigMap (key) the files do not hold: the operator rejects it unless the cluster has it",
		Run:      func(in *Inputs) []Finding { return invalid(in, true) },
	})
}

func ruleUnselected(in *Inputs) []Finding {
	if !in.HasServers() {
		return nil
	}
	var out []Finding
	for _, pr := range in.Objects.PrometheusRules {
		if len(in.SelectedBy(monitoringv1.PrometheusRuleKind, pr.Namespace, pr.Name)) == 0 && !in.ruleSelectedByThanos(pr.Namespace, pr.Name) {
			out = append(out, at(monitoringv1.PrometheusRuleKind, pr.Namespace, pr.Name, "no Prometheus or ThanosRuler selects it; %s", why(in.Verdicts(monitoringv1.PrometheusRuleKind, pr.Namespace, pr.Name))))
		}
	}
	return out
}

// monitorUnselected does not run when the files hold a PrometheusAgent: render judges
// Prometheus objects only, and a monitor only an agent selects is not unselected.
func monitorUnselected(in *Inputs) []Finding {
	if len(in.Prometheuses) == 0 || in.hasAgent() {
		return nil
	}
	var out []Finding
	for _, k := range monitorkind.All {
		k.Each(&in.Objects.Monitors, func(m client.Object) {
			if len(in.SelectedBy(k.Name, m.GetNamespace(), m.GetName())) == 0 {
				out = append(out, at(k.Name, m.GetNamespace(), m.GetName(), "no Prometheus selects it; %s", why(in.Verdicts(k.Name, m.GetNamespace(), m.GetName()))))
			}
		})
	}
	return out
}

func (in *Inputs) hasAgent() bool {
	for _, d := range in.Objects.Others {
		if gk := d.GroupVersionKind().GroupKind(); gk.Kind == "PrometheusAgent" && gk.Group == monitoringv1.SchemeGroupVersion.Group {
			return true
		}
	}
	return false
}

// why joins the verdicts' messages ("Prometheus mon/k8s: REASON (message)" each).
func why(vs []Verdict) string {
	if len(vs) == 0 {
		return "no Prometheus considered it"
	}
	msg := ""
	for i, v := range vs {
		if i > 0 {
			msg += "; "
		}
		msg += v.By + ": " + string(v.Reason)
		if v.Message != "" {
			msg += " (" + v.Message + ")"
		}
	}
	return msg
}

// invalid reports the objects a Prometheus or ThanosRuler rejects: for a missing
// reference (missing) only those rejected because a Secret or ConfigMap is not in the
// files (created at install time by a Job or another controller, it may well exist in
// the cluster), otherwise the others.
func invalid(in *Inputs, missing bool) []Finding {
	var out []Finding
	seen := map[string]bool{}
	notFound := ": " + promcfg.ErrNotFound.Error()
	add := func(p string, vs []selection.Verdict) {
		for _, v := range vs {
			if v.Reason != selection.InvalidConfiguration || seen[v.Key()+v.Message] || strings.Contains(v.Message, notFound) != missing {
				continue
			}
			seen[v.Key()+v.Message] = true
			out = append(out, at(v.Kind, v.Namespace, v.Name, "%s rejects it: %s", p, v.Message))
		}
	}
	for _, o := range in.Prometheuses {
		add(o.Prometheus.Kind()+" "+o.Prometheus.Namespace+"/"+o.Prometheus.Name, o.Verdicts)
	}
	for _, o := range in.ThanosRulers {
		add("ThanosRuler "+o.ThanosRuler.Namespace+"/"+o.ThanosRuler.Name, o.Verdicts)
	}
	return out
}
