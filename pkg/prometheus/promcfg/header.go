package promcfg

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// headerCtx is what rendering the Prometheus-level sections carries: the object and its
// version, the recorder of the Secrets and ConfigMaps they read, and the warnings sink.
type headerCtx struct {
	p        *promserver.Server
	v        versions.Version
	ps       *promSettings // what the monitors are rendered with
	rec      *recorder
	warnings *[]string
}

// warn records a warning.
func (h *headerCtx) warn(msg string) { *h.warnings = append(*h.warnings, msg) }

// unsupported records that the field at where was left out because the version lacks f.
func (h *headerCtx) unsupported(where string, f versions.Feature) {
	h.warn(unsupportedWarning(where, f, h.v))
}

// setSupported sets key of m to v when the version has feature f and records that the
// field at where was left out otherwise.
func (h *headerCtx) setSupported(m *M, f versions.Feature, where, key string, v any) {
	if h.v.Supports(f) {
		m.Set(key, v)
	} else {
		h.unsupported(where, f)
	}
}

// renderEach renders every item of list with render; field names the list in errors
// ("spec.remoteWrite").
func renderEach[T any](field string, list []T, render func(*T) (M, error)) ([]M, error) {
	var out []M
	for i := range list {
		m, err := render(&list[i])
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", field, i, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// render renders every section but the monitors' scrape jobs: global, runtime,
// rule_files, storage, alerting, remote_write, remote_read, otlp and tracing. It returns the header, the
// global section alone (monitors are validated against it) and the jobs of
// additionalScrapeConfigs (with the sharding rules added).
func (h *headerCtx) render(ruleFiles []string) (header, globalOnly []byte, extraJobs []any, err error) {
	p := h.p
	global, err := h.global()
	if err != nil {
		return nil, nil, nil, err
	}
	if h.ps.APIServer != nil {
		// Every monitor's discovery uses spec.apiserverConfig: a Secret it names that
		// cannot be read is the Prometheus's problem, not each monitor's.
		if _, err := h.ps.kubernetesSD(h.rec, "pod", nil, false, nil); err != nil {
			return nil, nil, nil, err
		}
	}
	globalOnly = Encode(M{{"global", global}})

	top := M{{"global", global}}
	top.Set("runtime", h.runtime())
	if !p.IsAgent() {
		top.Set("rule_files", ruleFiles)
	}
	storage, err := h.storage()
	if err != nil {
		return nil, nil, nil, err
	}
	top.Set("storage", storage)

	if !p.IsAgent() {
		alerting, err := h.alertingSection()
		if err != nil {
			return nil, nil, nil, err
		}
		top.Set("alerting", alerting)
	}

	rws, err := renderEach("spec.remoteWrite", p.Spec.RemoteWrite, h.remoteWrite)
	if err != nil {
		return nil, nil, nil, err
	}
	top.Set("remote_write", rws)
	rrs, err := renderEach("spec.remoteRead", p.PrometheusOnly().RemoteRead, h.remoteRead)
	if err != nil {
		return nil, nil, nil, err
	}
	top.Set("remote_read", rrs)
	otlp, err := h.otlp()
	if err != nil {
		return nil, nil, nil, err
	}
	top.Set("otlp", otlp)
	tracing, err := h.tracing()
	if err != nil {
		return nil, nil, nil, err
	}
	top.Set("tracing", tracing)

	jobs, err := additionalList(h.rec, p.Namespace, p.Spec.AdditionalScrapeConfigs, "spec.additionalScrapeConfigs")
	if err != nil {
		return nil, nil, nil, err
	}
	for i, j := range jobs {
		job := j.(M)
		jobs[i] = appendRelabelings(job, h.ps.shardingRules("__address__", !additionalHashmod(job), false))
	}
	return Encode(top), globalOnly, jobs, nil
}

// additionalList reads a Secret key holding a YAML list. A missing optional Secret yields
// nothing; a missing required one is an error of the Prometheus object.
func additionalList(rec *recorder, ns string, sel *corev1.SecretKeySelector, field string) ([]any, error) {
	if sel == nil {
		return nil, nil
	}
	data, err := rec.get(AssetRef{SecretAsset, ns, sel.Name, sel.Key})
	if err != nil {
		if sel.Optional != nil && *sel.Optional && errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return parseYAMLList(data, field)
}

// alertingSection renders alerting with spec.additionalAlertRelabelConfigs and
// spec.additionalAlertManagerConfigs. An agent has no alerting section at all.
func (h *headerCtx) alertingSection() (M, error) {
	p := h.p
	extraRelabel, err := additionalList(h.rec, p.Namespace, p.PrometheusOnly().AdditionalAlertRelabelConfigs, "spec.additionalAlertRelabelConfigs")
	if err != nil {
		return nil, err
	}
	extraAMs, err := additionalList(h.rec, p.Namespace, p.PrometheusOnly().AdditionalAlertManagerConfigs, "spec.additionalAlertManagerConfigs")
	if err != nil {
		return nil, err
	}
	return h.alerting(extraRelabel, extraAMs)
}

// unsupportedWarning is the warning for a field left out because the version lacks it.
func unsupportedWarning(where string, f versions.Feature, v versions.Version) string {
	if f.Until != nil && v.AtLeast(*f.Until) {
		return fmt.Sprintf("%s: %s is not supported by Prometheus %s (removed in %s); left out", where, f.Name, v.Tag(), f.Until.Tag())
	}
	return fmt.Sprintf("%s: %s needs Prometheus %s or newer (have %s); left out", where, f.Name, f.Since.Tag(), v.Tag())
}
