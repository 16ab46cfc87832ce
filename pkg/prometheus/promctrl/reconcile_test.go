package promctrl

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// fixture is a Reconciler over a fake client.
type fixture struct {
	t        testing.TB
	c        client.Client
	r        *Reconciler
	writes   *apply.Metrics
	store    *resourcestatus.Store
	recorder *events.FakeRecorder
}

func newFixture(t testing.TB, cfg Config, objs ...client.Object) *fixture {
	t.Helper()
	return newFixtureWith(t, cfg, interceptor.Funcs{}, objs...)
}

// newFixtureWith is newFixture with a client whose calls go through funcs first.
func newFixtureWith(t testing.TB, cfg Config, funcs interceptor.Funcs, objs ...client.Object) *fixture {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, rbacv1.AddToScheme, storagev1.AddToScheme, monitoringv1.AddToScheme, monitoringv1alpha1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	objs = append(objs, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "mon"}}, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}})
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(&monitoringv1.Prometheus{}, &monitoringv1alpha1.PrometheusAgent{}).WithInterceptorFuncs(funcs).Build()
	wm, _ := apply.NewMetrics(nil)
	clk := clocktesting.NewFakeClock(time.Unix(1_700_000_000, 0))
	store := resourcestatus.NewStore()
	rec := events.NewFakeRecorder(100)
	if cfg.Workload.PrometheusBaseImage == "" {
		cfg.Workload = workload.DefaultOptions()
	}
	r := New(Deps{Deps: instance.Deps{Client: c, APIReader: c, Applier: apply.New(c, wm, clk), Recorder: rec, Statuses: store, Clock: clk}}, cfg)
	return &fixture{t: t, c: c, r: r, writes: wm, store: store, recorder: rec}
}

func (f *fixture) reconcile(ns, name string) error {
	f.t.Helper()
	_, err := f.r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}})
	return err
}

func (f *fixture) totalWrites() float64 { return f.writes.Total() }

func (f *fixture) get(o client.Object, ns, name string) {
	f.t.Helper()
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, o); err != nil {
		f.t.Fatalf("reading %T %s/%s: %v", o, ns, name, err)
	}
}

func (f *fixture) config(name string) string {
	f.t.Helper()
	sec := &corev1.Secret{}
	f.get(sec, "mon", layout.Prometheus(name).ConfigSecret())
	return string(gunzipAll(f.t, sec.Data[layout.ConfigCompressedKey]))
}

func (f *fixture) condition(name string) monitoringv1.Condition {
	f.t.Helper()
	p := &monitoringv1.Prometheus{}
	f.get(p, "mon", name)
	for _, c := range p.Status.Conditions {
		if c.Type == monitoringv1.Reconciled {
			return c
		}
	}
	f.t.Fatalf("Prometheus %s has no Reconciled condition: %+v", name, p.Status.Conditions)
	return monitoringv1.Condition{}
}

func prom(name string, mut ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	p := &monitoringv1.Prometheus{
		ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, UID: types.UID("uid-" + name), Generation: 1},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			ServiceMonitorNamespaceSelector: &metav1.LabelSelector{},
		}, RuleSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}, RuleNamespaceSelector: &metav1.LabelSelector{}},
	}
	for _, m := range mut {
		m(p)
	}
	return p
}

func serviceMonitor(name string, mut ...func(*monitoringv1.ServiceMonitor)) *monitoringv1.ServiceMonitor {
	s := &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: name, UID: types.UID("uid-sm-" + name), Generation: 1, Labels: map[string]string{"team": "a"}},
		Spec:       monitoringv1.ServiceMonitorSpec{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}, Endpoints: []monitoringv1.Endpoint{{Port: "web"}}},
	}
	for _, m := range mut {
		m(s)
	}
	return s
}

func TestReconcileGeneratesThenWritesNothing(t *testing.T) {
	f := newFixture(t, Config{}, prom("p"), serviceMonitor("web"))
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if cfg := f.config("p"); !strings.Contains(cfg, "job_name: serviceMonitor/app/web/0") {
		t.Fatalf("config lacks the monitor's job:\n%s", cfg)
	}
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prometheus-p")
	if c := f.condition("p"); c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonReconciled {
		t.Fatalf("condition %+v", c)
	}
	vs, _ := f.store.Verdicts(monitoringv1.ServiceMonitorsKind, types.NamespacedName{Namespace: "app", Name: "web"})
	if v := vs[f.r.Owner(types.NamespacedName{Namespace: "mon", Name: "p"})]; v.Reason != selection.Accepted {
		t.Fatalf("verdict %+v", v)
	}
	before := f.totalWrites()
	if before == 0 {
		t.Fatal("no write counted")
	}
	for i := 0; i < 3; i++ {
		if err := f.reconcile("mon", "p"); err != nil {
			t.Fatal(err)
		}
	}
	if after := f.totalWrites(); after != before {
		t.Fatalf("%v writes with nothing changed", after-before)
	}
}

