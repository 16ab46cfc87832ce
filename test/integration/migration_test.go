package integration

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/webhook"
	"github.com/lookout-operator/lookout/test/upstreamargs"
)

// The migration tests start Lookout the way a prometheus-operator Deployment whose image
// was swapped would: with that Deployment's arguments (no subcommand), parsed by the same
// code as the binary's, and check that it reconciles. Each case adds only what a test
// needs: a listen address that is free, no probe listener, the files its paths name, and
// an instance selector so that it manages only its own Prometheus next to the suite's
// shared operator.

// kubePrometheusRules is the ClusterRole kube-prometheus gives prometheus-operator
// (manifests/prometheusOperator-clusterRole.yaml, v0.93.1): no Leases, no list/watch on
// Services, events only in events.k8s.io.
var kubePrometheusRules = []rbacv1.PolicyRule{
	{APIGroups: []string{"monitoring.coreos.com"}, Verbs: []string{"*"}, Resources: []string{
		"alertmanagers", "alertmanagers/finalizers", "alertmanagers/status", "alertmanagerconfigs",
		"prometheuses", "prometheuses/finalizers", "prometheuses/status",
		"prometheusagents", "prometheusagents/finalizers", "prometheusagents/status",
		"thanosrulers", "thanosrulers/finalizers", "thanosrulers/status",
		"scrapeconfigs", "scrapeconfigs/status", "servicemonitors", "servicemonitors/status",
		"podmonitors", "podmonitors/status", "probes", "probes/status", "prometheusrules", "prometheusrules/status",
	}},
	{APIGroups: []string{"apps"}, Resources: []string{"statefulsets"}, Verbs: []string{"*"}},
	{APIGroups: []string{""}, Resources: []string{"configmaps", "secrets"}, Verbs: []string{"*"}},
	{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"list", "delete"}},
	{APIGroups: []string{""}, Resources: []string{"services", "services/finalizers"}, Verbs: []string{"get", "create", "update", "delete"}},
	{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"list", "watch"}},
	{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}},
	{APIGroups: []string{"events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"patch", "create"}},
	{APIGroups: []string{"networking.k8s.io"}, Resources: []string{"ingresses"}, Verbs: []string{"get", "list", "watch"}},
	{APIGroups: []string{"storage.k8s.io"}, Resources: []string{"storageclasses"}, Verbs: []string{"get"}},
	{APIGroups: []string{""}, Resources: []string{"endpoints"}, Verbs: []string{"get", "create", "update", "delete"}},
	{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"get", "create", "list", "update", "delete"}},
	{APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"tokenreviews"}, Verbs: []string{"create"}},
	{APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"subjectaccessreviews"}, Verbs: []string{"create"}},
}

