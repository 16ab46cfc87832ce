package workload

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// clusterListenOff is how prometheus-operator switches gossip off for a single replica:
// the flag with an explicitly empty value.
const clusterListenOff = "--cluster.listen-address="

// alertmanagerArgs returns the flags of the alertmanager container, in
// prometheus-operator's order, followed by spec.additionalArgs.
func alertmanagerArgs(a *monitoringv1.Alertmanager, opts Options, v versions.Version, replicas int32) ([]string, error) {
	s := &a.Spec
	retention := string(s.Retention)
	if retention == "" {
		retention = defaultAlertmanagerRetention
	}
	if err := checkGoDuration("spec.retention", retention); err != nil {
		return nil, err
	}
	args := []arg{
		{"config.file", path.Join(layout.AlertmanagerConfigOutDir, layout.AlertmanagerConfigOutFile)},
		{"storage.path", layout.AlertmanagerStorageDir},
		{"data.retention", retention},
	}
	add := func(name, value string) { args = append(args, arg{name, value}) }
	clustered := replicas != 1 || s.ForceEnableClusterMode
	if clustered {
		add("cluster.listen-address", "[$("+podIPEnv+")]:"+strconv.Itoa(layout.AlertmanagerMeshPort))
	} else {
		add("cluster.listen-address", "") // rendered as clusterListenOff below
	}
	if s.ListenLocal {
		add("web.listen-address", "127.0.0.1:"+strconv.Itoa(layout.AlertmanagerWebPort))
	} else {
		add("web.listen-address", ":"+strconv.Itoa(layout.AlertmanagerWebPort))
	}
	if s.ExternalURL != "" {
		add("web.external-url", s.ExternalURL)
	}
	if len(s.EnableFeatures) > 0 && v.Supports(versions.AMEnableFeatures) {
		add("enable-feature", strings.Join(s.EnableFeatures, ","))
	}
	add("web.route-prefix", amRoutePrefix(a))
	if w := s.Web; w != nil && v.Supports(versions.AMWebFlags) {
		if w.GetConcurrency != nil {
			add("web.get-concurrency", strconv.FormatUint(uint64(*w.GetConcurrency), 10))
		}
		if w.Timeout != nil {
			add("web.timeout", strconv.FormatUint(uint64(*w.Timeout), 10))
		}
	}
	if l := s.Limits; l != nil && v.Supports(versions.AMLimits) {
		if l.MaxSilences != nil {
			if *l.MaxSilences < 0 {
				return nil, errNegative("spec.limits.maxSilences", *l.MaxSilences)
			}
			add("silences.max-silences", strconv.Itoa(int(*l.MaxSilences)))
		}
		if b := ptr.Deref(l.MaxPerSilenceBytes, ""); b != "" {
			n, err := parseByteSize(string(b))
			if err != nil {
				return nil, fmt.Errorf("spec.limits.maxPerSilenceBytes: %w", err)
			}
			add("silences.max-per-silence-bytes", strconv.FormatInt(n, 10))
		}
	}
	if m := s.MinReadySeconds; m != nil && v.Supports(versions.AMStartDelay) && !userSets(s.AdditionalArgs, "dispatch.start-delay") {
		add("dispatch.start-delay", fmt.Sprintf("%ds", *m))
	}
	if err := amLogArgs(s.LogLevel, s.LogFormat, v, add); err != nil {
		return nil, err
	}
	if s.ClusterAdvertiseAddress != "" {
		add("cluster.advertise-address", s.ClusterAdvertiseAddress)
	}
	for _, d := range []struct {
		field, flag string
		value       monitoringv1.GoDuration
	}{
		{"spec.clusterGossipInterval", "cluster.gossip-interval", s.ClusterGossipInterval},
		{"spec.clusterPushpullInterval", "cluster.pushpull-interval", s.ClusterPushpullInterval},
		{"spec.clusterPeerTimeout", "cluster.peer-timeout", s.ClusterPeerTimeout},
	} {
		if d.value == "" {
			continue
		}
		if err := checkGoDuration(d.field, string(d.value)); err != nil {
			return nil, err
		}
		add(d.flag, string(d.value))
	}
	if v.Supports(versions.AMClusterPeerName) {
		add("cluster.peer-name", ptr.Deref(s.ClusterPeerName, "$("+PodNameEnv+")"))
	}
	if v.Supports(versions.AMClusterLabel) {
		add("cluster.label", ptr.Deref(s.ClusterLabel, a.Namespace+"/"+a.Name))
	}
	for _, p := range alertmanagerPeers(a, opts, replicas) {
		add("cluster.peer", p)
	}
	// prometheus-operator shortens Alertmanager's 6h default so that a restarted pod
	// leaves the cluster quickly.
	add("cluster.reconnect-timeout", "5m")
	if v.Supports(versions.AMWebConfig) {
		add("web.config.file", path.Join(layout.AlertmanagerWebConfigDir, layout.WebConfigFile))
	}
	if s.ClusterTLS != nil && v.Supports(versions.AMClusterTLS) {
		add("cluster.tls-config", path.Join(layout.AlertmanagerClusterTLSDir, layout.AlertmanagerClusterTLSFile))
	}

	out, err := mergeArgs(args, s.AdditionalArgs, "spec.additionalArgs")
	if err != nil {
		return nil, err
	}
	if !clustered {
		for i, a := range out {
			if a == "--cluster.listen-address" {
				out[i] = clusterListenOff
			}
		}
	}
	return out, nil
}

