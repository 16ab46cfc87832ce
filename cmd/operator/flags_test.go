package main

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"flag"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/test/upstreamargs"
)

// parse runs the command line through the same path as the binary and fails the test
// unless it leads to running the operator.
func parse(t *testing.T, args ...string) *operator.Parsed {
	t.Helper()
	var stdout, stderr bytes.Buffer
	p, code, done := parseRun(args, &stdout, &stderr)
	if done {
		t.Fatalf("%q: exit %d instead of running\nstdout: %s\nstderr: %s", args, code, stdout.String(), stderr.String())
	}
	return p
}

// The Deployments of kube-prometheus and of the kube-prometheus-stack chart.
var (
	kubePrometheusArgs = upstreamargs.KubePrometheus()
	helmArgs           = upstreamargs.Helm("/cert/cert", "/cert/key")
)

func TestEveryUpstreamFlagIsDefined(t *testing.T) {
	if n := len(operator.UpstreamFlags); n != 59 {
		t.Errorf("%d upstream flags listed, prometheus-operator v0.93 has 59", n)
	}
	fs, _ := operator.NewFlagSet("test", &bytes.Buffer{})
	for _, name := range operator.UpstreamFlags {
		if fs.Lookup(name) == nil {
			t.Errorf("--%s is not defined", name)
		}
	}
}

// TestUpstreamDefaults checks that what prometheus-operator defaults, Lookout defaults the
// same way (the config-reloader's CPU limit excepted, see Documentation/operator.md).
func TestUpstreamDefaults(t *testing.T) {
	p := parse(t)
	o := p.Options
	checks := []struct {
		name      string
		got, want any
	}{
		{"web.listen-address", o.MetricsAddr, ":8080"},
		{"web.enable-tls", o.Web.TLS, false},
		{"web.cert-file", o.Web.CertFile, "/etc/tls/private/tls.crt"},
		{"web.key-file", o.Web.KeyFile, "/etc/tls/private/tls.key"},
		{"web.client-ca-file", o.Web.ClientCAFile, "/etc/tls/private/tls-ca.crt"},
		{"web.tls-reload-interval", o.Web.ReloadInterval, time.Minute},
		{"web.enable-http2", o.Web.HTTP2, false},
		{"namespaces", len(o.Namespaces), 0},
		{"deny-namespaces", len(o.DenyNamespaces), 0},
		{"prometheus-instance-selector", o.PrometheusInstanceSelector.Empty(), true},
		{"secret-field-selector", o.SecretFieldSelector.Empty(), true},
		{"prometheus-default-base-image", o.Workload.PrometheusBaseImage, "quay.io/prometheus/prometheus"},
		{"alertmanager-default-base-image", o.Workload.AlertmanagerBaseImage, "quay.io/prometheus/alertmanager"},
		{"thanos-default-base-image", o.ThanosBaseImage, "quay.io/thanos/thanos"},
		{"kubelet-service", o.Kubelet.Service, types.NamespacedName{}},
		{"kubelet-endpoints", o.Kubelet.Endpoints, true},
		{"kubelet-endpointslice", o.Kubelet.EndpointSlice, false},
		{"kubelet-sync-period", o.Kubelet.SyncPeriod, 3 * time.Minute},
		{"kubelet-http-metrics", o.Kubelet.HTTPMetrics, true},
		{"kubelet-node-address-priority", o.Kubelet.NodeAddressPriority, "internal"},
		{"localhost", o.LocalHost, "localhost"},
		{"repair-policy-for-statefulsets", o.RepairPolicy, operator.RepairNone},
		{"feature-gates", o.FeatureGates.String(), "PrometheusAgentDaemonSet=false,PrometheusShardRetentionPolicy=true,PrometheusTopologySharding=true,RemoteWriteCustomResourceDefinition=false,StatusForConfigurationResources=false"},
		{"log-level", o.Log.Level, "info"},
		{"log-format", o.Log.Format, "logfmt"},
		{"auto-gomemlimit-ratio", o.GoMemLimitRatio, 0.0},
		{"controller-id", o.ControllerID, ""},
		{"watch-referenced-objects-in-all-namespaces", o.WatchReferencedObjectsInAllNamespaces, false},
		{"disable-unmanaged-prometheus-configuration", o.DisableUnmanagedPrometheusConfiguration, false},
		{"config-reloader-cpu-request", o.Workload.ConfigReloaderResources.Requests.Cpu().String(), "10m"},
		{"config-reloader-memory-request", o.Workload.ConfigReloaderResources.Requests.Memory().String(), "50Mi"},
		{"config-reloader-memory-limit", o.Workload.ConfigReloaderResources.Limits.Memory().String(), "50Mi"},
		// Lookout leaves the CPU limit out (prometheus-operator: 10m).
		{"config-reloader-cpu-limit", o.Workload.ConfigReloaderResources.Limits.Cpu().IsZero(), true},
		// Lookout's own defaults.
		{"leader-elect", o.LeaderElection && o.LeaderElectionOptional, true},
		{"resource-status", o.ResourceStatus, true},
		{"target-health-interval", o.TargetHealthInterval, time.Minute},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("--%s: default %v, want %v", c.name, c.got, c.want)
		}
	}
	if got := p.NotApplied(); len(got) != 0 {
		t.Errorf("no flags given, but not applied: %v", got)
	}
	if !reflect.DeepEqual(o.Workload.ConfigReloaderResources, operator.DefaultOptions().Workload.ConfigReloaderResources) {
		t.Errorf("reloader resources from the flags %v differ from DefaultOptions %v", o.Workload.ConfigReloaderResources, operator.DefaultOptions().Workload.ConfigReloaderResources)
	}
}