func TestMigration(t *testing.T) {
	// Not parallel: --apiserver is only used without $KUBECONFIG, as in prometheus-operator.
	t.Setenv("KUBECONFIG", "")
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	writeFile(t, kubeconfig, env.KubeConfig)
	certDir := filepath.Join(dir, "cert")
	if err := webhook.EnsureSelfSignedCert(certDir, []string{"localhost", "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	// Client certificate files for prometheus-operator's --apiserver/--cert-file/... flags.
	writeFile(t, filepath.Join(dir, "client.crt"), env.Config.CertData)
	writeFile(t, filepath.Join(dir, "client.key"), env.Config.KeyData)
	writeFile(t, filepath.Join(dir, "ca.crt"), env.Config.CAData)

	t.Run("kube-prometheus with its RBAC", func(t *testing.T) {
		opNS := newNamespace(t, nil)
		user := "system:serviceaccount:" + opNS + ":prometheus-operator"
		bindClusterRole(t, opNS+"-prometheus-operator", kubePrometheusRules, user)
		ns := newNamespace(t, nil)
		other := newNamespace(t, nil)
		args := append(upstreamargs.KubePrometheus(), "--kubeconfig="+kubeconfig, "--as="+user)
		addr := runMigrated(t, "kube-prometheus", args)
		checkScrapes(t, "kube-prometheus", ns, []string{ns, other}, nil)
		checkHealthz(t, "http://"+addr+"/healthz", nil)
		checkKubeletEndpoints(t, "kube-system", "kubelet")
	})

	// An RBAC without the Alertmanager kinds (an install made for Prometheus alone): the
	// Alertmanager controller is left out instead of keeping the caches from syncing.
	t.Run("RBAC without Alertmanager rules", func(t *testing.T) {
		opNS := newNamespace(t, nil)
		user := "system:serviceaccount:" + opNS + ":prometheus-operator"
		var rules []rbacv1.PolicyRule
		for _, r := range kubePrometheusRules {
			if slices.Contains(r.APIGroups, "monitoring.coreos.com") {
				r = *r.DeepCopy()
				r.Resources = slices.DeleteFunc(r.Resources, func(res string) bool { return strings.HasPrefix(res, "alertmanager") })
			}
			rules = append(rules, r)
		}
		bindClusterRole(t, opNS+"-no-alertmanagers", rules, user)
		ns := newNamespace(t, nil)
		args := append(upstreamargs.KubePrometheus(), "--kubeconfig="+kubeconfig, "--as="+user)
		runMigrated(t, "no-am", args)
		checkScrapes(t, "no-am", ns, []string{ns}, nil)
	})

	t.Run("kube-prometheus-stack chart defaults", func(t *testing.T) {
		ns := newNamespace(t, nil)
		args := append(upstreamargs.Helm(filepath.Join(certDir, "tls.crt"), filepath.Join(certDir, "tls.key")),
			"--apiserver="+env.Config.Host,
			"--cert-file="+filepath.Join(dir, "client.crt"),
			"--key-file="+filepath.Join(dir, "client.key"),
			"--ca-file="+filepath.Join(dir, "ca.crt"),
			"--leader-election-namespace="+ns)
		addr := runMigrated(t, "helm", args)
		checkScrapes(t, "helm", ns, []string{ns}, nil)
		caPEM, err := os.ReadFile(filepath.Join(certDir, webhook.CAFile))
		if err != nil {
			t.Fatal(err)
		}
		checkHealthz(t, "https://"+addr+"/healthz", caPEM)
		p, err := getPrometheus(ns, "helm")
		if err != nil {
			t.Fatal(err)
		}
		sts, err := statefulSet(ns, "prometheus-helm")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range append(sts.Spec.Template.Spec.InitContainers, sts.Spec.Template.Spec.Containers...) {
			if c.Name == "prometheus" {
				continue
			}
			if c.Image != "quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1" || len(c.Resources.Requests)+len(c.Resources.Limits) != 0 {
				t.Errorf("%s of %s: image %s, resources %v; want the chart's reloader without resources", c.Name, p.Name, c.Image, c.Resources)
			}
		}
	})

	t.Run("deny-namespaces", func(t *testing.T) {
		ns := newNamespace(t, nil)
		other := newNamespace(t, nil)
		denied := newNamespace(t, nil)
		args := append(upstreamargs.KubePrometheus(), "--kubeconfig="+kubeconfig, "--deny-namespaces=kube-system,"+denied)
		runMigrated(t, "deny", args)
		checkScrapes(t, "deny", ns, []string{ns, other}, []string{denied})
	})

	t.Run("namespaces and prometheus-instance-namespaces", func(t *testing.T) {
		promNS := newNamespace(t, nil)
		watched := newNamespace(t, nil)
		unwatched := newNamespace(t, nil)
		args := append(upstreamargs.KubePrometheus(), "--kubeconfig="+kubeconfig,
			"--namespaces="+watched, "--prometheus-instance-namespaces="+promNS)
		runMigrated(t, "instance-ns", args)
		checkScrapes(t, "instance-ns", promNS, []string{watched}, []string{promNS, unwatched})
	})
}

// runMigrated starts an operator from a Deployment's arguments, managing only the
// Prometheus objects labelled for this case; it returns the web listener's address.
func runMigrated(t *testing.T, name string, deploymentArgs []string) string {
	t.Helper()
	addr := freeAddress(t)
	args := append(deploymentArgs,
		"--web.listen-address="+addr,
		"--health-probe-bind-address=0",
		"--prometheus-instance-selector="+dedicatedLabel+"="+name)
	var out strings.Builder
	p, err := operator.ParseArgs(args, &out)
	if err != nil {
		t.Fatalf("parsing %q: %v\n%s", args, err, out.String())
	}
	if p.Command != "" {
		t.Fatalf("unexpected command %q", p.Command)
	}
	opts := p.Options
	opts.SkipControllerNameValidation = true // a second operator in this process
	opts.Registry = prometheus.NewRegistry() // and its own metrics
	opts.GracefulShutdown = 5 * time.Second
	cfg, err := opts.Client.RESTConfig("lookout-operator/migration-test")
	if err != nil {
		t.Fatal(err)
	}
	mctx, mcancel := context.WithCancel(context.Background())
	mgr, err := operator.New(mctx, cfg, opts)
	if err != nil {
		mcancel()
		t.Fatalf("building the operator from %q: %v", args, err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		mcancel()
		if err := <-done; err != nil {
			t.Errorf("operator %s: %v", name, err)
		}
	})
	return addr
}

// checkScrapes creates a Prometheus selecting every namespace and a ServiceMonitor in each
// of the given namespaces, then waits for the config Secret to hold the jobs of the
// wanted namespaces and none of the others.
func checkScrapes(t *testing.T, name, promNS string, want, notWant []string) {
	t.Helper()
	sel := map[string]string{"migration": name}
	create(t, newPrometheus(promNS, name, func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: name}
		p.Spec.ServiceMonitorSelector = &metav1.LabelSelector{MatchLabels: sel}
		p.Spec.ServiceMonitorNamespaceSelector = &metav1.LabelSelector{}
	}))
	for _, ns := range append(append([]string{}, want...), notWant...) {
		create(t, newServiceMonitor(ns, "app", func(s *monitoringv1.ServiceMonitor) { s.Labels = sel }))
	}
	eventually(t, 30*time.Second, name+": config Secret with the watched monitors", func() error {
		c, _, err := config(promNS, name)
		if err != nil {
			return err
		}
		for _, ns := range want {
			if !strings.Contains(c, "job_name: serviceMonitor/"+ns+"/app/0") {
				return fmt.Errorf("no job for the monitor in %s", ns)
			}
		}
		for _, ns := range notWant {
			if strings.Contains(c, "job_name: serviceMonitor/"+ns+"/app/0") {
				return fmt.Errorf("the monitor in %s is in the config", ns)
			}
		}
		return nil
	})
	eventually(t, 30*time.Second, name+": Reconciled condition", func() error {
		p, err := getPrometheus(promNS, name)
		if err != nil {
			return err
		}
		if c := condition(p, monitoringv1.Reconciled); c == nil || c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("conditions %+v", p.Status.Conditions)
		}
		return nil
	})
}