// TestReconcileRestoresEditedData: the config Secret's data and a rule ConfigMap's data
// replaced by someone who kept the hash annotation are written back by the next
// reconcile; the reconcile after that writes nothing.
func TestReconcileRestoresEditedData(t *testing.T) {
	rule := &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "r", UID: "uid-r", Generation: 1, Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{
			{Record: "r:one", Expr: intstr.FromString("vector(1)")},
		}}}},
	}
	f := newFixture(t, Config{}, prom("p"), serviceMonitor("web"), rule)
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	good := f.config("p")
	cm := &corev1.ConfigMap{}
	f.get(cm, "mon", layout.Prometheus("p").RuleConfigMap(0))
	goodRules := maps.Clone(cm.Data)

	sec := &corev1.Secret{}
	f.get(sec, "mon", layout.Prometheus("p").ConfigSecret())
	sec.Data[layout.ConfigCompressedKey] = []byte("not even gzip")
	cm.Data = map[string]string{"x.yaml": "groups: []"}
	for _, o := range []client.Object{sec, cm} {
		if err := f.c.Update(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	before := f.totalWrites()
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if got := f.config("p"); got != good {
		t.Fatalf("config not restored:\n%s", got)
	}
	f.get(cm, "mon", layout.Prometheus("p").RuleConfigMap(0))
	if !maps.Equal(cm.Data, goodRules) {
		t.Fatalf("rule ConfigMap not restored: %v", cm.Data)
	}
	if w := f.totalWrites() - before; w != 2 {
		t.Fatalf("%v writes, want 2 (the Secret and the ConfigMap)", w)
	}
	before = f.totalWrites()
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if w := f.totalWrites() - before; w != 0 {
		t.Fatalf("%v writes after the restore, want none", w)
	}
}

func TestReconcileReportsNameConflict(t *testing.T) {
	user := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "prometheus-p"}, Data: map[string][]byte{"mine": []byte("keep")}}
	f := newFixture(t, Config{}, prom("p"), user)
	err := f.reconcile("mon", "p")
	if err == nil || !apply.IsNotOwned(err) {
		t.Fatalf("want a name conflict, got %v", err)
	}
	c := f.condition("p")
	if c.Status != monitoringv1.ConditionFalse || c.Reason != ReasonNameConflict || !strings.Contains(c.Message, "prometheus-p") {
		t.Fatalf("condition %+v", c)
	}
	live := &corev1.Secret{}
	f.get(live, "mon", "prometheus-p")
	if string(live.Data["mine"]) != "keep" || len(live.Data) != 1 {
		t.Fatalf("the user's Secret was changed: %v", live.Data)
	}
	select {
	case e := <-f.recorder.Events:
		if !strings.Contains(e, ReasonNameConflict) {
			t.Fatalf("event %q", e)
		}
	default:
		t.Fatal("no event")
	}
}

func TestUnmanagedConfiguration(t *testing.T) {
	unmanaged := func(p *monitoringv1.Prometheus) {
		p.Spec.ServiceMonitorSelector, p.Spec.ServiceMonitorNamespaceSelector = nil, nil
	}
	t.Run("an existing Secret is the user's", func(t *testing.T) {
		user := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "prometheus-p"}, Data: map[string][]byte{"prometheus.yaml.gz": []byte("user's")}}
		f := newFixture(t, Config{}, prom("p", unmanaged), user)
		if err := f.reconcile("mon", "p"); err != nil {
			t.Fatal(err)
		}
		live := &corev1.Secret{}
		f.get(live, "mon", "prometheus-p")
		if string(live.Data["prometheus.yaml.gz"]) != "user's" {
			t.Fatal("the user's configuration was overwritten")
		}
		if c := f.condition("p"); c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonConfigurationUnmanaged {
			t.Fatalf("condition %+v", c)
		}
		ss := &appsv1.StatefulSet{}
		f.get(ss, "mon", "prometheus-p")
	})
	t.Run("a missing Secret is created empty", func(t *testing.T) {
		f := newFixture(t, Config{}, prom("p", unmanaged))
		if err := f.reconcile("mon", "p"); err != nil {
			t.Fatal(err)
		}
		if cfg := f.config("p"); cfg != "" {
			t.Fatalf("config %q, want empty", cfg)
		}
	})
	t.Run("disabled: generated", func(t *testing.T) {
		f := newFixture(t, Config{DisableUnmanagedConfiguration: true}, prom("p", unmanaged))
		if err := f.reconcile("mon", "p"); err != nil {
			t.Fatal(err)
		}
		if cfg := f.config("p"); !strings.Contains(cfg, "global:") {
			t.Fatalf("config %q, want a generated one", cfg)
		}
	})
}

