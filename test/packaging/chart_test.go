package packaging

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"flag"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/operator"
)

const (
	chartDir    = "charts/lookout"
	releaseName = "lookout"
	releaseNS   = "lookout"
)

// flagValue ties an operator flag to the chart value(s) that set it: set is a value for
// each path, and want the argument the chart must then render.
type flagValue struct {
	set  map[string]any
	want string
}

// flagValues has an entry for every operator flag (pkg/operator/flags.go) but the ones
// in notValues. TestChartHasAValuePerFlag fails when a flag is added without a value.
var flagValues = map[string]flagValue{
	"metrics-bind-address":             {map[string]any{"web.port": 9090}, ":9090"},
	"web.enable-tls":                   {map[string]any{"tls.enabled": true}, "true"},
	"web.enable-pprof":                 {map[string]any{"web.enablePprof": false}, "false"},
	"default-versions":                 {map[string]any{"defaultVersions": "lookout"}, "lookout"},
	"web.cert-file":                    {map[string]any{"tls.certFile": "/c/tls.crt"}, "/c/tls.crt"},
	"web.key-file":                     {map[string]any{"tls.keyFile": "/c/tls.key"}, "/c/tls.key"},
	"web.client-ca-file":               {map[string]any{"tls.clientCAFile": "/c/ca.crt"}, "/c/ca.crt"},
	"web.tls-reload-interval":          {map[string]any{"tls.reloadInterval": "30s"}, "30s"},
	"web.tls-min-version":              {map[string]any{"tls.tlsMinVersion": "VersionTLS12"}, "VersionTLS12"},
	"web.tls-cipher-suites":            {map[string]any{"tls.cipherSuites": []any{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"}}, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"},
	"web.tls-curves":                   {map[string]any{"tls.curves": []any{"X25519", "CurveP256"}}, "X25519,CurveP256"},
	"web.enable-http2":                 {map[string]any{"tls.enableHTTP2": true}, "true"},
	"kubeconfig":                       {map[string]any{"apiServer.kubeconfig": "/k/config"}, "/k/config"},
	"apiserver":                        {map[string]any{"apiServer.url": "https://10.0.0.1:6443"}, "https://10.0.0.1:6443"},
	"cert-file":                        {map[string]any{"apiServer.certFile": "/k/c.crt"}, "/k/c.crt"},
	"key-file":                         {map[string]any{"apiServer.keyFile": "/k/c.key"}, "/k/c.key"},
	"ca-file":                          {map[string]any{"apiServer.caFile": "/k/ca.crt"}, "/k/ca.crt"},
	"tls-insecure":                     {map[string]any{"apiServer.tlsInsecure": true}, "true"},
	"as":                               {map[string]any{"apiServer.impersonate": "system:serviceaccount:x:y"}, "system:serviceaccount:x:y"},
	"kube-api-qps":                     {map[string]any{"kubeAPIQPS": 12.5}, "12.5"},
	"kube-api-burst":                   {map[string]any{"kubeAPIBurst": 40}, "40"},
	"namespaces":                       {map[string]any{"namespaces.releaseNamespace": true, "namespaces.additional": []any{"a", "b"}}, releaseNS + ",a,b"},
	"deny-namespaces":                  {map[string]any{"denyNamespaces": []any{"kube-system", "x"}}, "kube-system,x"},
	"prometheus-instance-namespaces":   {map[string]any{"prometheusInstanceNamespaces": []any{"p1"}}, "p1"},
	"alertmanager-instance-namespaces": {map[string]any{"alertmanagerInstanceNamespaces": []any{"am1"}}, "am1"},
	"alertmanager-config-namespaces":   {map[string]any{"alertmanagerConfigNamespaces": []any{"amc1"}}, "amc1"},
	"thanos-ruler-instance-namespaces": {map[string]any{"thanosRulerInstanceNamespaces": []any{"tr1"}}, "tr1"},
	"watch-referenced-objects-in-all-namespaces": {map[string]any{"watchReferencedObjectsInAllNamespaces": true}, "true"},
	"prometheus-instance-selector":               {map[string]any{"prometheusInstanceSelector": "team=a"}, "team=a"},
	"alertmanager-instance-selector":             {map[string]any{"alertmanagerInstanceSelector": "team=b"}, "team=b"},
	"thanos-ruler-instance-selector":             {map[string]any{"thanosRulerInstanceSelector": "team=c"}, "team=c"},
	"secret-field-selector":                      {map[string]any{"secretFieldSelector": "type!=kubernetes.io/dockercfg"}, "type!=kubernetes.io/dockercfg"},
	"secret-label-selector":                      {map[string]any{"secretLabelSelector": "owner!=helm"}, "owner!=helm"},
	"configmap-field-selector":                   {map[string]any{"configMapFieldSelector": "metadata.name!=x"}, "metadata.name!=x"},
	"configmap-label-selector":                   {map[string]any{"configMapLabelSelector": "a=b"}, "a=b"},
	"controller-id":                              {map[string]any{"controllerID": "lookout-1"}, "lookout-1"},
	"disable-unmanaged-prometheus-configuration": {map[string]any{"disableUnmanagedPrometheusConfiguration": true}, "true"},
	"feature-gates":                              {map[string]any{"featureGates": map[string]any{"StatusForConfigurationResources": false, "PrometheusShardRetentionPolicy": true}}, "PrometheusShardRetentionPolicy=true,StatusForConfigurationResources=false"},
	"prometheus-default-base-image":              {map[string]any{"prometheusDefaultBaseImage": "mirror.example/prometheus"}, "mirror.example/prometheus"},
	"alertmanager-default-base-image":            {map[string]any{"alertmanagerDefaultBaseImage": "mirror.example/alertmanager"}, "mirror.example/alertmanager"},
	"thanos-default-base-image":                  {map[string]any{"thanosDefaultBaseImage": "mirror.example/thanos"}, "mirror.example/thanos"},
	"config-reloader-image":                      {map[string]any{"prometheusConfigReloader.image.registry": "mirror.example", "prometheusConfigReloader.image.repository": "r/reloader", "prometheusConfigReloader.image.tag": "v9.9.9", "prometheusConfigReloader.image.sha": ""}, "mirror.example/r/reloader:v9.9.9"},
	"config-reloader-cpu-request":                {map[string]any{"prometheusConfigReloader.resources.requests.cpu": "20m"}, "20m"},
	"config-reloader-cpu-limit":                  {map[string]any{"prometheusConfigReloader.resources.limits.cpu": "100m"}, "100m"},
	"config-reloader-memory-request":             {map[string]any{"prometheusConfigReloader.resources.requests.memory": "40Mi"}, "40Mi"},
	"config-reloader-memory-limit":               {map[string]any{"prometheusConfigReloader.resources.limits.memory": "80Mi"}, "80Mi"},
	"config-reloader-memory":                     {map[string]any{"prometheusConfigReloader.memory": "60Mi"}, "60Mi"},
	"enable-config-reloader-probes":              {map[string]any{"prometheusConfigReloader.enableProbe": true}, "true"},
	"config-reloader-watch-interval":             {map[string]any{"prometheusConfigReloader.watchInterval": "1m"}, "1m"},
	"reloader-watch-api":                         {map[string]any{"prometheusConfigReloader.watchAPI": true}, "true"},
	"reloader-report-config":                     {map[string]any{"prometheusConfigReloader.reportConfig": true}, "true"},
	"labels":                                     {map[string]any{"managedObjectLabels": map[string]any{"team": "a", "env": "prod"}}, "env=prod,team=a"},
	"annotations":                                {map[string]any{"managedObjectAnnotations": map[string]any{"note": "x"}}, "note=x"},
	"cluster-domain":                             {map[string]any{"clusterDomain": "cluster.example"}, "cluster.example"},
	"localhost":                                  {map[string]any{"localhost": "127.0.0.1"}, "127.0.0.1"},
	"repair-policy-for-statefulsets":             {map[string]any{"repairPolicyForStatefulSets": "evict"}, "evict"},
	"kubelet-service":                            {map[string]any{"kubeletService.enabled": true, "kubeletService.namespace": "kube-system", "kubeletService.name": "kubelet"}, "kube-system/kubelet"},
	"kubelet-selector":                           {map[string]any{"kubeletService.selector": "role=worker"}, "role=worker"},
	"kubelet-node-address-priority":              {map[string]any{"kubeletService.nodeAddressPriority": "external"}, "external"},
	"kubelet-sync-period":                        {map[string]any{"kubeletService.syncPeriod": "1m"}, "1m"},
	"kubelet-http-metrics":                       {map[string]any{"kubeletService.httpMetrics": false}, "false"},
	"kubelet-endpoints":                          {map[string]any{"kubeletEndpointsEnabled": false}, "false"},
	"kubelet-endpointslice":                      {map[string]any{"kubeletEndpointSliceEnabled": true}, "true"},
	"log-level":                                  {map[string]any{"logLevel": "debug"}, "debug"},
	"log-format":                                 {map[string]any{"logFormat": "logfmt"}, "logfmt"},
	"auto-gomemlimit-ratio":                      {map[string]any{"autoGomemlimitRatio": 0.8}, "0.8"},
	"leader-elect":                               {map[string]any{"leaderElection.enabled": false}, "false"},
	"leader-election-namespace":                  {map[string]any{"leaderElection.namespace": "elections"}, "elections"},
	"leader-election-id":                         {map[string]any{"leaderElection.id": "lk"}, "lk"},
	"leader-election-lease-duration":             {map[string]any{"leaderElection.leaseDuration": "20s"}, "20s"},
	"leader-election-renew-deadline":             {map[string]any{"leaderElection.renewDeadline": "15s"}, "15s"},
	"leader-election-retry-period":               {map[string]any{"leaderElection.retryPeriod": "2s"}, "2s"},
	"health-probe-bind-address":                  {map[string]any{"healthProbePort": 9091}, ":9091"},
	"pprof-bind-address":                         {map[string]any{"pprofBindAddress": ":6060"}, ":6060"},
	"install-crds":                               {map[string]any{"crds.upgrade": true}, "true"},
	"max-concurrent-reconciles":                  {map[string]any{"maxConcurrentReconciles": 4}, "4"},
	"resource-status":                            {map[string]any{"resourceStatus": false}, "false"},
	"status-api-qps":                             {map[string]any{"statusAPIQPS": 500}, "500"},
	"status-workers":                             {map[string]any{"statusWorkers": 16}, "16"},
	"max-namespace-config-bytes":                 {map[string]any{"maxNamespaceConfigBytes": 1048576}, "1048576"},
	"target-health-interval":                     {map[string]any{"targetHealthInterval": "30s"}, "30s"},
	"monitor-cost":                               {map[string]any{"monitorCost": false}, "false"},
	"graceful-shutdown-timeout":                  {map[string]any{"gracefulShutdownTimeout": "45s"}, "45s"},
	"webhook-port":                               {map[string]any{"admissionWebhooks.enabled": true, "admissionWebhooks.port": 9444}, "9444"},
	"webhook-cert-dir":                           {map[string]any{"admissionWebhooks.certDir": "/w"}, "/w"},
	"webhook-self-signed":                        {map[string]any{"admissionWebhooks.operatorSelfSigned": true}, "true"},
	"webhook-dns-names":                          {map[string]any{"admissionWebhooks.dnsNames": []any{"a.svc", "b.svc"}}, "a.svc,b.svc"},
}

// aliases are second names of one flag: the chart passes the first name only.
var aliases = map[string]string{
	"web.listen-address":         "metrics-bind-address",
	"prometheus-config-reloader": "config-reloader-image",
}

// notValues are the flags without a chart value: they print and exit.
var notValues = map[string]string{
	"version":       "prints the version and exits",
	"short-version": "prints the version and exits",
}

// deploymentValues are the values that are not operator flags (prefixes of value paths):
// how the chart lays out the objects around the operator.
var deploymentValues = []string{
	"nameOverride", "fullnameOverride", "namespaceOverride", "image", "imagePullSecrets", "replicas",
	"revisionHistoryLimit", "strategy", "podAnnotations", "podLabels", "labels", "annotations",
	"priorityClassName", "nodeSelector", "tolerations", "affinity", "podAntiAffinity",
	"podAntiAffinityTopologyKey", "topologySpreadConstraints", "dnsConfig", "hostNetwork",
	"terminationGracePeriodSeconds", "env", "extraArgs", "extraVolumes", "extraVolumeMounts", "resources",
	"securityContext", "containerSecurityContext", "livenessProbe", "readinessProbe", "podDisruptionBudget",
	"serviceAccount", "rbac", "service", "serviceMonitor",
	"admissionWebhooks.failurePolicy", "admissionWebhooks.timeoutSeconds", "admissionWebhooks.namespaceSelector",
	"admissionWebhooks.mutatingWebhook", "admissionWebhooks.certManager", "admissionWebhooks.selfSigned",
}

// operatorFlags returns the names of the operator's flags.
func operatorFlags(t *testing.T) []string {
	t.Helper()
	fs, _ := operator.NewFlagSet("lookout-operator", io.Discard)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) < 50 {
		t.Fatalf("only %d operator flags", len(names))
	}
	return names
}

// setPath sets a dotted path in nested maps.
func setPath(m map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = v
}

// leaves lists the dotted paths of the leaves of values: scalars, lists and empty maps.
func leaves(prefix string, v any, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		*out = append(*out, prefix)
		return
	}
	for k, x := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		leaves(p, x, out)
	}
}