// checkHealthz expects 200 from the web listener's /healthz, which the upstream charts
// probe; caPEM verifies a TLS listener.
func checkHealthz(t *testing.T, url string, caPEM []byte) {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Second}
	if caPEM != nil {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(caPEM)
		c.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS13}}
	}
	eventually(t, 10*time.Second, "GET "+url, func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	})
}

// bindClusterRole creates a ClusterRole with rules and binds it to a service account user.
func bindClusterRole(t *testing.T, name string, rules []rbacv1.PolicyRule, user string) {
	t.Helper()
	parts := strings.Split(user, ":") // system:serviceaccount:NAMESPACE:NAME
	create(t,
		&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules},
		&rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: name},
			Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: parts[2], Name: parts[3]}},
		})
}

func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if len(data) == 0 {
		t.Fatalf("%s: nothing to write", path)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkKubeletEndpoints creates a Node and waits for the kubelet controller, started by
// --kubelet-service, to list it in the Endpoints ns/name.
func checkKubeletEndpoints(t *testing.T, ns, name string) {
	t.Helper()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("migration-%d", nsSeq.Add(1))}}
	create(t, node)
	node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.99.0.7"}}
	if err := k8s.Status().Update(ctx, node); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k8s.Delete(ctx, node) })
	eventually(t, 30*time.Second, "the node in the kubelet Endpoints", func() error {
		//lint:ignore SA1019 the kubelet controller writes Endpoints as prometheus-operator does
		ep := &corev1.Endpoints{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, ep); err != nil {
			return err
		}
		for _, s := range ep.Subsets {
			for _, a := range s.Addresses {
				if a.IP == "10.99.0.7" && a.TargetRef != nil && a.TargetRef.Name == node.Name {
					return nil
				}
			}
		}
		return fmt.Errorf("node %s not in %s/%s: %+v", node.Name, ns, name, ep.Subsets)
	})
}