func TestManaged(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		p    *monitoringv1.Prometheus
		want bool
	}{
		{"default", Config{}, prom("p"), true},
		{"controller id wanted, none set", Config{Config: instance.Config{ControllerID: "x"}}, prom("p"), false},
		{"controller id matches", Config{Config: instance.Config{ControllerID: "x"}}, prom("p", func(p *monitoringv1.Prometheus) {
			p.Annotations = map[string]string{layout.ControllerIDAnnotation: "x"}
		}), true},
		{"annotated for another instance", Config{}, prom("p", func(p *monitoringv1.Prometheus) {
			p.Annotations = map[string]string{layout.ControllerIDAnnotation: "y"}
		}), false},
		{"empty annotation is unassigned", Config{}, prom("p", func(p *monitoringv1.Prometheus) {
			p.Annotations = map[string]string{layout.ControllerIDAnnotation: ""}
		}), true},
		{"namespace not watched", Config{Config: instance.Config{Scope: selection.NewScope([]string{"other"})}}, prom("p"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(Deps{}, c.cfg)
			if got := r.Managed(c.p); got != c.want {
				t.Fatalf("managed = %v, want %v", got, c.want)
			}
		})
	}
}

func TestOwnerState(t *testing.T) {
	f := newFixture(t, Config{Config: instance.Config{ControllerID: "me"}},
		prom("mine", func(p *monitoringv1.Prometheus) {
			p.Annotations = map[string]string{layout.ControllerIDAnnotation: "me"}
		}),
		prom("theirs"))
	for name, want := range map[string]resourcestatus.OwnerState{"mine": resourcestatus.OwnerManaged, "theirs": resourcestatus.OwnerForeign, "gone": resourcestatus.OwnerGone} {
		got, err := f.r.OwnerState(context.Background(), resourcestatus.Owner{Resource: "prometheuses", Namespace: "mon", Name: name})
		if err != nil || got != want {
			t.Errorf("%s: state %v err %v, want %v", name, got, err, want)
		}
	}
}

func TestReconciledConditionTransitions(t *testing.T) {
	t0 := metav1.NewTime(time.Unix(1000, 0))
	t1 := metav1.NewTime(time.Unix(2000, 0))
	p := prom("p")
	c := reconciledCondition(promserver.Of(p), nil, t0)
	if c.Status != monitoringv1.ConditionTrue || c.LastTransitionTime != t0 {
		t.Fatalf("%+v", c)
	}
	p.Status.Conditions = []monitoringv1.Condition{c}
	if again := reconciledCondition(promserver.Of(p), nil, t1); again.LastTransitionTime != t0 {
		t.Fatal("an unchanged status moved its transition time")
	}
	failed := reconciledCondition(promserver.Of(p), invalid(errString("bad")), t1)
	if failed.Status != monitoringv1.ConditionFalse || failed.Reason != ReasonInvalidConfiguration || failed.LastTransitionTime != t1 {
		t.Fatalf("%+v", failed)
	}
	paused := reconciledCondition(promserver.Of(p), &note{Reason: ReasonPaused, Message: "paused"}, t1)
	if paused.Status != monitoringv1.ConditionTrue || paused.Reason != ReasonPaused || paused.LastTransitionTime != t0 {
		t.Fatalf("%+v", paused)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// API-watch mode never binds the config-reading Role to the namespace's default service
// account: without spec.serviceAccountName the reloader reads the volume, no Role is
// made, and the condition says why; with one, the Role is bound to it.
func TestAPIWatchNeedsOwnServiceAccount(t *testing.T) {
	cfg := Config{Config: instance.Config{Workload: workload.DefaultOptions()}}
	cfg.Workload.ReloaderWatchAPI = true
	f := newFixture(t, cfg, prom("p"))
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if c := f.condition("p"); c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonAPIWatchNeedsServiceAccount {
		t.Fatalf("condition %+v", c)
	}
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prometheus-p")
	for _, c := range ss.Spec.Template.Spec.Containers {
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--watch-secret") {
				t.Fatalf("container %s watches the API: %s", c.Name, a)
			}
		}
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: promplan.ReloaderRoleName(promserver.Of(prom("p")))}, &rbacv1.RoleBinding{}); err == nil {
		t.Fatal("a RoleBinding was created for the default service account")
	}

	p := &monitoringv1.Prometheus{}
	f.get(p, "mon", "p")
	p.Spec.ServiceAccountName = "prom"
	p.Generation = 2
	if err := f.c.Update(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	rb := &rbacv1.RoleBinding{}
	f.get(rb, "mon", promplan.ReloaderRoleName(promserver.Of(p)))
	if len(rb.Subjects) != 1 || rb.Subjects[0].Name != "prom" {
		t.Fatalf("subjects %+v", rb.Subjects)
	}
	if c := f.condition("p"); c.Reason != ReasonReconciled {
		t.Fatalf("condition %+v", c)
	}
	// Back to no service account: the Role and RoleBinding go.
	f.get(p, "mon", "p")
	p.Spec.ServiceAccountName = ""
	p.Generation = 3
	if err := f.c.Update(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: promplan.ReloaderRoleName(promserver.Of(p))}, &rbacv1.Role{}); err == nil {
		t.Fatal("the Role outlived API-watch mode")
	}
}