func defaultValues(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// valuesFile writes values as a YAML file and returns its path.
func valuesFile(t *testing.T, values map[string]any) string {
	t.Helper()
	data, err := yaml.Marshal(values)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "values.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// template renders the chart with the values (nil: the defaults).
func template(t *testing.T, values map[string]any, extra ...string) []manifest.Object {
	t.Helper()
	args := []string{"template", releaseName, chartDir, "--namespace", releaseNS}
	if values != nil {
		args = append(args, "-f", valuesFile(t, values))
	}
	out := mustRun(t, "helm", append(args, extra...)...)
	return decode(t, out, "helm template")
}

// allFlagValues sets every value of flagValues.
func allFlagValues() map[string]any {
	v := map[string]any{}
	for _, fv := range flagValues {
		for p, x := range fv.set {
			setPath(v, p, x)
		}
	}
	return v
}

// featureValues turns every optional feature on (with the certificate from cert-manager
// or, certManager false, generated by the chart).
func featureValues(certManager bool) map[string]any {
	v := map[string]any{}
	for p, x := range map[string]any{
		"crds.upgrade":                                  true,
		"prometheusConfigReloader.watchAPI":             true,
		"prometheusConfigReloader.reportConfig":         true,
		"kubeletService.enabled":                        true,
		"repairPolicyForStatefulSets":                   "delete",
		"admissionWebhooks.enabled":                     true,
		"admissionWebhooks.mutatingWebhook.enabled":     true,
		"admissionWebhooks.failurePolicy":               "Fail",
		"admissionWebhooks.certManager.enabled":         certManager,
		"admissionWebhooks.selfSigned.enabled":          !certManager,
		"tls.enabled":                                   true,
		"tls.certFile":                                  "/etc/lookout/web/tls.crt",
		"tls.keyFile":                                   "/etc/lookout/web/tls.key",
		"priorityClassName":                             "system-cluster-critical",
		"nodeSelector":                                  map[string]any{"kubernetes.io/os": "linux"},
		"tolerations":                                   []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "monitoring", "effect": "NoSchedule"}},
		"podAntiAffinity":                               "hard",
		"podDisruptionBudget.maxUnavailable":            1,
		"hostNetwork":                                   true,
		"env":                                           map[string]any{"GOMAXPROCS": 2},
		"namespaces.releaseNamespace":                   true,
		"namespaces.additional":                         []any{"team-a"},
		"serviceMonitor.relabelings":                    []any{map[string]any{"targetLabel": "job", "replacement": "lookout"}},
		"imagePullSecrets":                              []any{map[string]any{"name": "registry"}},
		"image.sha":                                     strings.Repeat("ab", 32),
		"prometheusConfigReloader.image.sha":            strings.Repeat("cd", 32),
		"extraArgs":                                     []any{"--log-level=debug"},
		"prometheusConfigReloader.resources.limits.cpu": "100m",
	} {
		setPath(v, p, x)
	}
	return v
}

