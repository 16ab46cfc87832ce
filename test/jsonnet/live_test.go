package jsonnet

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/test/jsonnet/render"
	"github.com/lookout-operator/lookout/test/testenv"
)

// The live system: a real control plane with the example stack applied, the operator
// running as the stack's ServiceAccount, a config-reloader in API mode, a real
// Alertmanager with its own config-reloader (live_alertmanager_test.go), and a real
// Prometheus that scrapes all of them and itself, evaluates the mixin's rules and sends
// its alerts to that Alertmanager.
//
// Labels on the scrape targets are those the stack's ServiceMonitors produce, so the
// mixin runs with its default selectors.
const (
	stackNamespace   = "lookout"
	fixtureNamespace = "fixtures"
	reloaderInput    = "reloader-input"     // Secret the reloader mirrors
	reloaderDenied   = "reloader-forbidden" // ConfigMap the reloader may not read
	brokenPrometheus = "broken"             // Prometheus whose reconcile fails
	rejectedMonitor  = "rejected"           // ServiceMonitor the stack's Prometheus rejects
	prometheusPod    = "prometheus-k8s-0"
)

type liveSystem struct {
	root, dir string
	env       *testenv.Env
	admin     client.Client
	clientset *kubernetes.Clientset
	procs     []*process
	// am is the webhook receiver of the Alertmanager's notifications.
	am *httptest.Server

	operator, reloader, prometheus *process
	operatorURL, reloaderURL       string
	// alertmanagerURL is Alertmanager's base URL; amReloaderURL the /metrics of its
	// config-reloader.
	alertmanagerURL, amReloaderURL string
	prom                           promAPI

	// stackFiles are the example/stack files applied, in order.
	stackFiles []string
	// reloaderConfig is the uncompressed config the reloader was given last.
	reloaderConfig []byte
	mixin          *mixin
}

var (
	liveOnce sync.Once
	live     *liveSystem
	liveErr  error
)

func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	code := m.Run()
	if live != nil {
		live.close()
	}
	os.Exit(code)
}

// liveSys starts the live system once for all tests that need it.
func liveSys(t *testing.T) *liveSystem {
	t.Helper()
	liveOnce.Do(func() {
		start := time.Now()
		live, liveErr = startLive(repoRoot(t), loadMixin(t))
		if liveErr == nil {
			fmt.Fprintf(os.Stderr, "live system up in %s\n", time.Since(start).Round(time.Millisecond))
		}
	})
	if liveErr != nil {
		t.Fatal(liveErr)
	}
	return live
}

func (s *liveSystem) close() {
	for i := len(s.procs) - 1; i >= 0; i-- {
		s.procs[i].stop()
	}
	if s.am != nil {
		s.am.Close()
	}
	if s.env != nil {
		_ = s.env.Stop()
	}
	_ = os.RemoveAll(s.dir)
}

// fail wraps err with the logs of the processes started so far.
func (s *liveSystem) fail(err error) error {
	var b strings.Builder
	fmt.Fprintln(&b, err)
	for _, p := range s.procs {
		fmt.Fprintln(&b, p.tail(25))
	}
	return fmt.Errorf("%s", b.String())
}

