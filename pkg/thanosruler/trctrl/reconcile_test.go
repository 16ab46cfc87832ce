package trctrl

import (
	"context"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/instance/instancetest"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// fixture is a Reconciler over a fake client.
type fixture struct {
	t      *testing.T
	c      client.Client
	r      *Reconciler
	writes *apply.Metrics
	store  *resourcestatus.Store
}

func newFixture(t *testing.T, cfg Config, objs ...client.Object) *fixture {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, rbacv1.AddToScheme, monitoringv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	objs = append(objs,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "mon"}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app", Labels: map[string]string{"tenant": "yes"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "other"}})
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(&monitoringv1.ThanosRuler{}).Build()
	wm, _ := apply.NewMetrics(nil)
	clk := clocktesting.NewFakeClock(time.Unix(1_700_000_000, 0))
	store := resourcestatus.NewStore()
	if cfg.Workload.ThanosBaseImage == "" {
		cfg.Workload = workload.DefaultOptions()
	}
	r := New(Deps{Client: c, APIReader: c, Applier: apply.New(c, wm, clk), Recorder: events.NewFakeRecorder(100), Statuses: store, Clock: clk}, cfg)
	return &fixture{t: t, c: c, r: r, writes: wm, store: store}
}

func (f *fixture) reconcile() error {
	f.t.Helper()
	_, err := f.r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "mon", Name: "tr"}})
	return err
}

func (f *fixture) get(o client.Object, ns, name string) {
	f.t.Helper()
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, o); err != nil {
		f.t.Fatalf("reading %T %s/%s: %v", o, ns, name, err)
	}
}

func (f *fixture) exists(o client.Object, ns, name string) bool {
	return f.c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, o) == nil
}

func (f *fixture) condition(typ monitoringv1.ConditionType) monitoringv1.Condition {
	f.t.Helper()
	t := &monitoringv1.ThanosRuler{}
	f.get(t, "mon", "tr")
	for _, c := range t.Status.Conditions {
		if c.Type == typ {
			return c
		}
	}
	f.t.Fatalf("ThanosRuler has no %s condition: %+v", typ, t.Status.Conditions)
	return monitoringv1.Condition{}
}

// ruleFiles returns the rule files of the ThanosRuler across its rule ConfigMaps.
func (f *fixture) ruleFiles() map[string]string {
	out := map[string]string{}
	for i := 0; ; i++ {
		cm := &corev1.ConfigMap{}
		if !f.exists(cm, "mon", layout.ThanosRuler("tr").RuleConfigMap(i)) {
			return out
		}
		for k, v := range cm.Data {
			out[k] = v
		}
	}
}

// allRules joins every rule file.
func (f *fixture) allRules() string {
	var b strings.Builder
	for _, v := range f.ruleFiles() {
		b.WriteString(v)
	}
	return b.String()
}

func (f *fixture) verdict(ns, name string) selection.Verdict {
	vs, _ := f.store.Verdicts(monitoringv1.PrometheusRuleKind, types.NamespacedName{Namespace: ns, Name: name})
	return vs[resourcestatus.Owner{Resource: "thanosrulers", Namespace: "mon", Name: "tr"}]
}

func thanosRuler(mut ...func(*monitoringv1.ThanosRuler)) *monitoringv1.ThanosRuler {
	t := &monitoringv1.ThanosRuler{
		ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "tr", UID: "uid-tr", Generation: 1},
		Spec: monitoringv1.ThanosRulerSpec{
			QueryEndpoints:        []string{"http://thanos-query:9090"},
			AlertManagersURL:      []string{"http://alertmanager-operated:9093"},
			RuleSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			RuleNamespaceSelector: &metav1.LabelSelector{},
		},
	}
	for _, m := range mut {
		m(t)
	}
	return t
}

func rule(ns, name, expr string, mut ...func(*monitoringv1.PrometheusRule)) *monitoringv1.PrometheusRule {
	r := &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), Generation: 1, Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: "g-" + name, Rules: []monitoringv1.Rule{
			{Alert: "Down", Expr: intstr.FromString(expr)},
		}}}},
	}
	for _, m := range mut {
		m(r)
	}
	return r
}

