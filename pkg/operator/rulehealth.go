package operator

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/controller/targethealth"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/prometheus/promctrl"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"
)

// setupRuleHealth adds the rule health poller, on the target health period
// (--target-health-interval, 0: none), for the PrometheusRules of the Prometheus and (when
// its controller runs, rulers) ThanosRuler objects.
func setupRuleHealth(mgr manager.Manager, opts Options, store *resourcestatus.Store, pr *promctrl.Reconciler, rulers bool) error {
	if opts.TargetHealthInterval <= 0 || store == nil {
		return nil
	}
	store.EnableRuleHealth()
	cl := mgr.GetClient()
	lookup := func(ctx context.Context, o resourcestatus.Owner) (*targethealth.RuleAPI, error) {
		switch o.Resource {
		case monitoringv1.PrometheusName:
			p, err := pr.TargetHealthView(ctx, o)
			if err != nil || p == nil {
				return nil, err
			}
			return targethealth.PrometheusRuleAPI(p)
		case monitoringv1.ThanosRulerName:
			if !rulers {
				return nil, nil
			}
			return thanosRulerAPI(ctx, cl, o)
		}
		return nil, nil
	}
	metrics, err := targethealth.NewRuleMetrics(opts.Registry)
	if err != nil {
		return err
	}
	return mgr.Add(targethealth.NewRules(targethealth.RuleDeps{
		Store:   store,
		Lookup:  lookup,
		Pods:    mgr.GetAPIReader(),
		Metrics: metrics,
	}, targethealth.Config{Interval: opts.TargetHealthInterval}))
}

// thanosRulerAPI is where the rules API of a ThanosRuler's pods is.
func thanosRulerAPI(ctx context.Context, cl client.Reader, o resourcestatus.Owner) (*targethealth.RuleAPI, error) {
	t := &monitoringv1.ThanosRuler{}
	if err := cl.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: o.Name}, t); err != nil {
		return nil, err
	}
	a := &targethealth.RuleAPI{Namespace: t.Namespace, UID: t.UID, Selector: trplan.ThanosRulerPodSelector(t),
		StatefulSets: []string{layout.ThanosRuler(t.Name).StatefulSet()}}
	var err error
	a.Scheme, a.PortName, a.DefaultPort, a.Prefix, a.LocalOnly, err = trplan.ThanosRulerWebAPI(t)
	if err != nil {
		return nil, err
	}
	return a, nil
}