// userSets reports whether spec.additionalArgs sets the flag name.
func userSets(extra []monitoringv1.Argument, name string) bool {
	for _, e := range extra {
		if argName(strings.TrimSpace(e.Name)) == name {
			return true
		}
	}
	return false
}

// alertmanagerPeers are the --cluster.peer values: every replica through the governing
// Service (fully qualified with Options.ClusterDomain), then spec.additionalPeers.
func alertmanagerPeers(a *monitoringv1.Alertmanager, opts Options, replicas int32) []string {
	domain := AlertmanagerServiceName(a)
	if opts.ClusterDomain != "" {
		domain = fmt.Sprintf("%s.%s.svc.%s.", domain, a.Namespace, opts.ClusterDomain)
	}
	out := make([]string, 0, int(replicas)+len(a.Spec.AdditionalPeers))
	for i := range replicas {
		out = append(out, fmt.Sprintf("%s-%d.%s:%d", layout.Alertmanager(a.Name).StatefulSet(), i, domain, layout.AlertmanagerMeshPort))
	}
	return append(out, a.Spec.AdditionalPeers...)
}

// amLogArgs adds --log.level and --log.format unless they are Alertmanager's defaults,
// as prometheus-operator does (--log.format exists from v0.16).
func amLogArgs(level, format string, v versions.Version, add func(name, value string)) error {
	return logArgs(level, format, func(n, val string) {
		switch {
		case n == "level" && val == "info", n == "format" && val == "logfmt":
		case n == "format" && !v.Supports(versions.AMLogFormat):
		default:
			add("log."+n, val)
		}
	})
}

// checkGoDuration rejects a value the API's GoDuration syntax does not allow.
func checkGoDuration(field, value string) error {
	if !goDuration.MatchString(value) {
		return fmt.Errorf("%s %q is not a duration like 120h, 1h30m or 500ms", field, value)
	}
	return nil
}

// parseByteSize parses the API's ByteSize ("512MB", "1.5GiB"): units are powers of two
// with or without the i, as Alertmanager reads them.
func parseByteSize(s string) (int64, error) {
	if !byteSize.MatchString(s) {
		return 0, fmt.Errorf("%q is not a size like 512MB or 1GiB", s)
	}
	num := strings.TrimSuffix(s, "B")
	num = strings.TrimSuffix(num, "i")
	mult := 1.0
	if n := len(num); n > 0 {
		if i := strings.IndexByte("KMGTPE", num[n-1]); i >= 0 {
			mult = math.Pow(1024, float64(i+1))
			num = num[:n-1]
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: %w", s, err)
	}
	return int64(f * mult), nil
}
