package render

import (
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Plan is every object the operator would write for the Prometheus of o, its pods
// generated with opts (the operator's flags): the plan the instance reconciler applies,
// with the configuration in one Secret.
func Plan(o Output, opts workload.Options) (*plan.Plan, error) {
	if o.Err != nil {
		return nil, o.Err
	}
	// Compressed as the operator compresses it.
	var c write.Compressor
	gz, err := c.Compress(o.Result.Hash, o.Result.Config)
	if err != nil {
		return nil, err
	}
	return promplan.PrometheusPlan(promplan.PlanInput{
		Input:     promplan.Input{Prometheus: o.Prometheus},
		TLSAssets: o.Result.TLSAssets,
		Config:    [][]byte{gz}, ConfigHashes: []string{o.Result.Hash},
		Rules: o.RuleConfigMaps, ManagesRoles: opts.ManagesReloaderRoles(),
	}, opts)
}
