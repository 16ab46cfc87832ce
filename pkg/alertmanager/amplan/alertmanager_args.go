package amplan

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

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
func alertmanagerArgs(a *monitoringv1.Alertmanager, opts workload.Options, v versions.Version, replicas int32) ([]string, error) {
	s := &a.Spec
	retention := string(s.Retention)
	if retention == "" {
		retention = defaultAlertmanagerRetention
	}
	if err := workload.CheckGoDuration("spec.retention", retention); err != nil {
		return nil, err
	}
	args := []workload.Arg{
		{Name: "config.file", Value: path.Join(layout.AlertmanagerConfigOutDir, layout.AlertmanagerConfigOutFile)},
		{Name: "storage.path", Value: layout.AlertmanagerStorageDir},
		{Name: "data.retention", Value: retention},
	}
	add := func(name, value string) { args = append(args, workload.Arg{Name: name, Value: value}) }
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
				return nil, workload.ErrNegative("spec.limits.maxSilences", *l.MaxSilences)
			}
			add("silences.max-silences", strconv.Itoa(int(*l.MaxSilences)))
		}
		if b := ptr.Deref(l.MaxPerSilenceBytes, ""); b != "" {
			n, err := workload.ParseByteSize(string(b))
			if err != nil {
				return nil, fmt.Errorf("spec.limits.maxPerSilenceBytes: %w", err)
			}
			add("silences.max-per-silence-bytes", strconv.FormatInt(n, 10))
		}
	}
	if m := s.MinReadySeconds; m != nil && v.Supports(versions.AMStartDelay) && !workload.UserSets(s.AdditionalArgs, "dispatch.start-delay") {
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
		if err := workload.CheckGoDuration(d.field, string(d.value)); err != nil {
			return nil, err
		}
		add(d.flag, string(d.value))
	}
	if v.Supports(versions.AMClusterPeerName) {
		add("cluster.peer-name", ptr.Deref(s.ClusterPeerName, "$("+workload.PodNameEnv+")"))
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

	out, err := workload.MergeArgs(args, s.AdditionalArgs, "spec.additionalArgs")
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

// alertmanagerPeers are the --cluster.peer values: every replica through the governing
// Service (fully qualified with Options.ClusterDomain), then spec.additionalPeers.
func alertmanagerPeers(a *monitoringv1.Alertmanager, opts workload.Options, replicas int32) []string {
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
	return workload.LogArgs(level, format, func(n, val string) {
		switch {
		case n == "level" && val == "info", n == "format" && val == "logfmt":
		case n == "format" && !v.Supports(versions.AMLogFormat):
		default:
			add("log."+n, val)
		}
	})
}