func TestParseFlagGroups(t *testing.T) {
	cases := []struct {
		group string
		args  []string
		check func(t *testing.T, o operator.Options)
	}{
		{"namespaces", []string{"--namespaces=a,b", "--namespaces", "c,a", "--prometheus-instance-namespaces=monitoring", "--alertmanager-instance-namespaces=am", "--alertmanager-config-namespaces=amc1,amc2", "--thanos-ruler-instance-namespaces=tr"}, func(t *testing.T, o operator.Options) {
			eq(t, "namespaces", o.Namespaces, []string{"a", "b", "c"})
			eq(t, "prometheus-instance-namespaces", o.PrometheusInstanceNamespaces, []string{"monitoring"})
			eq(t, "alertmanager-instance-namespaces", o.AlertmanagerInstanceNamespaces, []string{"am"})
			eq(t, "alertmanager-config-namespaces", o.AlertmanagerConfigNamespaces, []string{"amc1", "amc2"})
			eq(t, "thanos-ruler-instance-namespaces", o.ThanosRulerInstanceNamespaces, []string{"tr"})
			eq(t, "prometheus scope", o.PrometheusScope().String(), "monitoring")
			eq(t, "monitor scope", o.MonitorScope().String(), "a,b,c")
			eq(t, "alertmanager scope", o.AlertmanagerScope().String(), "am")
			eq(t, "alertmanager config scope", o.AlertmanagerConfigScope().String(), "amc1,amc2")
			eq(t, "thanos ruler scope", o.ThanosRulerScope().String(), "tr")
			eq(t, "watch scope", o.WatchScope().String(), "a,am,amc1,amc2,b,c,monitoring,tr")
		}},
		{"deny namespaces", []string{"--deny-namespaces=kube-system, kube-public", "--watch-referenced-objects-in-all-namespaces=true"}, func(t *testing.T, o operator.Options) {
			eq(t, "deny-namespaces", o.DenyNamespaces, []string{"kube-system", "kube-public"})
			eq(t, "monitor scope", o.MonitorScope().String(), "all except kube-public,kube-system")
			eq(t, "prometheus scope", o.PrometheusScope().String(), "all except kube-public,kube-system")
			eq(t, "watch-referenced-objects-in-all-namespaces", o.WatchReferencedObjectsInAllNamespaces, true)
		}},
		{"selectors", []string{"--prometheus-instance-selector=team=a,tier!=test", "--alertmanager-instance-selector=x in (y,z)", "--thanos-ruler-instance-selector=!legacy", "--secret-field-selector=type!=kubernetes.io/dockercfg", "--secret-label-selector=app=x", "--configmap-field-selector=metadata.name!=big", "--configmap-label-selector=env"}, func(t *testing.T, o operator.Options) {
			matches(t, "prometheus-instance-selector", o.PrometheusInstanceSelector, labels.Set{"team": "a"}, true)
			matches(t, "prometheus-instance-selector", o.PrometheusInstanceSelector, labels.Set{"team": "a", "tier": "test"}, false)
			matches(t, "alertmanager-instance-selector", o.AlertmanagerInstanceSelector, labels.Set{"x": "z"}, true)
			matches(t, "thanos-ruler-instance-selector", o.ThanosRulerInstanceSelector, labels.Set{"legacy": ""}, false)
			matches(t, "secret-label-selector", o.SecretLabelSelector, labels.Set{"app": "x"}, true)
			matches(t, "configmap-label-selector", o.ConfigMapLabelSelector, labels.Set{}, false)
			eq(t, "secret-field-selector", o.SecretFieldSelector.Matches(fields.Set{"type": "kubernetes.io/dockercfg"}), false)
			eq(t, "configmap-field-selector", o.ConfigMapFieldSelector.Matches(fields.Set{"metadata.name": "small"}), true)
		}},
		{"images and reloader", []string{"--prometheus-default-base-image=registry.example/prometheus", "--alertmanager-default-base-image=registry.example/am", "--thanos-default-base-image=registry.example/thanos", "--prometheus-config-reloader=registry.example/reloader:v1", "--config-reloader-cpu-request=20m", "--config-reloader-cpu-limit=100m", "--config-reloader-memory-request=30Mi", "--config-reloader-memory-limit=0", "--enable-config-reloader-probes"}, func(t *testing.T, o operator.Options) {
			eq(t, "prometheus-default-base-image", o.Workload.PrometheusBaseImage, "registry.example/prometheus")
			eq(t, "alertmanager-default-base-image", o.Workload.AlertmanagerBaseImage, "registry.example/am")
			eq(t, "thanos-default-base-image", o.ThanosBaseImage, "registry.example/thanos")
			eq(t, "thanos-default-base-image (workload)", o.Workload.ThanosBaseImage, "registry.example/thanos")
			eq(t, "prometheus-config-reloader", o.Workload.ConfigReloaderImage, "registry.example/reloader:v1")
			eq(t, "reloader resources", o.Workload.ConfigReloaderResources, corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("20m"), corev1.ResourceMemory: resource.MustParse("30Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
			})
			eq(t, "enable-config-reloader-probes", o.ConfigReloaderProbes, true)
		}},
		{"reloader: zero is none, Lookout's alias and memory flag", []string{"--config-reloader-image=x/y:z", "--config-reloader-cpu-request=0", "--config-reloader-memory=80Mi", "--config-reloader-memory-limit=100Mi"}, func(t *testing.T, o operator.Options) {
			eq(t, "config-reloader-image", o.Workload.ConfigReloaderImage, "x/y:z")
			eq(t, "reloader resources", o.Workload.ConfigReloaderResources, corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("80Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("100Mi")},
			})
		}},
		{"kubelet", []string{"--kubelet-service=kube-system/kubelet", "--kubelet-selector=kubernetes.io/os=linux", "--kubelet-node-address-priority=external", "--kubelet-endpoints=false", "--kubelet-endpointslice", "--kubelet-sync-period=30s", "--kubelet-http-metrics=false"}, func(t *testing.T, o operator.Options) {
			eq(t, "kubelet-service", o.Kubelet.Service, types.NamespacedName{Namespace: "kube-system", Name: "kubelet"})
			matches(t, "kubelet-selector", o.Kubelet.Selector, labels.Set{"kubernetes.io/os": "linux"}, true)
			matches(t, "kubelet-selector", o.Kubelet.Selector, labels.Set{"kubernetes.io/os": "windows"}, false)
			eq(t, "kubelet-node-address-priority", o.Kubelet.NodeAddressPriority, "external")
			eq(t, "kubelet-endpoints", o.Kubelet.Endpoints, false)
			eq(t, "kubelet-endpointslice", o.Kubelet.EndpointSlice, true)
			eq(t, "kubelet-sync-period", o.Kubelet.SyncPeriod, 30*time.Second)
			eq(t, "kubelet-http-metrics", o.Kubelet.HTTPMetrics, false)
		}},
		{"labels and annotations", []string{"--labels=team=platform,app.kubernetes.io/part-of=monitoring", "--labels=extra=", "--annotations=example.com/owner=Jane Doe,note=a=b"}, func(t *testing.T, o operator.Options) {
			eq(t, "labels", o.Labels, map[string]string{"team": "platform", "app.kubernetes.io/part-of": "monitoring", "extra": ""})
			eq(t, "annotations", o.Annotations, map[string]string{"example.com/owner": "Jane Doe", "note": "a=b"})
		}},
		{"web TLS", []string{"--web.listen-address=:10250", "--web.enable-tls=true", "--web.cert-file=/cert/cert", "--web.key-file=/cert/key", "--web.client-ca-file=/cert/ca", "--web.tls-min-version=VersionTLS12", "--web.tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "--web.tls-curves=X25519,CurveP256", "--web.tls-reload-interval=10s", "--web.enable-http2"}, func(t *testing.T, o operator.Options) {
			eq(t, "web.listen-address", o.MetricsAddr, ":10250")
			eq(t, "web TLS", o.Web, operator.WebOptions{
				TLS: true, CertFile: "/cert/cert", KeyFile: "/cert/key", ClientCAFile: "/cert/ca",
				MinVersion:     tls.VersionTLS12,
				CipherSuites:   []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384},
				Curves:         []tls.CurveID{tls.X25519, tls.CurveP256},
				Pprof:          true,
				ReloadInterval: 10 * time.Second, HTTP2: true,
			})
		}},
		{"metrics-bind-address is web.listen-address", []string{"--metrics-bind-address=127.0.0.1:9000"}, func(t *testing.T, o operator.Options) {
			eq(t, "metrics-bind-address", o.MetricsAddr, "127.0.0.1:9000")
		}},
		{"client", []string{"--apiserver=https://10.0.0.1:6443", "--cert-file=/c", "--key-file=/k", "--ca-file=/ca", "--tls-insecure", "--as=system:serviceaccount:monitoring:prometheus-operator", "--kube-api-qps=50", "--kube-api-burst=60"}, func(t *testing.T, o operator.Options) {
			eq(t, "client", o.Client, operator.ClientOptions{APIServer: "https://10.0.0.1:6443", CertFile: "/c", KeyFile: "/k", CAFile: "/ca", Insecure: true, Impersonate: "system:serviceaccount:monitoring:prometheus-operator", QPS: 50, Burst: 60})
		}},
		{"feature gates", []string{"--feature-gates=PrometheusAgentDaemonSet=true, StatusForConfigurationResources=false", "--feature-gates=PrometheusTopologySharding=false"}, func(t *testing.T, o operator.Options) {
			eq(t, "feature-gates", o.FeatureGates.String(), "PrometheusAgentDaemonSet=true,PrometheusShardRetentionPolicy=true,PrometheusTopologySharding=false,RemoteWriteCustomResourceDefinition=false,StatusForConfigurationResources=false")
			eq(t, "resource status follows StatusForConfigurationResources", o.ResourceStatus, false)
		}},
		{"--resource-status wins over the feature gate", []string{"--feature-gates=StatusForConfigurationResources=false", "--resource-status=true"}, func(t *testing.T, o operator.Options) {
			eq(t, "resource-status", o.ResourceStatus, true)
		}},
		{"logging", []string{"--log-level=DEBUG", "--log-format=json"}, func(t *testing.T, o operator.Options) {
			eq(t, "log", o.Log, operator.LogOptions{Level: "debug", Format: "json"})
		}},
		{"the rest", []string{"--controller-id=blue", "--cluster-domain=cluster.local", "--localhost=127.0.0.1", "--repair-policy-for-statefulsets=evict", "--disable-unmanaged-prometheus-configuration", "--auto-gomemlimit-ratio=0.8", "--leader-elect=true"}, func(t *testing.T, o operator.Options) {
			eq(t, "controller-id", o.ControllerID, "blue")
			eq(t, "cluster-domain", o.ClusterDomain, "cluster.local")
			eq(t, "cluster-domain reaches the Alertmanager peers", o.Workload.ClusterDomain, "cluster.local")
			eq(t, "localhost", o.LocalHost, "127.0.0.1")
			eq(t, "repair-policy-for-statefulsets", o.RepairPolicy, operator.RepairEvict)
			eq(t, "disable-unmanaged-prometheus-configuration", o.DisableUnmanagedPrometheusConfiguration, true)
			eq(t, "auto-gomemlimit-ratio", o.GoMemLimitRatio, 0.8)
			eq(t, "an explicit --leader-elect is required", o.LeaderElectionOptional, false)
		}},
	}
	for _, c := range cases {
		t.Run(c.group, func(t *testing.T) { c.check(t, parse(t, c.args...).Options) })
	}
}