func startLive(root string, m *mixin) (_ *liveSystem, err error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lookout-jsonnet-live-")
	if err != nil {
		return nil, err
	}
	s := &liveSystem{root: root, dir: dir, mixin: m}
	defer func() {
		if err != nil {
			err = s.fail(err)
			s.close()
		}
	}()

	for _, tool := range []string{"prometheus", "alertmanager"} {
		if _, err := os.Stat(filepath.Join(root, "bin", tool)); err != nil {
			return nil, fmt.Errorf("bin/%s not found: run `make tools` first (%w)", tool, err)
		}
	}
	bins, err := s.build()
	if err != nil {
		return nil, err
	}
	if s.env, err = testenv.Start(ctx, testenv.Options{SkipCRDs: true}); err != nil {
		return nil, err
	}
	s.admin = s.env.Client
	if s.clientset, err = kubernetes.NewForConfig(s.env.Config); err != nil {
		return nil, err
	}
	if err := s.applyStack(ctx); err != nil {
		return nil, err
	}
	if err := s.createFixtures(ctx); err != nil {
		return nil, err
	}
	if err := s.startOperator(ctx, bins["operator"]); err != nil {
		return nil, err
	}
	if err := s.startPrometheusAndReloader(ctx, bins["config-reloader"]); err != nil {
		return nil, err
	}
	// The broken Prometheus comes once Prometheus scrapes the operator, so the failures
	// it causes show up as an increase.
	if err := s.admin.Create(ctx, &monitoringv1.Prometheus{
		ObjectMeta: metav1.ObjectMeta{Namespace: fixtureNamespace, Name: brokenPrometheus},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "team", Operator: "Near", Values: []string{"a"}},
			}},
		}},
	}); err != nil {
		return nil, err
	}
	if err := s.waitOperatorMetrics(ctx); err != nil {
		return nil, err
	}
	if err := s.waitPrometheus(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// build compiles the operator and the config-reloader into the temporary directory.
func (s *liveSystem) build() (map[string]string, error) {
	out := filepath.Join(s.dir, "bin")
	cmd := exec.Command("go", "build", "-o", out+string(filepath.Separator), "./cmd/operator", "./cmd/config-reloader")
	cmd.Dir = s.root
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, b)
	}
	return map[string]string{
		"operator":        filepath.Join(out, "operator"),
		"config-reloader": filepath.Join(out, "config-reloader"),
	}, nil
}

// applyStack applies example/stack/setup, waits for the CRDs, then applies the rest of
// example/stack, all with server-side apply.
func (s *liveSystem) applyStack(ctx context.Context) error {
	dir := filepath.Join(s.root, render.StackDir)
	setup, err := filepath.Glob(filepath.Join(dir, "setup", "*.yaml"))
	if err != nil {
		return err
	}
	rest, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return err
	}
	if len(setup) == 0 || len(rest) == 0 {
		return fmt.Errorf("%s is empty: run %s", render.StackDir, render.Command)
	}
	sort.Strings(setup)
	sort.Strings(rest)
	if err := s.apply(ctx, setup); err != nil {
		return err
	}
	var crds apiextensionsv1.CustomResourceDefinitionList
	if err := poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		if err := s.admin.List(ctx, &crds); err != nil {
			return err
		}
		for _, c := range crds.Items {
			established := false
			for _, cond := range c.Status.Conditions {
				established = established || (cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue)
			}
			if !established {
				return fmt.Errorf("CRD %s is not established", c.Name)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return s.apply(ctx, rest)
}

func (s *liveSystem) apply(ctx context.Context, files []string) error {
	for _, f := range files {
		objs, err := manifest.ReadPaths(f)
		if err != nil {
			return err
		}
		if len(objs) != 1 {
			return fmt.Errorf("%s holds %d objects, want 1", f, len(objs))
		}
		ac := client.ApplyConfigurationFromUnstructured(objs[0].Unstructured)
		if err := s.admin.Apply(ctx, ac, client.FieldOwner("lookout-stack-test"), client.ForceOwnership); err != nil {
			return fmt.Errorf("applying %s: %w", f, err)
		}
		rel, _ := filepath.Rel(s.root, f)
		s.stackFiles = append(s.stackFiles, rel)
	}
	return nil
}

// createFixtures creates what makes the operator's failure metrics appear: a
// ServiceMonitor the stack's Prometheus selects but rejects (its credentials Secret does
// not exist).
func (s *liveSystem) createFixtures(ctx context.Context) error {
	if err := s.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fixtureNamespace}}); err != nil {
		return err
	}
	missing := func(key string) corev1.SecretKeySelector {
		return corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "missing"}, Key: key}
	}
	ep := monitoringv1.Endpoint{Port: "web"}
	ep.BasicAuth = &monitoringv1.BasicAuth{Username: missing("user"), Password: missing("password")}
	return s.admin.Create(ctx, &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: fixtureNamespace, Name: rejectedMonitor},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": "none"}},
			Endpoints: []monitoringv1.Endpoint{ep},
		},
	})
}

