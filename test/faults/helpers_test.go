package faults

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	lookoutoperator "github.com/lookout-operator/lookout/pkg/operator"
)

// controlPlane is a running API server the tests talk to.
type controlPlane struct {
	name       string
	cfg        *rest.Config
	c          client.Client
	kubeconfig string // admin kubeconfig for the operators
}

func newControlPlane(name string, cfg *rest.Config, kubeconfig []byte) (*controlPlane, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 1000, 2000
	c, err := client.New(cfg, client.Options{Scheme: lookoutoperator.NewScheme()})
	if err != nil {
		return nil, err
	}
	path := filepath.Join(workDir, name+".kubeconfig")
	if err := os.WriteFile(path, kubeconfig, 0o600); err != nil {
		return nil, err
	}
	return &controlPlane{name: name, cfg: cfg, c: c, kubeconfig: path}, nil
}

var ctx = context.Background()

var nsSeq atomic.Int32

// newNamespace creates a namespace named after the test.
func (cp *controlPlane) newNamespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-"))
	name = fmt.Sprintf("f%02d-%s", nsSeq.Add(1), name)
	if len(name) > 50 {
		name = name[:50]
	}
	name = strings.TrimRight(name, "-")
	if err := cp.c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
		t.Fatal(err)
	}
	return name
}

// selectLabel is the label a test's Prometheus selects its monitors and rules by.
const selectLabel = "faults.lookout.dev/select"

// newPrometheus is a Prometheus for the operators of group, selecting the monitors and
// rules labelled selectLabel=group in its namespace.
func newPrometheus(ns, name, group string, mut ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{selectLabel: group}}
	p := &monitoringv1.Prometheus{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{instanceLabel: group}},
		Spec: monitoringv1.PrometheusSpec{
			CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
				ServiceMonitorSelector: sel,
				PodMonitorSelector:     sel,
			},
			RuleSelector: sel,
		},
	}
	for _, m := range mut {
		m(p)
	}
	return p
}

func newServiceMonitor(ns, name, group string, mut ...func(*monitoringv1.ServiceMonitor)) *monitoringv1.ServiceMonitor {
	s := &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{selectLabel: group}},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Endpoints: []monitoringv1.Endpoint{{Port: "web"}},
		},
	}
	for _, m := range mut {
		m(s)
	}
	return s
}

// newRule is a PrometheusRule with one recording rule per expression.
func newRule(ns, name, group string, exprs ...string) *monitoringv1.PrometheusRule {
	g := monitoringv1.RuleGroup{Name: name}
	for i, e := range exprs {
		g.Rules = append(g.Rules, monitoringv1.Rule{Record: fmt.Sprintf("faults:%s:%d", strings.ReplaceAll(name, "-", "_"), i), Expr: intstr.FromString(e)})
	}
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{selectLabel: group}},
		Spec:       monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{g}},
	}
}

func (cp *controlPlane) mustCreate(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := cp.c.Create(ctx, o); err != nil {
			t.Fatalf("creating %T %s/%s: %v", o, o.GetNamespace(), o.GetName(), err)
		}
	}
}

// mustUpdate reads obj, applies mutate and writes it back, retrying on conflicts (the
// operator writes statuses).
func (cp *controlPlane) mustUpdate(t *testing.T, obj client.Object, mutate func()) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := cp.c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		mutate()
		return cp.c.Update(ctx, obj)
	})
	if err != nil {
		t.Fatalf("updating %T %s/%s: %v", obj, obj.GetNamespace(), obj.GetName(), err)
	}
}

// config reads and decompresses the generated config of a Prometheus: the config Secret
// and, for a configuration spread over several Secrets, its parts after it; the Secret
// returned is the config Secret.
func (cp *controlPlane) config(ns, name string) (string, *corev1.Secret, error) {
	var whole strings.Builder
	var first *corev1.Secret
	for n := 0; ; n++ {
		secName := layout.Prometheus(name).ConfigPartSecret(n)
		sec := &corev1.Secret{}
		err := cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: secName}, sec)
		if n > 0 && apierrors.IsNotFound(err) {
			return whole.String(), first, nil
		}
		if err != nil {
			return "", first, err
		}
		if n == 0 {
			first = sec
		}
		r, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.ConfigCompressedKey]))
		if err != nil {
			return "", first, err
		}
		if _, err := io.Copy(&whole, r); err != nil {
			return "", first, err
		}
	}
}

// configHasMonitors returns nil when the config of a Prometheus holds the scrape job of
// every named ServiceMonitor.
func (cp *controlPlane) configHasMonitors(ns, prom string, monitors ...string) error {
	cfg, _, err := cp.config(ns, prom)
	if err != nil {
		return err
	}
	var missing []string
	for _, m := range monitors {
		if !strings.Contains(cfg, "job_name: serviceMonitor/"+ns+"/"+m+"/0\n") {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the config of %s/%s lacks %d ServiceMonitors: %v", ns, prom, len(missing), missing)
	}
	return nil
}

func (cp *controlPlane) prometheus(ns, name string) (*monitoringv1.Prometheus, error) {
	p := &monitoringv1.Prometheus{}
	return p, cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, p)
}

// reconciled returns the Reconciled condition of a Prometheus when it is for the current
// generation.
func (cp *controlPlane) reconciled(ns, name string) (*monitoringv1.Condition, error) {
	p, err := cp.prometheus(ns, name)
	if err != nil {
		return nil, err
	}
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		if c.Type == monitoringv1.Reconciled {
			if c.ObservedGeneration != p.Generation {
				return nil, fmt.Errorf("Reconciled is for generation %d, the Prometheus is at %d", c.ObservedGeneration, p.Generation)
			}
			return c, nil
		}
	}
	return nil, fmt.Errorf("Prometheus %s/%s has no Reconciled condition", ns, name)
}

func (cp *controlPlane) statefulSet(ns, name string) (*appsv1.StatefulSet, error) {
	s := &appsv1.StatefulSet{}
	return s, cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, s)
}

// poll calls f until it returns nil and returns how long that took; it fails the test
// when timeout passes first or when one of the operators exits unexpectedly.
func poll(t *testing.T, what string, timeout time.Duration, ops []*operator, f func() error) time.Duration {
	t.Helper()
	t0 := time.Now()
	var err error
	for {
		for _, o := range ops {
			if aerr := o.alive(); aerr != nil {
				t.Fatalf("%s: %v", what, aerr)
			}
		}
		if err = f(); err == nil {
			took := time.Since(t0)
			t.Logf("%-58s %8s", what, took.Round(time.Millisecond))
			return took
		}
		if time.Since(t0) > timeout {
			t.Fatalf("%s: still failing after %s: %v", what, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// quiet waits until every operator is idle and made no API write for window, and
// returns their write counts.
func quiet(t *testing.T, window, timeout time.Duration, ops ...*operator) []map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last []map[string]float64
	since := time.Now()
	for {
		var now []map[string]float64
		var busy error
		for _, o := range ops {
			if err := o.alive(); err != nil {
				t.Fatal(err)
			}
			w, err := o.writes()
			if err != nil {
				t.Fatal(err)
			}
			now = append(now, w)
			if err := o.idle(); err != nil {
				busy = err
			}
		}
		if busy != nil || last == nil || !sameWrites(last, now) {
			last, since = now, time.Now()
		} else if time.Since(since) >= window {
			return now
		}
		if time.Now().After(deadline) {
			t.Fatalf("operators not quiet after %s: %v", timeout, busy)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func sameWrites(a, b []map[string]float64) bool {
	for i := range a {
		if sum(a[i]) != sum(b[i]) {
			return false
		}
	}
	return true
}