// The generated objects carry upstream's names, the rule ConfigMaps its label, the status
// says Reconciled and Available, and the selected rules are bound under thanosrulers; a
// second reconcile with nothing changed writes nothing.
func TestReconcileObjectsNamesAndNoRewrite(t *testing.T) {
	f := newFixture(t, Config{}, thanosRuler(), rule("app", "r", "up == 0"),
		rule("app", "other-team", "up == 0", func(r *monitoringv1.PrometheusRule) { r.Labels = map[string]string{"team": "b"} }))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "mon", "thanos-ruler-tr")
	if sts.OwnerReferences[0].Kind != "ThanosRuler" || sts.OwnerReferences[0].UID != "uid-tr" {
		t.Errorf("owner %+v", sts.OwnerReferences)
	}
	args := strings.Join(sts.Spec.Template.Spec.Containers[0].Args, " ")
	for _, want := range []string{"rule ", "--query=http://thanos-query:9090", "--alertmanagers.url=http://alertmanager-operated:9093", "--rule-file=/etc/thanos/rules/*/*.yaml"} {
		if !strings.Contains(args, want) {
			t.Errorf("no %q in %s", want, args)
		}
	}
	svc := &corev1.Service{}
	f.get(svc, "mon", "thanos-ruler-operated")
	if len(svc.Spec.Ports) != 2 || svc.Spec.Ports[1].Port != 10901 || svc.Spec.Ports[0].Port != 10902 {
		t.Errorf("service ports %+v", svc.Spec.Ports)
	}
	cm := &corev1.ConfigMap{}
	f.get(cm, "mon", "thanos-ruler-tr-rulefiles-0")
	if cm.Labels["thanos-ruler-name"] != "tr" || len(cm.Data) != 1 {
		t.Errorf("rule ConfigMap labels %v, data keys %d", cm.Labels, len(cm.Data))
	}
	for _, name := range []string{"thanos-ruler-tr-config", "thanos-ruler-tr-web-config"} {
		if !f.exists(&corev1.Secret{}, "mon", name) {
			t.Errorf("no Secret %s", name)
		}
	}
	if c := f.condition(monitoringv1.Reconciled); c.Status != monitoringv1.ConditionTrue || c.Reason != outcome.ReasonReconciled || c.ObservedGeneration != 1 {
		t.Errorf("Reconciled %+v", c)
	}
	if c := f.condition(monitoringv1.Available); c.Status != monitoringv1.ConditionFalse {
		t.Errorf("Available %+v (no pod runs under the fake client)", c)
	}
	if v := f.verdict("app", "r"); v.Reason != selection.Accepted {
		t.Errorf("verdict of the selected rule %+v", v)
	}
	if v := f.verdict("app", "other-team"); v.Used() {
		t.Errorf("verdict of the unselected rule %+v", v)
	}

	before := f.writes.Total()
	for range 3 {
		if err := f.reconcile(); err != nil {
			t.Fatal(err)
		}
	}
	if after := f.writes.Total(); after != before {
		t.Errorf("%v writes with nothing changed", after-before)
	}
}