// kubeconfigFor writes a kubeconfig that authenticates as a ServiceAccount.
func (s *liveSystem) kubeconfigFor(ctx context.Context, namespace, sa string) (string, error) {
	tok, err := s.clientset.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, sa, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("token for %s/%s: %w", namespace, sa, err)
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["local"] = &clientcmdapi.Cluster{Server: s.env.Config.Host, CertificateAuthorityData: s.env.Config.CAData}
	cfg.AuthInfos[sa] = &clientcmdapi.AuthInfo{Token: tok.Status.Token}
	cfg.Contexts["local"] = &clientcmdapi.Context{Cluster: "local", AuthInfo: sa}
	cfg.CurrentContext = "local"
	p := filepath.Join(s.dir, sa+".kubeconfig")
	return p, clientcmd.WriteToFile(*cfg, p)
}

// startOperator runs the operator with the identity of the stack's ServiceAccount, so it
// has exactly the RBAC the stack grants.
func (s *liveSystem) startOperator(ctx context.Context, bin string) error {
	kc, err := s.kubeconfigFor(ctx, stackNamespace, "lookout-operator")
	if err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	s.operatorURL = fmt.Sprintf("http://127.0.0.1:%d/metrics", port)
	s.operator, err = startProcess(s.dir, "operator", bin, []string{
		"run", "--kubeconfig", kc,
		"--metrics-bind-address", fmt.Sprintf("127.0.0.1:%d", port),
		"--health-probe-bind-address", "0",
		"--leader-election-namespace", stackNamespace,
		"--log-format", "logfmt",
	}, nil)
	if err != nil {
		return err
	}
	s.procs = append(s.procs, s.operator)
	return poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		if done, err := s.operator.exited(); done {
			return fmt.Errorf("operator exited: %v", err)
		}
		_, err := get(ctx, s.operatorURL)
		return err
	})
}

// operatorSeries are the operator's own metrics the test waits for: each needs objects
// or events to get a series.
var operatorSeries = []string{
	"lookout_managed_resources",
	"lookout_prometheus_config_bytes",
	"lookout_prometheus_config_info",
	"lookout_config_generation_duration_seconds_bucket",
	"lookout_reconcile_failures_total",
	"lookout_prometheus_rule_configmaps",
	"lookout_api_writes_total",
	"leader_election_master_status",
}

func (s *liveSystem) waitOperatorMetrics(ctx context.Context) error {
	return poll(ctx, 2*time.Minute, 250*time.Millisecond, func() error {
		if done, err := s.operator.exited(); done {
			return fmt.Errorf("operator exited: %v", err)
		}
		b, err := get(ctx, s.operatorURL)
		if err != nil {
			return err
		}
		names := sampleNames(b)
		var missing []string
		for _, n := range operatorSeries {
			if !names[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("operator /metrics lacks %v", missing)
		}
		return nil
	})
}

// reloaderRBAC creates a ServiceAccount that may read the reloader's input Secret and
// nothing else, so its watch of reloaderDenied fails.
func (s *liveSystem) reloaderRBAC(ctx context.Context) (string, error) {
	const sa = "reloader-fixture"
	objs := []client.Object{
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: stackNamespace, Name: sa}},
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: stackNamespace, Name: sa}, Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{""}, Resources: []string{"secrets"}, ResourceNames: []string{reloaderInput}, Verbs: []string{"get", "list", "watch"},
		}}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: stackNamespace, Name: sa},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: sa},
			Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: stackNamespace}}},
	}
	for _, o := range objs {
		if err := s.admin.Create(ctx, o); err != nil {
			return "", err
		}
	}
	return s.kubeconfigFor(ctx, stackNamespace, sa)
}