// TestArgumentForms: prometheus-operator's flag package takes -flag and --flag, with the
// value after = or as the next argument (booleans only with =).
func TestArgumentForms(t *testing.T) {
	forms := [][]string{
		{"--kubelet-service=kube-system/kubelet", "--namespaces=a,b", "--web.enable-tls=false", "--prometheus-instance-selector=x=y"},
		{"--kubelet-service", "kube-system/kubelet", "--namespaces", "a,b", "--web.enable-tls=false", "--prometheus-instance-selector", "x=y"},
		{"-kubelet-service=kube-system/kubelet", "-namespaces=a,b", "-web.enable-tls=false", "-prometheus-instance-selector=x=y"},
		{"-kubelet-service", "kube-system/kubelet", "-namespaces", "a,b", "-web.enable-tls=false", "-prometheus-instance-selector", "x=y", "start"},
	}
	for _, args := range forms {
		o := parse(t, args...).Options
		if o.Kubelet.Service.String() != "kube-system/kubelet" || strings.Join(o.Namespaces, ",") != "a,b" || o.Web.TLS || !o.PrometheusInstanceSelector.Matches(labels.Set{"x": "y"}) {
			t.Errorf("%q parsed to kubelet %v, namespaces %v, tls %v, selector %v", args, o.Kubelet.Service, o.Namespaces, o.Web.TLS, o.PrometheusInstanceSelector)
		}
	}
}

