package promplan

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// defaultRetention is prometheus-operator's retention when none is given (Prometheus's own
// default is 15d).
const defaultRetention = "24h"

// remoteWriteMessages maps spec.remoteWriteReceiverMessageVersions to the protobuf
// message names Prometheus accepts.
var remoteWriteMessages = map[monitoringv1.RemoteWriteMessageVersion]string{
	monitoringv1.RemoteWriteMessageVersion1_0: "prometheus.WriteRequest",
	monitoringv1.RemoteWriteMessageVersion2_0: "io.prometheus.write.v2.Request",
}

// routePrefix is the path Prometheus serves under: spec.routePrefix or "/".
func routePrefix(p *promserver.Server) string {
	if p.Spec.RoutePrefix != "" {
		return p.Spec.RoutePrefix
	}
	return "/"
}

// webPath joins the route prefix and an endpoint ("/-/ready").
func webPath(p *promserver.Server, endpoint string) string {
	return path.Join("/", routePrefix(p), endpoint)
}

// webTLS reports whether Prometheus serves HTTPS.
func webTLS(p *promserver.Server) bool {
	return p.Spec.Web != nil && p.Spec.Web.TLSConfig != nil
}

// prometheusArgs returns the flags derived from the spec, sorted, without additionalArgs.
func prometheusArgs(p *promserver.Server, v versions.Version) ([]workload.Arg, error) {
	s := p.Spec
	args := []workload.Arg{
		{Name: "config.file", Value: path.Join(layout.ConfigOutDir, layout.ConfigOutFile)},
		{Name: "web.route-prefix", Value: routePrefix(p)},
		{Name: "web.config.file", Value: path.Join(layout.WebConfigDir, layout.WebConfigFile)},
	}
	add := func(name, value string) { args = append(args, workload.Arg{Name: name, Value: value}) }
	agent := p.IsAgent()
	var features []string
	if agent {
		// An agent keeps only a write-ahead log, in the same volume, and has no TSDB,
		// query engine or rules: none of their flags apply.
		if v.Supports(versions.PromAgentFlag) {
			add("agent", "")
		} else {
			features = append(features, "agent")
		}
		add("storage.agent.path", layout.StorageDir)
	} else {
		add("storage.tsdb.path", layout.StorageDir)
	}
	if !reloadSignal(p) {
		// With reloadStrategy ProcessSignal the reloader sends SIGHUP; Prometheus's
		// lifecycle endpoints (/-/reload, /-/quit) stay off, as prometheus-operator has it.
		add("web.enable-lifecycle", "")
	}

	if v.Supports(versions.PromConsoleTemplates) {
		// Prometheus 3 images no longer ship the console templates.
		add("web.console.templates", "/etc/prometheus/consoles")
		add("web.console.libraries", "/etc/prometheus/console_libraries")
	}

	walPrefix := "storage.tsdb."
	if agent {
		walPrefix = "storage.agent."
	}
	if s.WALCompression != nil {
		if *s.WALCompression {
			add(walPrefix+"wal-compression", "")
		} else {
			add("no-"+walPrefix+"wal-compression", "")
		}
	}
	if !agent {
		if err := serverArgs(p, v, add); err != nil {
			return nil, err
		}
	}
	if err := webArgs(p, add); err != nil {
		return nil, err
	}
	if err := workload.LogArgsUnlessDefault(s.LogLevel, s.LogFormat, func(n, v string) { add("log."+n, v) }); err != nil {
		return nil, err
	}
	more, err := receiverArgs(p, v, add)
	if err != nil {
		return nil, err
	}
	features = append(features, more...)
	for _, f := range s.EnableFeatures {
		if f := strings.TrimSpace(string(f)); f != "" {
			features = append(features, f)
		}
	}
	more, err = storageFeatures(p, v)
	if err != nil {
		return nil, err
	}
	features = append(features, more...)
	if len(features) > 0 {
		slices.Sort(features)
		add("enable-feature", strings.Join(slices.Compact(features), ","))
	}

	sort.SliceStable(args, func(i, j int) bool {
		if args[i].Name != args[j].Name {
			return args[i].Name < args[j].Name
		}
		return args[i].Value < args[j].Value
	})
	return args, nil
}

