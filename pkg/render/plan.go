package render

import (
	"bytes"
	"compress/gzip"

	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Plan is every object the operator would write for the Prometheus of o, its pods
// generated with opts (the operator's flags): the plan the instance reconciler applies,
// with the configuration in one Secret.
func Plan(o Output, opts workload.Options) (*plan.Plan, error) {
	if o.Err != nil {
		return nil, o.Err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(o.Result.Config); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return workload.PrometheusPlan(workload.PlanInput{
		Input:     workload.Input{Prometheus: o.Prometheus},
		TLSAssets: o.Result.TLSAssets,
		Config:    [][]byte{buf.Bytes()}, ConfigHashes: []string{o.Result.Hash},
		Rules: o.RuleConfigMaps,
	}, opts)
}