// operatorArgs returns the operator container's arguments of a render.
func operatorArgs(t *testing.T, objs []manifest.Object) []string {
	t.Helper()
	for _, o := range objs {
		if o.GetKind() != "Deployment" {
			continue
		}
		cs := o.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
		var args []string
		for _, a := range cs[0].(map[string]any)["args"].([]any) {
			args = append(args, a.(string))
		}
		return args
	}
	t.Fatal("no Deployment rendered")
	return nil
}

// TestChartHasAValuePerFlag: every operator flag has a value in values.yaml and every
// value is a flag or one of the Deployment settings; with each value set, the chart
// renders exactly the flag it stands for, once, with that value.
func TestChartHasAValuePerFlag(t *testing.T) {
	flags := operatorFlags(t)
	for _, f := range flags {
		_, isValue := flagValues[f]
		_, isAlias := aliases[f]
		_, skip := notValues[f]
		if !isValue && !isAlias && !skip {
			t.Errorf("operator flag --%s has no chart value: add one to %s/values.yaml, the args in templates/_helpers.tpl, values.schema.json and flagValues here", f, chartDir)
		}
	}
	for f := range flagValues {
		if !slices.Contains(flags, f) {
			t.Errorf("flagValues names --%s, which the operator does not have", f)
		}
	}

	// Every value path of the table exists in values.yaml, and every leaf of values.yaml
	// is a flag's value or a Deployment setting.
	defaults := defaultValues(t)
	var paths []string
	leaves("", defaults, &paths)
	flagPaths := map[string]bool{}
	for _, fv := range flagValues {
		for p := range fv.set {
			flagPaths[p] = true
		}
	}
	for p := range flagPaths {
		if !slices.Contains(paths, p) {
			t.Errorf("value %s (a flag's) is not in values.yaml", p)
		}
	}
	for _, p := range paths {
		if flagPaths[p] {
			continue
		}
		known := false
		for _, d := range deploymentValues {
			if p == d || strings.HasPrefix(p, d+".") {
				known = true
			}
		}
		if !known {
			t.Errorf("value %s is neither an operator flag's (flagValues) nor a Deployment setting (deploymentValues)", p)
		}
	}

	// Rendered with every value set: each flag once, with the value.
	args := operatorArgs(t, template(t, allFlagValues()))
	if args[0] != "run" {
		t.Errorf("first argument %q, want run", args[0])
	}
	seen := map[string]int{}
	for _, a := range args[1:] {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		seen[name]++
		if _, ok := flagValues[name]; !ok {
			t.Errorf("rendered argument %q is not a flag of flagValues", a)
		}
	}
	for f, fv := range flagValues {
		want := "--" + f + "=" + fv.want
		if !slices.Contains(args, want) {
			t.Errorf("with %v the chart does not render %q", fv.set, want)
		}
		if seen[f] != 1 {
			t.Errorf("--%s rendered %d times", f, seen[f])
		}
	}
}