// serverArgs adds the flags only a Prometheus server (not an agent) has: retention,
// compaction, rules and query.
func serverArgs(p *promserver.Server, v versions.Version, add func(name, value string)) error {
	if err := retentionArgs(p, v, add); err != nil {
		return err
	}
	if err := compactionArgs(p, v, add); err != nil {
		return err
	}
	if err := ruleArgs(p.PrometheusOnly().Rules, add); err != nil {
		return err
	}
	return queryArgs(p.PrometheusOnly().Query, add)
}

// retentionArgs adds the retention flags. Prometheus 3.11 and later read retention from
// the configuration file's storage.tsdb.retention section, which pkg/prometheus/promcfg writes; older
// releases get --storage.tsdb.retention.time (24h when neither time nor size nor
// percentage is set) and --storage.tsdb.retention.size, as prometheus-operator passes them.
func retentionArgs(p *promserver.Server, v versions.Version, add func(name, value string)) error {
	s := p.PrometheusOnly()
	if s.Retention != "" {
		if _, err := model.ParseDuration(string(s.Retention)); err != nil {
			return fmt.Errorf("spec.retention %q: %w", s.Retention, err)
		}
	}
	if s.RetentionSize != "" && !workload.ByteSize.MatchString(string(s.RetentionSize)) {
		return fmt.Errorf("spec.retentionSize %q is not a size such as 512MB or 20GiB", s.RetentionSize)
	}
	if v.Supports(versions.PromRetentionInConfig) {
		return nil
	}
	switch {
	case s.Retention != "":
		add("storage.tsdb.retention.time", string(s.Retention))
	case s.RetentionSize == "" && s.RetentionPercentage == nil:
		add("storage.tsdb.retention.time", defaultRetention)
	}
	if s.RetentionSize != "" {
		add("storage.tsdb.retention.size", string(s.RetentionSize))
	}
	return nil
}

// ruleArgs adds the --rules.alert.* flags of spec.rules.alert.
func ruleArgs(r monitoringv1.Rules, add func(name, value string)) error {
	for _, f := range []struct{ field, flag, value string }{
		{"forOutageTolerance", "rules.alert.for-outage-tolerance", r.Alert.ForOutageTolerance},
		{"forGracePeriod", "rules.alert.for-grace-period", r.Alert.ForGracePeriod},
		{"resendDelay", "rules.alert.resend-delay", r.Alert.ResendDelay},
	} {
		if f.value == "" {
			continue
		}
		if _, err := model.ParseDuration(f.value); err != nil {
			return fmt.Errorf("spec.rules.alert.%s %q: %w", f.field, f.value, err)
		}
		add(f.flag, f.value)
	}
	return nil
}

// storageFeatures returns the feature flags the TSDB settings need: xor2-encoding for
// chunkEncoding.floats Xor2 (Prometheus 3.13 and later; older releases get no chunk
// encoding, pkg/prometheus/promcfg says so), metadata-wal-records for remote write 2.0 on 2.54 to
// 3.3, which enabled it automatically afterwards. It refuses chunkEncoding.floats Xor
// with the st-storage feature, whose chunks need start timestamps XOR does not store.
func storageFeatures(p *promserver.Server, v versions.Version) ([]string, error) {
	s := p.Spec
	var out []string
	if t := s.TSDB; t != nil && t.ChunkEncoding != nil && t.ChunkEncoding.Floats != nil {
		switch *t.ChunkEncoding.Floats {
		case monitoringv1.ChunkEncodingFloatsXor:
			if slices.Contains(s.EnableFeatures, "st-storage") {
				return nil, fmt.Errorf("spec.tsdb.chunkEncoding.floats Xor is incompatible with spec.enableFeatures st-storage: XOR chunks do not store start timestamps")
			}
		case monitoringv1.ChunkEncodingFloatsXor2:
			if v.Supports(versions.PromChunkEncoding) {
				out = append(out, "xor2-encoding")
			}
		default:
			return nil, fmt.Errorf("spec.tsdb.chunkEncoding.floats %q: must be Xor or Xor2", *t.ChunkEncoding.Floats)
		}
	}
	if v.Supports(versions.PromMetadataWALRecords) {
		for _, rw := range s.RemoteWrite {
			if ptr.Deref(rw.MessageVersion, monitoringv1.RemoteWriteMessageVersion1_0) == monitoringv1.RemoteWriteMessageVersion2_0 {
				out = append(out, "metadata-wal-records")
				break
			}
		}
	}
	return out, nil
}