func TestDeploymentArguments(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		notApplied []string
	}{
		{"kube-prometheus", kubePrometheusArgs, nil},
		{"kube-prometheus-stack chart", helmArgs, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, c.args...)
			eq(t, "not applied", p.NotApplied(), c.notApplied)
			eq(t, "reloader image", p.Options.Workload.ConfigReloaderImage, "quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1")
		})
	}
	o := parse(t, helmArgs...).Options
	eq(t, "chart: no reloader resources", o.Workload.ConfigReloaderResources, corev1.ResourceRequirements{})
	eq(t, "chart: web TLS", o.Web.TLS && o.Web.CertFile == "/cert/cert" && o.MetricsAddr == ":10250" && o.Web.MinVersion == tls.VersionTLS13, true)
}

func TestNotApplied(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--controller-id=x", "--labels=a=b", "--annotations=c=d", "--cluster-domain=x", "--repair-policy-for-statefulsets=delete", "--alertmanager-instance-selector=a=b", "--kubelet-sync-period=1m", "--enable-config-reloader-probes"}, nil},
		{[]string{"--alertmanager-instance-namespaces=a", "--alertmanager-config-namespaces=b", "--alertmanager-default-base-image=x", "--thanos-ruler-instance-selector=a=b",
			"--thanos-ruler-instance-namespaces=c", "--thanos-default-base-image=y"}, nil},
		{[]string{"--feature-gates=RemoteWriteCustomResourceDefinition=false,StatusForConfigurationResources=true"}, []string{"--feature-gates (RemoteWriteCustomResourceDefinition=false)"}},
		// The Prometheus controllers act on PrometheusTopologySharding (spec.shardingStrategy.mode Topology).
		{[]string{"--feature-gates=PrometheusTopologySharding=false"}, nil},
		{[]string{"--feature-gates=StatusForConfigurationResources=true"}, nil},
		// The agent controller acts on PrometheusAgentDaemonSet (spec.mode DaemonSet).
		{[]string{"--feature-gates=PrometheusAgentDaemonSet=true,PrometheusShardRetentionPolicy=false"}, nil},
		{[]string{"--feature-gates=PrometheusAgentDaemonSet=true,RemoteWriteCustomResourceDefinition=true"}, []string{"--feature-gates (RemoteWriteCustomResourceDefinition=true)"}},
		{[]string{"--watch-referenced-objects-in-all-namespaces=false", "--disable-unmanaged-prometheus-configuration=false"}, []string{
			"--watch-referenced-objects-in-all-namespaces=false (Lookout always watches the referenced Secrets and ConfigMaps)"}},
		{[]string{"--web.cert-file=/x"}, []string{"--web.cert-file (--web.enable-tls is off)"}},
		{[]string{"--cert-file=/x", "--apiserver=http://127.0.0.1:8080"}, []string{"--cert-file (only used with an https --apiserver and no kubeconfig)"}},
		{[]string{"--cert-file=/x", "--apiserver=https://127.0.0.1:6443"}, nil},
		{[]string{"--namespaces=a", "--prometheus-instance-namespaces=b", "--web.enable-tls", "--web.cert-file=/x", "--web.key-file=/y"}, nil},
	}
	for _, c := range cases {
		eq(t, strings.Join(c.args, " "), parse(t, c.args...).NotApplied(), c.want)
	}
}