// TestChartArgsParse: the arguments rendered from the defaults and with every feature on
// are accepted by the operator's own flag parsing.
func TestChartArgsParse(t *testing.T) {
	for name, values := range map[string]map[string]any{"defaults": nil, "features": featureValues(true)} {
		args := operatorArgs(t, template(t, values))
		var errs bytes.Buffer
		// The binary takes the run command off before parsing the flags.
		p, err := operator.ParseArgs(args[1:], &errs)
		if err != nil {
			t.Errorf("%s: %v: %s\nargs %q", name, err, errs.String(), args)
			continue
		}
		if args[0] != "run" || p.Command != "" {
			t.Errorf("%s: command %q, then %q", name, args[0], p.Command)
		}
		if name == "defaults" && (!p.Options.LeaderElection || p.Options.Log.Format != "json" || p.Options.MetricsAddr != ":8080" || p.Options.ProbeAddr != ":8081" ||
			p.Options.Workload.ConfigReloaderImage != "ghcr.io/lookout-operator/config-reloader:v"+chartAppVersion(t)) {
			t.Errorf("defaults: unexpected options from %q", args)
		}
	}
}

func chartAppVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), chartDir, "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Version    string `json:"version"`
		AppVersion string `json:"appVersion"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if c.Version == "" || c.AppVersion == "" {
		t.Fatalf("Chart.yaml: version %q appVersion %q", c.Version, c.AppVersion)
	}
	return c.AppVersion
}

// TestChartLint runs helm lint --strict with the defaults and with every feature on.
func TestChartLint(t *testing.T) {
	mustRun(t, "helm", "lint", "--strict", chartDir)
	mustRun(t, "helm", "lint", "--strict", chartDir, "-f", valuesFile(t, featureValues(true)))
}

// TestChartDryRun renders the chart (with its CRDs) with the defaults, with every
// optional feature on (cert-manager, then the chart's own certificate) and with every
// flag's value set, and has the API server dry-run each object.
func TestChartDryRun(t *testing.T) {
	// The subtest names become temporary paths, which helm -f would split at commas.
	for name, values := range map[string]map[string]any{
		"defaults":              nil,
		"features-cert-manager": featureValues(true),
		"features-self-signed":  featureValues(false),
		"every-flag":            allFlagValues(),
		"rbac-namespaced":       namespacedValues(),
	} {
		t.Run(name, func(t *testing.T) {
			objs := template(t, values, "--include-crds")
			got := kinds(objs)
			for _, want := range []string{"Deployment " + releaseNS + "/lookout-operator", "ClusterRole /lookout-operator", "ServiceAccount " + releaseNS + "/lookout-operator",
				"Service " + releaseNS + "/lookout-operator", "ServiceMonitor " + releaseNS + "/lookout-operator", "CustomResourceDefinition /prometheuses.monitoring.coreos.com"} {
				if !slices.Contains(got, want) {
					t.Errorf("render lacks %s; has %q", want, got)
				}
			}
			if strings.HasPrefix(name, "features") {
				for _, want := range []string{"ValidatingWebhookConfiguration /lookout-operator-prometheusrule-validation", "MutatingWebhookConfiguration /lookout-operator-prometheusrule-mutation", "PodDisruptionBudget " + releaseNS + "/lookout-operator"} {
					if !slices.Contains(got, want) {
						t.Errorf("render lacks %s", want)
					}
				}
				certKind := "Secret " + releaseNS + "/lookout-operator-webhook-tls"
				if strings.HasSuffix(name, "cert-manager") {
					certKind = "Certificate " + releaseNS + "/lookout-operator-webhook"
				}
				if !slices.Contains(got, certKind) {
					t.Errorf("render lacks %s", certKind)
				}
			}
			if name == "features-self-signed" {
				checkWebhookCert(t, objs)
			}
			dryRun(t, objs)
		})
	}
}

// checkWebhookCert: the certificate the chart generates is for the Service's DNS name and
// verifies against the caBundle of every webhook configuration.
func checkWebhookCert(t *testing.T, objs []manifest.Object) {
	t.Helper()
	var certPEM, keyPEM []byte
	var bundles []string
	for _, o := range objs {
		switch o.GetKind() {
		case "Secret":
			data := o.Object["data"].(map[string]any)
			var err error
			if certPEM, err = base64.StdEncoding.DecodeString(data["tls.crt"].(string)); err != nil {
				t.Fatal(err)
			}
			if keyPEM, err = base64.StdEncoding.DecodeString(data["tls.key"].(string)); err != nil {
				t.Fatal(err)
			}
		case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration":
			for _, w := range o.Object["webhooks"].([]any) {
				b, _ := w.(map[string]any)["clientConfig"].(map[string]any)["caBundle"].(string)
				bundles = append(bundles, b)
			}
		}
	}
	if _, err := tls.X509KeyPair(certPEM, keyPEM); err != nil {
		t.Fatalf("webhook Secret: %v", err)
	}
	block, _ := pem.Decode(certPEM)
	if block == nil {
		t.Fatal("webhook Secret: no PEM certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	// PrometheusRule validation and mutation, AlertmanagerConfig validation.
	if len(bundles) != 3 {
		t.Fatalf("%d webhooks with a caBundle, want 3", len(bundles))
	}
	for _, b := range bundles {
		ca, err := base64.StdEncoding.DecodeString(b)
		if err != nil {
			t.Fatal(err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			t.Fatal("caBundle holds no certificate")
		}
		if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "lookout-operator." + releaseNS + ".svc"}); err != nil {
			t.Errorf("the webhook certificate does not verify against the caBundle for the Service's name: %v", err)
		}
	}
}

// TestChartSchemaRefusesTypos: values.schema.json refuses a misspelt key at the top
// level and in a section, and a value outside its enum.
func TestChartSchemaRefusesTypos(t *testing.T) {
	for _, set := range []string{"replica=3", "leaderElection.enable=false", "prometheusConfigReloader.watchApi=true", "logLevel=loud", "kubeletService.enabled=maybe", "repairPolicyForStatefulSets=restart"} {
		out, err := run(t, "helm", "template", releaseName, chartDir, "--set", set)
		if err == nil {
			t.Errorf("--set %s was accepted:\n%.200s", set, out)
		} else if !strings.Contains(err.Error(), "values don't meet the specifications of the schema") {
			t.Errorf("--set %s failed, but not on the schema: %v", set, err)
		}
	}
	// The documented spellings are accepted.
	mustRun(t, "helm", "template", releaseName, chartDir, "--set", "replicas=3", "--set", "leaderElection.enabled=false", "--set", "logLevel=debug")
}

// TestChartCRDsInSync: charts/lookout/crds holds exactly example/crds (make chart-crds).
func TestChartCRDsInSync(t *testing.T) {
	root := repoRoot(t)
	read := func(dir string) map[string][]byte {
		m := map[string][]byte{}
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m[e.Name()] = data
		}
		return m
	}
	want, got := read("example/crds"), read(chartDir+"/crds")
	if len(want) == 0 {
		t.Fatal("example/crds is empty")
	}
	for name, data := range want {
		if !bytes.Equal(got[name], data) {
			t.Errorf("%s/crds/%s differs from example/crds or is missing: run make chart-crds", chartDir, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s/crds/%s is not in example/crds: run make chart-crds", chartDir, name)
		}
	}
}

// defaultPermissions are the rules a feature on by default needs beyond the objects the
// operator reconciles: target health (--target-health-interval) lists the pods of a
// Prometheus's StatefulSets (pkg/controller/targethealth).
var defaultPermissions = map[string]bool{"/pods:list": true}

// optionalFiles are the files of example/rbac-optional, per chart value.
var optionalFiles = map[string]string{
	"prometheusConfigReloader.watchAPI":     "reloader-watch-api.yaml",
	"prometheusConfigReloader.reportConfig": "reloader-report-config.yaml",
	"kubeletService.enabled":                "kubelet-service.yaml",
	"repairPolicyForStatefulSets":           "repair-pods.yaml",
	"crds.upgrade":                          "install-crds.yaml",
}

// optionalPermissions are the rules only an optional feature needs: example/install
// leaves them to example/rbac-optional, the chart grants them only when the feature is on.
var optionalPermissions = map[string][]string{
	"prometheusConfigReloader.watchAPI": permList("rbac.authorization.k8s.io", []string{"roles", "rolebindings"}, "get", "list", "watch", "create", "update", "delete"),
	"prometheusConfigReloader.reportConfig": slices.Concat(
		permList("rbac.authorization.k8s.io", []string{"roles", "rolebindings"}, "get", "list", "watch", "create", "update", "delete"),
		permList("", []string{"pods"}, "list", "watch"),
		permList("", []string{"pods/status"}, "patch")),
	"kubeletService.enabled": slices.Concat(
		permList("", []string{"nodes"}, "list", "watch"),
		permList("", []string{"endpoints"}, "get", "list", "watch", "create", "update"),
		permList("discovery.k8s.io", []string{"endpointslices"}, "get", "list", "watch", "create", "update", "delete"),
		permList("", []string{"services/finalizers"}, "update")),
	"repairPolicyForStatefulSets": slices.Concat(permList("", []string{"pods"}, "list", "delete"), permList("", []string{"pods/eviction"}, "create")),
	"crds.upgrade":                permList("apiextensions.k8s.io", []string{"customresourcedefinitions"}, "get", "create", "patch"),
}

func permList(group string, resources []string, verbs ...string) []string {
	var out []string
	for _, r := range resources {
		for _, v := range verbs {
			out = append(out, group+"/"+r+":"+v)
		}
	}
	return out
}

// permissions flattens the rules of the ClusterRoles (or Roles) of objs into
// group/resource:verb strings.
func permissions(t *testing.T, objs []manifest.Object, kind string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, o := range objs {
		if o.GetKind() != kind {
			continue
		}
		rules, _ := o.Object["rules"].([]any)
		for _, r := range rules {
			rm := r.(map[string]any)
			for _, g := range rm["apiGroups"].([]any) {
				for _, res := range rm["resources"].([]any) {
					for _, v := range rm["verbs"].([]any) {
						out[g.(string)+"/"+res.(string)+":"+v.(string)] = true
					}
				}
			}
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestChartRBACMatchesInstall: the chart's defaults grant exactly example/install's rules
// less the optional ones, each optional feature adds exactly its rules, and with every
// feature on the chart grants exactly example/install's rules. The leader election Role
// is the same.
func TestChartRBACMatchesInstall(t *testing.T) {
	root := repoRoot(t)
	install, err := manifest.ReadPaths(filepath.Join(root, "example", "install"))
	if err != nil {
		t.Fatal(err)
	}
	base := permissions(t, install, "ClusterRole")
	wantRole := permissions(t, install, "Role")
	same := func(name string, got, want map[string]bool) {
		t.Helper()
		if g, w := sortedKeys(got), sortedKeys(want); !slices.Equal(g, w) {
			t.Errorf("%s: grants\n%q\nwant\n%q", name, g, w)
		}
	}
	// example/install runs no optional feature: it grants none of their rules but the
	// ones the default features need too.
	for feature, perms := range optionalPermissions {
		for _, p := range perms {
			if base[p] && !defaultPermissions[p] {
				t.Errorf("example/install grants %s, which only %s needs", p, feature)
			}
		}
	}
	for p := range defaultPermissions {
		if !base[p] {
			t.Errorf("example/install does not grant %s, which a default feature needs", p)
		}
	}
	defaults := template(t, nil)
	same("chart defaults ClusterRole", permissions(t, defaults, "ClusterRole"), base)
	same("chart defaults leader election Role", permissions(t, defaults, "Role"), wantRole)

	all := map[string]any{}
	wantAll := maps.Clone(base)
	for feature := range optionalPermissions {
		// The feature's file in example/rbac-optional grants exactly its rules.
		objs, err := manifest.ReadPaths(filepath.Join(root, "example", "rbac-optional", optionalFiles[feature]))
		if err != nil {
			t.Fatal(err)
		}
		file := permissions(t, objs, "ClusterRole")
		wantFile := map[string]bool{}
		for _, p := range optionalPermissions[feature] {
			wantFile[p] = true
		}
		same("example/rbac-optional/"+optionalFiles[feature], file, wantFile)

		one := map[string]any{}
		var v any = true
		if feature == "repairPolicyForStatefulSets" {
			v = "evict"
		}
		setPath(one, feature, v)
		setPath(all, feature, v)
		wantOne := maps.Clone(base)
		maps.Copy(wantOne, file)
		maps.Copy(wantAll, file)
		same("chart with "+feature, permissions(t, template(t, one), "ClusterRole"), wantOne)
	}
	same("chart with every feature", permissions(t, template(t, all), "ClusterRole"), wantAll)

	// Without target health, no pod is listed.
	off := map[string]any{"targetHealthInterval": "0s"}
	for p := range permissions(t, template(t, off), "ClusterRole") {
		if defaultPermissions[p] {
			t.Errorf("targetHealthInterval 0s still grants %s", p)
		}
	}
}

// namespacedValues: Roles in the watched namespaces instead of the ClusterRole.
func namespacedValues() map[string]any {
	v := map[string]any{}
	setPath(v, "rbac.namespaced", true)
	setPath(v, "namespaces.releaseNamespace", true)
	setPath(v, "namespaces.additional", []any{"team-a"})
	setPath(v, "prometheusInstanceNamespaces", []any{"team-b"})
	setPath(v, "kubeletService.enabled", true)
	return v
}