// The operator-wide labels and annotations reach every generated object, never replace
// the operator's own, and a change of them rewrites the objects.
func TestOperatorWideLabels(t *testing.T) {
	cfg := Config{Config: instance.Config{Labels: map[string]string{"team": "platform", "app.kubernetes.io/managed-by": "someone"}, Annotations: map[string]string{"note": "x"}}}
	f := newFixture(t, cfg, prom("p"))
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	for _, o := range []client.Object{&corev1.Secret{}, &appsv1.StatefulSet{}} {
		f.get(o, "mon", "prometheus-p")
		if o.GetLabels()["team"] != "platform" || o.GetAnnotations()["note"] != "x" || o.GetLabels()["app.kubernetes.io/managed-by"] != layout.ManagedByValue {
			t.Fatalf("%T labels %v annotations %v", o, o.GetLabels(), o.GetAnnotations())
		}
	}
	before := f.totalWrites()
	f.r.cfg.Labels = map[string]string{"team": "data"}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prometheus-p")
	if ss.Labels["team"] != "data" || f.totalWrites() == before {
		t.Fatalf("a new label value was not written: %v", ss.Labels)
	}
}

// TestInvalidSelectorNamesField: a selector the Prometheus cannot use fails the reconcile
// with InvalidConfiguration and a message naming the spec field, as every other problem
// of the spec does.
func TestInvalidSelectorNamesField(t *testing.T) {
	near := []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}
	cases := []struct {
		mut  func(*monitoringv1.Prometheus)
		want string
	}{
		{func(p *monitoringv1.Prometheus) { p.Spec.ServiceMonitorSelector.MatchExpressions = near },
			`spec.serviceMonitorSelector or spec.serviceMonitorNamespaceSelector: invalid ServiceMonitor selector: "Near" is not a valid label selector operator`},
		{func(p *monitoringv1.Prometheus) { p.Spec.RuleNamespaceSelector.MatchExpressions = near },
			`spec.ruleSelector or spec.ruleNamespaceSelector: invalid PrometheusRule namespace selector`},
		{func(p *monitoringv1.Prometheus) {
			p.Spec.ScrapeConfigSelector = &metav1.LabelSelector{MatchExpressions: near}
		},
			`spec.scrapeConfigSelector or spec.scrapeConfigNamespaceSelector: invalid ScrapeConfig selector`},
	}
	for _, c := range cases {
		f := newFixture(t, Config{}, prom("p", c.mut))
		if err := f.reconcile("mon", "p"); err == nil {
			t.Fatalf("reconcile succeeded; want %q", c.want)
		}
		if cond := f.condition("p"); cond.Reason != ReasonInvalidConfiguration || !strings.Contains(cond.Message, c.want) {
			t.Errorf("condition %s %q, want InvalidConfiguration …%s…", cond.Reason, cond.Message, c.want)
		}
	}
}

// TestStorageClassIsChecked: a volumeClaimTemplate naming a StorageClass that does not
// exist is refused before anything is written, as prometheus-operator does.
func TestStorageClassIsChecked(t *testing.T) {
	f := newFixture(t, Config{}, prom("main", func(p *monitoringv1.Prometheus) {
		p.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
			Spec: corev1.PersistentVolumeClaimSpec{StorageClassName: ptr.To("fast")},
		}}
	}))
	f.r.StorageClasses = f.c
	if err := f.reconcile("mon", "main"); err == nil {
		t.Fatal("reconciled with a missing storage class")
	}
	c := f.condition("main")
	if c.Status != monitoringv1.ConditionFalse || c.Reason != ReasonInvalidConfiguration || !strings.Contains(c.Message, `storage class "fast" does not exist`) {
		t.Errorf("Reconciled %+v", c)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prometheus-main"}, &corev1.Secret{}); err == nil {
		t.Error("the config Secret was written")
	}
}