// Namespace enforcement rewrites the selected rules unless they are excluded, and the
// groups keep their partial_response_strategy.
func TestRulesEnforcementAndPartialResponse(t *testing.T) {
	tr := thanosRuler(func(t *monitoringv1.ThanosRuler) {
		t.Spec.EnforcedNamespaceLabel = "namespace"
		t.Spec.ExcludedFromEnforcement = []monitoringv1.ObjectReference{{Resource: monitoringv1.PrometheusRuleName, Namespace: "other", Name: "free"}}
	})
	enforced := rule("app", "r", `up{job="api"} == 0`, func(r *monitoringv1.PrometheusRule) {
		r.Spec.Groups[0].PartialResponseStrategy = "warn"
	})
	free := rule("other", "free", `up{job="x"} == 0`)
	f := newFixture(t, Config{}, tr, enforced, free)
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	files := f.ruleFiles()
	var app, other string
	for k, v := range files {
		switch {
		case strings.HasPrefix(k, "app-r-"):
			app = v
		case strings.HasPrefix(k, "other-free-"):
			other = v
		}
	}
	if !strings.Contains(app, `up{job="api",namespace="app"} == 0`) || !strings.Contains(app, "namespace: app") {
		t.Errorf("enforced rule:\n%s", app)
	}
	if !strings.Contains(app, "partial_response_strategy: warn") {
		t.Errorf("partial_response_strategy lost:\n%s", app)
	}
	if other == "" || strings.Contains(other, `namespace="other"`) || strings.Contains(other, "namespace: other") {
		t.Errorf("excluded rule:\n%s", other)
	}
}

// A rule whose new version is invalid stays served in its last accepted version, and
// its status says so; a new rule that is invalid is left out.
func TestBadRuleKeepsLastGood(t *testing.T) {
	f := newFixture(t, Config{}, thanosRuler(), rule("app", "r", "up == 0"))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	good := f.allRules()
	r := &monitoringv1.PrometheusRule{}
	f.get(r, "app", "r")
	r.Spec.Groups[0].Rules[0].Expr = intstr.FromString("up ==")
	r.Generation = 2
	if err := f.c.Update(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	bad := rule("app", "bad", "sum(")
	if err := f.c.Create(context.Background(), bad); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if got := f.allRules(); got != good {
		t.Errorf("served rules changed:\n%s\nwant\n%s", got, good)
	}
	v := f.verdict("app", "r")
	if v.Reason != selection.InvalidConfiguration || !strings.HasSuffix(v.Message, "; still serving generation 1, the last accepted version") {
		t.Errorf("verdict %+v", v)
	}
	if v := f.verdict("app", "bad"); v.Reason != selection.InvalidConfiguration || !strings.Contains(v.Message, "spec.groups[0].rules[0].expr") {
		t.Errorf("verdict of the new bad rule %+v", v)
	}
	if c := f.condition(monitoringv1.Reconciled); c.Status != monitoringv1.ConditionTrue {
		t.Errorf("a bad rule broke the ThanosRuler: %+v", c)
	}
}

// Specs the ruler cannot run are refused with a message saying why, and nothing is
// written; the message is the Reconciled condition's.
func TestRefusedSpecs(t *testing.T) {
	querySecret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "q"}, Data: map[string][]byte{"other.yaml": []byte("x")}}
	cases := []struct {
		name string
		mut  func(*monitoringv1.ThanosRuler)
		want string
	}{
		{"no query endpoint and no query config", func(t *monitoringv1.ThanosRuler) { t.Spec.QueryEndpoints = nil },
			"thanosruler mon/tr: spec.queryEndpoints and spec.queryConfig are both empty: a Thanos Ruler evaluates its rules through a Thanos Query API, give at least one query endpoint or a query configuration"},
		{"missing Secret key", func(t *monitoringv1.ThanosRuler) {
			t.Spec.QueryConfig = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "q"}, Key: "query.yaml"}
		}, `spec.queryConfig: secret mon/q has no key "query.yaml": not found`},
		{"missing Secret", func(t *monitoringv1.ThanosRuler) {
			t.Spec.ObjectStorageConfig = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "objstore"}, Key: "objstore.yml"}
		}, `spec.objectStorageConfig: secret mon/objstore: not found`},
		{"bad rule selector", func(t *monitoringv1.ThanosRuler) {
			t.Spec.RuleSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Sometimes"}}}
		}, "spec.ruleSelector or spec.ruleNamespaceSelector: "},
		{"bad remote write", func(t *monitoringv1.ThanosRuler) {
			t.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "receive:19291"}}
		}, `spec.remoteWrite[0]: url "receive:19291" must be absolute with a scheme and a host`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, Config{}, thanosRuler(c.mut), rule("app", "r", "up == 0"), querySecret)
			err := f.reconcile()
			if err == nil {
				t.Fatal("no error")
			}
			cond := f.condition(monitoringv1.Reconciled)
			if cond.Status != monitoringv1.ConditionFalse || cond.Reason != outcome.ReasonInvalidConfiguration {
				t.Fatalf("condition %+v", cond)
			}
			if c.name == "bad rule selector" {
				if !strings.HasPrefix(cond.Message, c.want) {
					t.Fatalf("message %q, want prefix %q", cond.Message, c.want)
				}
			} else if cond.Message != c.want {
				t.Fatalf("message %q\nwant    %q", cond.Message, c.want)
			}
			if f.exists(&appsv1.StatefulSet{}, "mon", "thanos-ruler-tr") {
				t.Error("a StatefulSet was written for a refused spec")
			}
		})
	}
}