// prometheusConfig is the configuration the reloader hands to Prometheus. The comment
// refers to a variable that is never set, which the reloader counts.
func prometheusConfig(promPort, operatorPort, reloaderPort, amPort, amReloaderPort int, rulesDir, generation string) []byte {
	return []byte(fmt.Sprintf(`# generation %s; $(LOOKOUT_TEST_UNSET) stays unexpanded
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
  external_labels:
    replica: $(POD_NAME)
rule_files:
- %s/*.yaml
alerting:
  alertmanagers:
  - api_version: v2
    static_configs:
    - targets: ['127.0.0.1:%d']
scrape_configs:
- job_name: lookout-operator
  honor_labels: true
  static_configs:
  - targets: ['127.0.0.1:%d']
    labels: {namespace: lookout, pod: lookout-operator-0, container: operator}
- job_name: prometheus-k8s
  static_configs:
  - targets: ['127.0.0.1:%d']
    labels: {namespace: lookout, pod: %s, container: prometheus}
  - targets: ['127.0.0.1:%d']
    labels: {namespace: lookout, pod: %s, container: config-reloader}
- job_name: alertmanager-main
  static_configs:
  - targets: ['127.0.0.1:%d']
    labels: {namespace: lookout, service: %s, pod: %s, container: alertmanager}
  - targets: ['127.0.0.1:%d']
    labels: {namespace: lookout, service: %s, pod: %s, container: config-reloader}
`, generation, rulesDir, amPort, operatorPort, promPort, prometheusPod, reloaderPort, prometheusPod,
		amPort, alertmanagerService, alertmanagerPod, amReloaderPort, alertmanagerService, alertmanagerPod))
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

// configName names a config as the reloader names it (package confighash).
func configName(b []byte) string { return confighash.Sum(b) }

// startPrometheusAndReloader starts Alertmanager, Prometheus with the mixin's rules, and
// the config-reloader in API mode feeding Prometheus its configuration.
func (s *liveSystem) startPrometheusAndReloader(ctx context.Context, reloaderBin string) error {
	amPort, err := s.startAlertmanager(ctx, reloaderBin)
	if err != nil {
		return err
	}
	amReloaderPort, err := portOf(s.amReloaderURL)
	if err != nil {
		return err
	}

	rulesDir := filepath.Join(s.dir, "rules")
	if err := os.MkdirAll(rulesDir, 0o755); err != nil {
		return err
	}
	rulesJSON, err := json.Marshal(ruleFile{Groups: append(append([]ruleGroup{}, s.mixin.Alerts.Groups...), s.mixin.Rules.Groups...)})
	if err != nil {
		return err
	}
	rulesYAML, err := yaml.JSONToYAML(rulesJSON)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(rulesDir, "lookout.yaml"), rulesYAML, 0o644); err != nil {
		return err
	}

	ports := make([]int, 2)
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			return err
		}
	}
	promPort, reloaderPort := ports[0], ports[1]
	operatorPort, err := portOf(s.operatorURL)
	if err != nil {
		return err
	}
	s.prom = promAPI{base: fmt.Sprintf("http://127.0.0.1:%d", promPort)}
	s.reloaderURL = fmt.Sprintf("http://127.0.0.1:%d/metrics", reloaderPort)

	s.reloaderConfig = prometheusConfig(promPort, operatorPort, reloaderPort, amPort, amReloaderPort, rulesDir, "1")
	if err := s.admin.Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: stackNamespace, Name: reloaderInput},
		Data:       map[string][]byte{"prometheus.yaml.gz": gzipped(s.reloaderConfig)},
	}); err != nil {
		return err
	}
	kc, err := s.reloaderRBAC(ctx)
	if err != nil {
		return err
	}

	// Prometheus starts with the rendered configuration, as the init container leaves it.
	outDir := filepath.Join(s.dir, "config-out")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	outFile := filepath.Join(outDir, "prometheus.env.yaml")
	if err := os.WriteFile(outFile, bytes.ReplaceAll(s.reloaderConfig, []byte("$(POD_NAME)"), []byte(prometheusPod)), 0o644); err != nil {
		return err
	}
	s.prometheus, err = startProcess(s.dir, "prometheus", filepath.Join(s.root, "bin", "prometheus"), []string{
		"--config.file=" + outFile,
		"--storage.tsdb.path=" + filepath.Join(s.dir, "data"),
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", promPort),
		"--web.enable-lifecycle",
		"--log.level=warn",
	}, nil)
	if err != nil {
		return err
	}
	s.procs = append(s.procs, s.prometheus)
	if err := poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		if done, err := s.prometheus.exited(); done {
			return fmt.Errorf("prometheus exited: %v", err)
		}
		_, err := get(ctx, s.prom.base+"/-/ready")
		return err
	}); err != nil {
		return err
	}

	inDir, deniedDir := filepath.Join(s.dir, "reloader-in"), filepath.Join(s.dir, "reloader-denied")
	s.reloader, err = startProcess(s.dir, "config-reloader", reloaderBin, []string{
		"--config-file=" + filepath.Join(inDir, "prometheus.yaml.gz"),
		"--config-envsubst-file=" + outFile,
		"--watch-secret=" + stackNamespace + "/" + reloaderInput + "=" + inDir,
		"--watch-configmap=" + stackNamespace + "/" + reloaderDenied + "=" + deniedDir,
		"--watched-dir=" + deniedDir,
		"--kubeconfig=" + kc,
		fmt.Sprintf("--reload-url=%s/-/reload", s.prom.base),
		fmt.Sprintf("--runtimeinfo-url=%s/api/v1/status/runtimeinfo", s.prom.base),
		fmt.Sprintf("--listen-address=127.0.0.1:%d", reloaderPort),
		"--reload-timeout=5s",
		"--log-format=logfmt",
	}, []string{"POD_NAME=" + prometheusPod, "SHARD=0"})
	if err != nil {
		return err
	}
	s.procs = append(s.procs, s.reloader)
	return s.waitReloaded(ctx, s.reloaderConfig)
}