// TestNotAppliedLogLine: the flags Lookout does not act on are logged once, in one line.
func TestNotAppliedLogLine(t *testing.T) {
	var buf bytes.Buffer
	log, err := newLogger(&buf, "info", "json")
	if err != nil {
		t.Fatal(err)
	}
	reportNotApplied(log, parse(t, append(kubePrometheusArgs, "--alertmanager-instance-selector=a=b", "--cluster-domain=x", "--thanos-ruler-instance-selector=a=b", "--thanos-default-base-image=y",
		"--feature-gates=RemoteWriteCustomResourceDefinition=false")...))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one log line, got %d:\n%s", len(lines), buf.String())
	}
	var entry struct {
		Level string   `json:"level"`
		Msg   string   `json:"msg"`
		Flags []string `json:"flags"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &entry); err != nil {
		t.Fatalf("%v: %s", err, lines[0])
	}
	eq(t, "level", entry.Level, "INFO")
	eq(t, "message", entry.Msg, "accepted flags Lookout does not act on yet")
	eq(t, "flags", entry.Flags, []string{"--feature-gates (RemoteWriteCustomResourceDefinition=false)"})

	buf.Reset()
	reportNotApplied(log, parse(t, "--namespaces=a"))
	if buf.Len() != 0 {
		t.Errorf("nothing to report, but logged: %s", buf.String())
	}
}

func TestBadValues(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"--namespaces=a", "--deny-namespaces=b"}, "mutually exclusive"},
		{[]string{"--prometheus-instance-selector=a=b=c"}, `invalid value "a=b=c" for flag -prometheus-instance-selector`},
		{[]string{"--secret-field-selector=type"}, "-secret-field-selector"},
		{[]string{"--kubelet-service=kubelet"}, `--kubelet-service: "kubelet" is not namespace/name`},
		{[]string{"--kubelet-selector=a b"}, "--kubelet-selector"},
		{[]string{"--kubelet-node-address-priority=both"}, "must be one of internal, external"},
		{[]string{"--kubelet-sync-period=soon"}, "-kubelet-sync-period"},
		{[]string{"--repair-policy-for-statefulsets=reboot"}, "must be one of none, evict, delete"},
		{[]string{"--feature-gates=NoSuchGate=true"}, `feature gate "NoSuchGate" is unknown`},
		{[]string{"--feature-gates=PrometheusAgentDaemonSet"}, "expect name=bool"},
		{[]string{"--feature-gates=PrometheusAgentDaemonSet=maybe"}, "invalid value of PrometheusAgentDaemonSet"},
		{[]string{"--labels=team"}, `invalid key=value pair: "team"`},
		{[]string{"--labels=team=a b"}, "invalid label value"},
		{[]string{"--annotations=bad key=x"}, `invalid key "bad key"`},
		{[]string{"--config-reloader-cpu-limit=lots"}, "-config-reloader-cpu-limit"},
		{[]string{"--web.enable-tls", "--web.tls-min-version=VersionTLS11"}, "isn't supported"},
		{[]string{"--web.enable-tls", "--web.tls-min-version=TLS13"}, "unknown TLS version"},
		{[]string{"--web.enable-tls", "--web.tls-cipher-suites=TLS_NOPE"}, "unknown TLS cipher suite"},
		{[]string{"--web.enable-tls", "--web.tls-curves=P256"}, "not a supported curve"},
		{[]string{"--web.enable-tls", "--web.cert-file=/x", "--web.key-file="}, "go together"},
		{[]string{"--log-level=loud"}, "unknown level"},
		{[]string{"--log-format=xml"}, "unknown format"},
		{[]string{"--reloader-watch-api", "--prometheus-config-reloader=quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1"}, "needs Lookout's config-reloader"},
		{[]string{"--max-concurrent-reconciles=0"}, "at least 1"},
		{[]string{"--target-health-interval=-1s"}, "--target-health-interval must not be negative"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		_, code, done := parseRun(c.args, &stdout, &stderr)
		if !done || code != 2 {
			t.Errorf("%q: done=%v code=%d, want exit 2", c.args, done, code)
			continue
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: stderr %q does not say %q", c.args, stderr.String(), c.want)
		}
		if strings.Count(stderr.String(), "\n") > 4 {
			t.Errorf("%q: the error should be short, got:\n%s", c.args, stderr.String())
		}
	}
	// Like prometheus-operator, TLS settings are only checked when TLS is on.
	parse(t, "--web.tls-min-version=VersionTLS10")
}

func TestCommands(t *testing.T) {
	run := func(args ...string) (string, string, int, bool) {
		var stdout, stderr bytes.Buffer
		_, code, done := parseRun(args, &stdout, &stderr)
		return stdout.String(), stderr.String(), code, done
	}
	if out, _, code, done := run("--kubelet-service=kube-system/kubelet", "crds"); !done || code != 0 || !strings.Contains(out, "kind: CustomResourceDefinition") {
		t.Errorf("flags then crds: code %d, done %v, output %.80q", code, done, out)
	}
	if _, _, code, done := run("--namespaces=a", "full-crds"); !done || code != 0 {
		t.Errorf("full-crds: code %d", code)
	}
	if _, _, _, done := run("--namespaces=a", "start"); done {
		t.Error("start after the flags should run the operator")
	}
	if _, errOut, code, _ := run("--namespaces=a", "explode"); code != 2 || !strings.Contains(errOut, `unknown command "explode"`) {
		t.Errorf("unknown command: code %d, %q", code, errOut)
	}
	if _, errOut, code, _ := run("start", "extra"); code != 2 || !strings.Contains(errOut, "unexpected arguments") {
		t.Errorf("extra arguments: code %d, %q", code, errOut)
	}
	if out, _, code, _ := run("--version"); code != 0 || !strings.HasPrefix(out, "lookout-operator, version ") {
		t.Errorf("--version: %d %q", code, out)
	}
	if out, _, code, _ := run("--short-version"); code != 0 || out != version+"\n" {
		t.Errorf("--short-version: %d %q", code, out)
	}
	_, help, code, done := run("--help")
	if !done || code != 0 {
		t.Errorf("--help: done %v code %d", done, code)
	}
	for _, want := range []string{"commands:", "render", "crds", "-kubelet-service", "-web.listen-address", "-leader-elect"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not list %q", want)
		}
	}
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %#v, want %#v", what, got, want)
	}
}

func matches(t *testing.T, what string, sel labels.Selector, set labels.Set, want bool) {
	t.Helper()
	if sel.Matches(set) != want {
		t.Errorf("%s %q matching %v: %v, want %v", what, sel, set, !want, want)
	}
}

// TestFlagsDocumented: Documentation/operator.md has a row for every flag.
func TestFlagsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../Documentation/operator.md")
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := operator.NewFlagSet("test", &bytes.Buffer{})
	fs.VisitAll(func(f *flag.Flag) {
		if !bytes.Contains(doc, []byte("`--"+f.Name+"`")) {
			t.Errorf("--%s is not in Documentation/operator.md", f.Name)
		}
	})
}

// TestHelpSaysWhatIsApplied: no flag's help calls it accepted but not applied; the flags
// Lookout does not act on are listed by NotApplied and logged, not described in the help
// (issue 33: --labels, --annotations and --kubelet-* said so after they were applied).
func TestHelpSaysWhatIsApplied(t *testing.T) {
	fs, _ := operator.NewFlagSet("lookout-operator", io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		for _, stale := range []string{"not applied", "(accepted", "not acted on"} {
			if strings.Contains(f.Usage, stale) {
				t.Errorf("--%s: help %q says %q", f.Name, f.Usage, stale)
			}
		}
	})
}

// TestDefaultVersionsFlag: by default objects without a version run prometheus-operator
// v0.93's versions; --default-versions=lookout selects Lookout's (issue 33).
func TestDefaultVersionsFlag(t *testing.T) {
	eq(t, "default", parse(t).Options.DefaultVersions, versions.SetUpstream)
	eq(t, "lookout", parse(t, "--default-versions=lookout").Options.DefaultVersions, versions.SetLookout)
	if _, err := operator.ParseArgs([]string{"--default-versions=newest"}, io.Discard); err == nil || !strings.Contains(err.Error(), "must be one of upstream, lookout") {
		t.Errorf("--default-versions=newest: %v", err)
	}
}