// Remote write: the configuration Secret holds the remote_write list with the
// credentials inlined, the TLS files go to the TLS assets Secret, and the ruler is given
// the file (stateless mode).
func TestRemoteWrite(t *testing.T) {
	auth := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "rw"}, Data: map[string][]byte{"user": []byte("u"), "password": []byte("p4ss"), "ca.crt": []byte(testCA)}}
	tr := thanosRuler(func(t *monitoringv1.ThanosRuler) {
		t.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{
			URL: "https://receive.example.com/api/v1/receive",
			BasicAuth: &monitoringv1.BasicAuth{
				Username: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "rw"}, Key: "user"},
				Password: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "rw"}, Key: "password"},
			},
			TLSConfig: &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{
				Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "rw"}, Key: "ca.crt"}}}},
		}}
	})
	f := newFixture(t, Config{}, tr, auth)
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	sec := &corev1.Secret{}
	f.get(sec, "mon", "thanos-ruler-tr-config")
	cfg := string(sec.Data["remote-write.yaml"])
	for _, want := range []string{"url: https://receive.example.com/api/v1/receive", "password: p4ss", "ca_file: /etc/thanos/certs/secret_mon_rw_ca.crt"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("no %q in\n%s", want, cfg)
		}
	}
	tls := &corev1.Secret{}
	f.get(tls, "mon", "thanos-ruler-tr-tls-assets-0")
	if string(tls.Data["secret_mon_rw_ca.crt"]) != testCA {
		t.Errorf("TLS assets %v", tls.Data)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "mon", "thanos-ruler-tr")
	if args := strings.Join(sts.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "--remote-write.config-file=/etc/thanos/config/remote-write-config/remote-write.yaml") {
		t.Errorf("args %s", args)
	}

	// The password changes: the Secret follows.
	auth.Data["password"] = []byte("n3w-pass")
	if err := f.c.Update(context.Background(), auth); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	f.get(sec, "mon", "thanos-ruler-tr-config")
	if !strings.Contains(string(sec.Data["remote-write.yaml"]), "password: n3w-pass") {
		t.Errorf("remote write config not updated:\n%s", sec.Data["remote-write.yaml"])
	}
}

// An old Thanos without remote write is reconciled, and its rules are judged by that
// release.
func TestOldThanosVersion(t *testing.T) {
	tr := thanosRuler(func(t *monitoringv1.ThanosRuler) { t.Spec.Version = ptr.To("v0.29.0") })
	keep := rule("app", "r", "up == 0", func(r *monitoringv1.PrometheusRule) {
		r.Spec.Groups[0].Rules[0].KeepFiringFor = ptr.To(monitoringv1.NonEmptyDuration("5m"))
	})
	f := newFixture(t, Config{}, tr, keep, rule("app", "ok", "up == 0"))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if c := f.condition(monitoringv1.Reconciled); c.Status != monitoringv1.ConditionTrue {
		t.Fatalf("condition %+v", c)
	}
	if v := f.verdict("app", "r"); v.Reason != selection.InvalidConfiguration || !strings.Contains(v.Message, `field "keep_firing_for" needs Thanos 0.34.0 or later; this Thanos Ruler runs 0.29.0`) {
		t.Errorf("verdict %+v", v)
	}
	if v := f.verdict("app", "ok"); v.Reason != selection.Accepted {
		t.Errorf("verdict %+v", v)
	}
	sec := &corev1.Secret{}
	f.get(sec, "mon", "thanos-ruler-tr-config")
	if got := string(sec.Data["remote-write.yaml"]); got != "remote_write: []\n" {
		t.Errorf("remote-write.yaml %q", got)
	}
}