// webArgs adds the --web.* flags of spec.web, externalUrl, enableAdminAPI and listenLocal.
func webArgs(p *promserver.Server, add func(name, value string)) error {
	s := p.Spec
	if s.ExternalURL != "" {
		u, err := url.Parse(s.ExternalURL)
		if err != nil {
			return fmt.Errorf("spec.externalUrl %q: %w", s.ExternalURL, err)
		}
		if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("spec.externalUrl %q: scheme must be http or https", s.ExternalURL)
		}
		add("web.external-url", s.ExternalURL)
	}
	if p.PrometheusOnly().EnableAdminAPI {
		add("web.enable-admin-api", "")
	}
	if s.ListenLocal {
		add("web.listen-address", "127.0.0.1:"+strconv.Itoa(layout.PrometheusWebPort))
	}
	if w := s.Web; w != nil {
		if t := ptr.Deref(w.PageTitle, ""); t != "" {
			add("web.page-title", t)
		}
		if w.MaxConnections != nil {
			if *w.MaxConnections < 0 {
				return fmt.Errorf("spec.web.maxConnections must not be negative, got %d", *w.MaxConnections)
			}
			add("web.max-connections", strconv.Itoa(int(*w.MaxConnections)))
		}
	}
	return nil
}

// queryArgs adds the --query.* flags of spec.query.
func queryArgs(q *monitoringv1.QuerySpec, add func(name, value string)) error {
	if q == nil {
		return nil
	}
	if d := ptr.Deref(q.LookbackDelta, ""); d != "" {
		if _, err := model.ParseDuration(d); err != nil {
			return fmt.Errorf("spec.query.lookbackDelta %q: %w", d, err)
		}
		add("query.lookback-delta", d)
	}
	if q.MaxConcurrency != nil {
		if *q.MaxConcurrency < 1 {
			return fmt.Errorf("spec.query.maxConcurrency must be at least 1, got %d", *q.MaxConcurrency)
		}
		add("query.max-concurrency", strconv.Itoa(int(*q.MaxConcurrency)))
	}
	if q.MaxSamples != nil {
		if *q.MaxSamples < 0 {
			return fmt.Errorf("spec.query.maxSamples must not be negative, got %d", *q.MaxSamples)
		}
		add("query.max-samples", strconv.Itoa(int(*q.MaxSamples)))
	}
	if d := ptr.Deref(q.Timeout, ""); d != "" {
		if _, err := model.ParseDuration(string(d)); err != nil {
			return fmt.Errorf("spec.query.timeout %q: %w", d, err)
		}
		add("query.timeout", string(d))
	}
	return nil
}

// receiverArgs adds the remote-write and OTLP receiver flags and returns the feature
// flags they need on older versions.
func receiverArgs(p *promserver.Server, v versions.Version, add func(name, value string)) ([]string, error) {
	s := p.Spec
	var features []string
	if s.EnableRemoteWriteReceiver {
		add("web.enable-remote-write-receiver", "")
	}
	if len(s.RemoteWriteReceiverMessageVersions) > 0 {
		if !v.Supports(versions.PromRemoteWriteReceiverMessages) {
			return nil, fmt.Errorf("spec.remoteWriteReceiverMessageVersions requires Prometheus v2.54.0 or later, the version is v%s", v)
		}
		seen := map[string]bool{}
		for _, m := range s.RemoteWriteReceiverMessageVersions {
			msg, ok := remoteWriteMessages[m]
			if !ok {
				return nil, fmt.Errorf("spec.remoteWriteReceiverMessageVersions: unknown version %q (want V1.0 or V2.0)", m)
			}
			if !seen[msg] {
				seen[msg] = true
				add("web.remote-write-receiver.accepted-protobuf-messages", msg)
			}
		}
	}
	// The OTLP endpoint is on when asked for, or when spec.otlp is configured and the
	// receiver is not explicitly off.
	otlp := ptr.Deref(s.EnableOTLPReceiver, s.OTLP != nil)
	if otlp {
		switch {
		case v.Supports(versions.PromOTLPReceiverFlag):
			add("web.enable-otlp-receiver", "")
		case v.Supports(versions.PromOTLPReceiverFeature):
			features = append(features, "otlp-write-receiver")
		default:
			return nil, fmt.Errorf("the OTLP receiver requires Prometheus v2.47.0 or later, the version is v%s", v)
		}
	}
	return features, nil
}