// waitReloaded waits until the reloader reports that Prometheus loaded config.
func (s *liveSystem) waitReloaded(ctx context.Context, config []byte) error {
	want := fmt.Sprintf(`reloader_config_info{hash=%q} 1`, configName(config))
	return poll(ctx, time.Minute, 200*time.Millisecond, func() error {
		if done, err := s.reloader.exited(); done {
			return fmt.Errorf("config-reloader exited: %v", err)
		}
		b, err := get(ctx, s.reloaderURL)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte(want)) || !bytes.Contains(b, []byte("reloader_last_reload_successful 1")) {
			return fmt.Errorf("config-reloader has not reported %s after a successful reload", want)
		}
		return nil
	})
}

// waitPrometheus waits until Prometheus scrapes its five targets and has evaluated every
// rule group a few times; then it updates the reloader's input, so the reloader renders
// and reloads once more while Prometheus watches its counters.
func (s *liveSystem) waitPrometheus(ctx context.Context) error {
	if err := poll(ctx, time.Minute, 500*time.Millisecond, func() error {
		up, err := s.prom.query(ctx, `sum(up) == 5 and count(up) == 5`)
		if err != nil {
			return err
		}
		if len(up) != 1 {
			return fmt.Errorf("Prometheus does not scrape its five targets yet")
		}
		return nil
	}); err != nil {
		return err
	}
	next := bytes.Replace(s.reloaderConfig, []byte("# generation 1"), []byte("# generation 2"), 1)
	sec := &corev1.Secret{}
	if err := s.admin.Get(ctx, client.ObjectKey{Namespace: stackNamespace, Name: reloaderInput}, sec); err != nil {
		return err
	}
	sec.Data["prometheus.yaml.gz"] = gzipped(next)
	if err := s.admin.Update(ctx, sec); err != nil {
		return err
	}
	if err := s.waitReloaded(ctx, next); err != nil {
		return err
	}
	s.reloaderConfig = next
	groups := len(s.mixin.Alerts.Groups) + len(s.mixin.Rules.Groups)
	return poll(ctx, time.Minute, 500*time.Millisecond, func() error {
		r, err := s.prom.query(ctx, `count(prometheus_rule_group_iterations_total >= 5)`)
		if err != nil {
			return err
		}
		if len(r) != 1 || fmt.Sprint(r[0].Value[1]) != fmt.Sprint(groups) {
			return fmt.Errorf("Prometheus has not evaluated all %d rule groups five times: %v", groups, r)
		}
		return nil
	})
}

func portOf(rawURL string) (int, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(u.Port())
}

// metrics fetches a /metrics page.
func (s *liveSystem) metrics(t *testing.T, url string) []byte {
	t.Helper()
	b, err := get(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func clientFromKubeconfig(path string) (client.Client, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, err
	}
	return client.New(cfg, client.Options{})
}