// Remote write on Thanos v0.24 to v0.31, whose remote-write client is older than any
// Prometheus Lookout checks remote write for, is accepted as prometheus-operator accepts
// it (the file without the fields those releases do not read, and the flag), and the
// Reconciled condition says what was left out and that the rest is unchecked.
func TestRemoteWriteOldThanos(t *testing.T) {
	tr := thanosRuler(func(t *monitoringv1.ThanosRuler) {
		t.Spec.Version = ptr.To("v0.29.0")
		t.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "https://receive.example.com/api/v1/receive", SendNativeHistograms: ptr.To(true)}}
	})
	f := newFixture(t, Config{}, tr, rule("app", "ok", "up == 0"))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	c := f.condition(monitoringv1.Reconciled)
	if c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonRemoteWriteWarnings ||
		!strings.Contains(c.Message, "spec.remoteWrite[0].sendNativeHistograms left out: Thanos releases before v0.30.0 do not read it") ||
		!strings.Contains(c.Message, "remote-write client of Prometheus v2.38.0, older than v2.45.0") {
		t.Fatalf("condition %+v", c)
	}
	sec := &corev1.Secret{}
	f.get(sec, "mon", "thanos-ruler-tr-config")
	if cfg := string(sec.Data["remote-write.yaml"]); !strings.Contains(cfg, "url: https://receive.example.com/api/v1/receive") || strings.Contains(cfg, "send_native_histograms") {
		t.Errorf("remote-write.yaml\n%s", cfg)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "mon", "thanos-ruler-tr")
	if args := strings.Join(sts.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "--remote-write.config-file=") {
		t.Errorf("args %s", args)
	}
}

// A ThanosRuler outside the instance selector, or selecting no rule, is handled as
// upstream handles it.
func TestInstanceSelectorAndNoRules(t *testing.T) {
	sel, _ := labels.Parse("ruler=mine")
	f := newFixture(t, Config{Config: instance.Config{InstanceSelector: sel}}, thanosRuler())
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if f.exists(&appsv1.StatefulSet{}, "mon", "thanos-ruler-tr") {
		t.Fatal("a ThanosRuler outside the instance selector was reconciled")
	}

	f = newFixture(t, Config{}, thanosRuler())
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if c := f.condition(monitoringv1.Reconciled); c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonNoSelectedRules {
		t.Errorf("condition %+v", c)
	}
}

// Rule ConfigMaps beyond what the rules need are deleted once the StatefulSet is written.
func TestSurplusRuleConfigMapsDeleted(t *testing.T) {
	stale := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "thanos-ruler-tr-rulefiles-3",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "monitoring.coreos.com/v1", Kind: "ThanosRuler", Name: "tr", UID: "uid-tr"}}}}
	foreign := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "thanos-ruler-tr-rulefiles-4"}}
	f := newFixture(t, Config{}, thanosRuler(), rule("app", "r", "up == 0"), stale, foreign)
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if f.exists(&corev1.ConfigMap{}, "mon", stale.Name) {
		t.Error("the surplus rule ConfigMap is still there")
	}
	if !f.exists(&corev1.ConfigMap{}, "mon", foreign.Name) {
		t.Error("a ConfigMap the ThanosRuler does not own was deleted")
	}
}

// testCA is a self-signed CA certificate, PEM-encoded.
var testCA = instancetest.CA()
