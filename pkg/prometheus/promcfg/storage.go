package promcfg

import (
	"fmt"
	"strings"

	"github.com/alecthomas/units"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// defaultRetention is prometheus-operator's retention when neither a time nor a size is
// given (Prometheus's own default is 15d).
const defaultRetention = "24h"

// storage renders the storage section: the TSDB settings (out-of-order window, stale
// series compaction, chunk encoding and, from Prometheus 3.11, retention) and exemplars.
// Before 3.11 retention is passed as flags (see pkg/workload).
func (h *headerCtx) storage() (M, error) {
	s := h.p.Spec
	tsdb := M{}
	if t := s.TSDB; t != nil {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("spec.tsdb: %w", err)
		}
		if t.OutOfOrderTimeWindow != nil {
			if _, err := model.ParseDuration(string(*t.OutOfOrderTimeWindow)); err != nil {
				return nil, fmt.Errorf("spec.tsdb.outOfOrderTimeWindow: %w", err)
			}
			tsdb.Set("out_of_order_time_window", string(*t.OutOfOrderTimeWindow))
		}
		if t.StaleSeriesCompactionThreshold != nil {
			if h.v.Supports(versions.PromStaleSeriesCompaction) {
				tsdb.SetAlways("stale_series_compaction_threshold", t.StaleSeriesCompactionThreshold.AsApproximateFloat64())
			} else {
				h.unsupported("spec.tsdb.staleSeriesCompactionThreshold", versions.PromStaleSeriesCompaction)
			}
		}
		if t.ChunkEncoding != nil && t.ChunkEncoding.Floats != nil {
			f := *t.ChunkEncoding.Floats
			switch f {
			case monitoringv1.ChunkEncodingFloatsXor, monitoringv1.ChunkEncodingFloatsXor2:
			default:
				return nil, fmt.Errorf("spec.tsdb.chunkEncoding.floats %q: must be Xor or Xor2", f)
			}
			if f == monitoringv1.ChunkEncodingFloatsXor && hasFeature(s.EnableFeatures, "st-storage") {
				return nil, fmt.Errorf("spec.tsdb.chunkEncoding.floats Xor is incompatible with spec.enableFeatures st-storage: XOR chunks do not store start timestamps")
			}
			if h.v.Supports(versions.PromChunkEncoding) {
				// Xor2 also needs --enable-feature=xor2-encoding, which pkg/workload adds.
				tsdb.Set("chunk_encoding", M{{"floats", strings.ToLower(string(f))}})
			} else {
				h.unsupported("spec.tsdb.chunkEncoding", versions.PromChunkEncoding)
			}
		}
	}
	if !h.p.IsAgent() {
		// An agent keeps no blocks: it has no retention.
		retention, err := h.retention()
		if err != nil {
			return nil, err
		}
		tsdb.Set("retention", retention)
	}

	st := M{}
	st.Set("tsdb", tsdb)
	if e := h.p.PrometheusOnly().Exemplars; e != nil && e.MaxSize != nil {
		if *e.MaxSize < 0 {
			return nil, fmt.Errorf("spec.exemplars.maxSize must not be negative")
		}
		st.Set("exemplars", M{{"max_exemplars", *e.MaxSize}})
	}
	return st, nil
}

// retention renders storage.tsdb.retention for Prometheus 3.11 and later, which read it
// from the configuration file instead of flags: the time (24h when neither a time, a size
// nor a percentage is set), the size and the percentage of the volume.
func (h *headerCtx) retention() (M, error) {
	only := h.p.PrometheusOnly()
	if only.Retention != "" {
		if _, err := model.ParseDuration(string(only.Retention)); err != nil {
			return nil, fmt.Errorf("spec.retention %q: %w", only.Retention, err)
		}
	}
	if only.RetentionSize != "" {
		if _, err := units.ParseBase2Bytes(string(only.RetentionSize)); err != nil {
			return nil, fmt.Errorf("spec.retentionSize %q is not a size such as 512MB or 20GiB: %w", only.RetentionSize, err)
		}
	}
	var pct float64
	if only.RetentionPercentage != nil {
		pct = only.RetentionPercentage.AsApproximateFloat64()
		if pct < 0 || pct > 100 {
			return nil, fmt.Errorf("spec.retentionPercentage %s must be between 0 and 100", only.RetentionPercentage)
		}
	}
	if !h.v.Supports(versions.PromRetentionInConfig) {
		if only.RetentionPercentage != nil {
			h.unsupported("spec.retentionPercentage", versions.PromRetentionInConfig)
		}
		return nil, nil
	}
	r := M{}
	switch {
	case only.Retention != "":
		r.Set("time", string(only.Retention))
	case only.RetentionSize == "" && only.RetentionPercentage == nil:
		r.Set("time", defaultRetention)
	}
	r.Set("size", string(only.RetentionSize))
	if only.RetentionPercentage != nil {
		r.SetAlways("percentage", pct)
	}
	return r, nil
}
