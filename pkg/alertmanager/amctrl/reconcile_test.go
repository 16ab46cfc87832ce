package amctrl

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

type fixture struct {
	t      *testing.T
	c      client.Client
	r      *Reconciler
	writes *apply.Metrics
}

func newFixture(t *testing.T, cfg Config, gen ConfigGenerator, objs ...client.Object) *fixture {
	t.Helper()
	return newFixtureWith(t, cfg, gen, interceptor.Funcs{}, objs...)
}

// newFixtureWith is newFixture with a client whose calls go through funcs first.
func newFixtureWith(t *testing.T, cfg Config, gen ConfigGenerator, funcs interceptor.Funcs, objs ...client.Object) *fixture {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, rbacv1.AddToScheme, storagev1.AddToScheme, monitoringv1.AddToScheme, monitoringv1alpha1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	objs = append(objs, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "mon"}})
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(&monitoringv1.Alertmanager{}).WithInterceptorFuncs(funcs).Build()
	wm, _ := apply.NewMetrics(nil)
	clk := clocktesting.NewFakeClock(time.Unix(1_700_000_000, 0))
	if cfg.Workload.AlertmanagerBaseImage == "" {
		cfg.Workload = workload.DefaultOptions()
	}
	r := New(Deps{Deps: instance.Deps{Client: c, APIReader: c, Applier: apply.New(c, wm, clk), Clock: clk}, Generator: gen}, cfg)
	return &fixture{t: t, c: c, r: r, writes: wm}
}

func (f *fixture) reconcile(name string) error {
	f.t.Helper()
	_, err := f.r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "mon", Name: name}})
	return err
}

func (f *fixture) get(o client.Object, name string) {
	f.t.Helper()
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: name}, o); err != nil {
		f.t.Fatalf("reading %T %s: %v", o, name, err)
	}
}

func (f *fixture) generated(name string) (string, map[string][]byte) {
	f.t.Helper()
	sec := &corev1.Secret{}
	f.get(sec, layout.Alertmanager(name).GeneratedSecret())
	zr, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.AlertmanagerConfigCompressedKey]))
	if err != nil {
		f.t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b), sec.Data
}

func (f *fixture) condition(name string, typ monitoringv1.ConditionType) monitoringv1.Condition {
	f.t.Helper()
	a := &monitoringv1.Alertmanager{}
	f.get(a, name)
	for _, c := range a.Status.Conditions {
		if c.Type == typ {
			return c
		}
	}
	f.t.Fatalf("Alertmanager %s has no %s condition: %+v", name, typ, a.Status.Conditions)
	return monitoringv1.Condition{}
}

func alertmanager(name string, mut ...func(*monitoringv1.Alertmanager)) *monitoringv1.Alertmanager {
	a := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, UID: types.UID("uid-" + name), Generation: 1}}
	for _, m := range mut {
		m(a)
	}
	return a
}

func configSecret(name, cfg string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name},
		Data: map[string][]byte{"alertmanager.yaml": []byte(cfg), "mail.tmpl": []byte("{{ define \"x\" }}{{ end }}")}}
}

func TestReconcileWritesEverythingThenNothing(t *testing.T) {
	userCfg := "route:\n  receiver: team\nreceivers:\n- name: team\n"
	f := newFixture(t, Config{}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To[int32](3) }), configSecret("alertmanager-main", userCfg))
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	cfg, data := f.generated("main")
	if cfg != userCfg {
		t.Errorf("generated config %q, want the user's %q", cfg, userCfg)
	}
	if string(data["mail.tmpl"]) == "" {
		t.Error("the config Secret's other keys are not copied")
	}
	for _, name := range []string{"alertmanager-main-tls-assets-0", "alertmanager-main-web-config"} {
		f.get(&corev1.Secret{}, name)
	}
	svc := &corev1.Service{}
	f.get(svc, "alertmanager-operated")
	if len(svc.OwnerReferences) != 1 || svc.OwnerReferences[0].UID != "uid-main" {
		t.Errorf("Service owners %+v", svc.OwnerReferences)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "alertmanager-main")
	if *sts.Spec.Replicas != 3 || !slices.Contains(sts.Spec.Template.Spec.Containers[0].Args, "--cluster.peer=alertmanager-main-2.alertmanager-operated:9094") {
		t.Errorf("StatefulSet replicas %d args %v", *sts.Spec.Replicas, sts.Spec.Template.Spec.Containers[0].Args)
	}
	if !metav1.IsControlledBy(sts, alertmanager("main")) {
		t.Errorf("StatefulSet owners %+v", sts.OwnerReferences)
	}
	if c := f.condition("main", monitoringv1.Reconciled); c.Status != monitoringv1.ConditionTrue {
		t.Errorf("Reconciled %+v", c)
	}
	a := &monitoringv1.Alertmanager{}
	f.get(a, "main")
	if a.Status.Selector != amplan.AlertmanagerSelector(a) {
		t.Errorf("status.selector %q", a.Status.Selector)
	}

	before := f.writes.Total()
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	if after := f.writes.Total(); after != before {
		t.Errorf("a resync wrote %v objects", after-before)
	}
}

func TestDefaultConfigWithoutSecret(t *testing.T) {
	f := newFixture(t, Config{}, nil, alertmanager("main"))
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	// prometheus-operator's default: every alert goes to a receiver that does nothing.
	cfg, _ := f.generated("main")
	if !strings.Contains(cfg, "receiver: \"null\"") || !strings.Contains(cfg, "- name: \"null\"") {
		t.Errorf("generated %q", cfg)
	}
}

func TestInvalidConfigKeepsTheLastGoodSecret(t *testing.T) {
	good := "route:\n  receiver: a\nreceivers:\n- name: a\n"
	sec := configSecret("custom", good)
	f := newFixture(t, Config{}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) { a.Spec.ConfigSecret = "custom" }), sec)
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	lastGood, _ := f.generated("main")
	if !strings.Contains(lastGood, "receiver: a") {
		t.Fatalf("generated %q from %q", lastGood, good)
	}
	f.get(sec, "custom")
	sec.Data["alertmanager.yaml"] = []byte("route: [unclosed")
	if err := f.c.Update(context.Background(), sec); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("main"); err == nil {
		t.Fatal("an invalid config reconciled without error")
	}
	if cfg, _ := f.generated("main"); cfg != lastGood {
		t.Errorf("the generated Secret changed to %q", cfg)
	}
	c := f.condition("main", monitoringv1.Reconciled)
	if c.Status != monitoringv1.ConditionFalse || c.Reason != outcome.ReasonInvalidConfiguration || !strings.Contains(c.Message, "does not load") {
		t.Errorf("Reconciled %+v", c)
	}
}

type failing struct{}

func (failing) Generate(context.Context, GenInput) (GenResult, error) {
	return GenResult{}, errors.New("receiver x: no such receiver")
}

func TestGeneratorIsPluggable(t *testing.T) {
	f := newFixture(t, Config{}, failing{}, alertmanager("main"))
	if err := f.reconcile("main"); err == nil || !strings.Contains(err.Error(), "no such receiver") {
		t.Fatalf("got %v", err)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "alertmanager-main"}, &appsv1.StatefulSet{}); err == nil {
		t.Error("a StatefulSet was written without a configuration")
	}
}

func TestPausedAndNotManaged(t *testing.T) {
	f := newFixture(t, Config{Config: instance.Config{InstanceSelector: labels.SelectorFromSet(labels.Set{"team": "a"})}}, nil,
		alertmanager("paused", func(a *monitoringv1.Alertmanager) { a.Spec.Paused = true; a.Labels = map[string]string{"team": "a"} }),
		alertmanager("other", func(a *monitoringv1.Alertmanager) { a.Labels = map[string]string{"team": "b"} }),
		alertmanager("foreign", func(a *monitoringv1.Alertmanager) {
			a.Labels = map[string]string{"team": "a"}
			a.Annotations = map[string]string{layout.ControllerIDAnnotation: "x"}
		}))
	for _, n := range []string{"paused", "other", "foreign"} {
		if err := f.reconcile(n); err != nil {
			t.Fatal(err)
		}
		if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "alertmanager-" + n}, &appsv1.StatefulSet{}); err == nil {
			t.Errorf("%s: StatefulSet written", n)
		}
	}
	if c := f.condition("paused", monitoringv1.Reconciled); c.Reason != outcome.ReasonPaused || c.Status != monitoringv1.ConditionTrue {
		t.Errorf("paused: %+v", c)
	}
	a := &monitoringv1.Alertmanager{}
	f.get(a, "other")
	if len(a.Status.Conditions) != 0 {
		t.Errorf("an Alertmanager of another instance got a status: %+v", a.Status)
	}
}

func TestInvalidSpecIsReported(t *testing.T) {
	f := newFixture(t, Config{}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) { a.Spec.Retention = "5d" }))
	if err := f.reconcile("main"); err == nil {
		t.Fatal("no error")
	}
	if c := f.condition("main", monitoringv1.Reconciled); c.Reason != outcome.ReasonInvalidConfiguration || !strings.Contains(c.Message, "spec.retention") {
		t.Errorf("Reconciled %+v", c)
	}
}

func TestSelectsAlertmanagerConfigs(t *testing.T) {
	var got []string
	gen := genFunc(func(_ context.Context, in GenInput) (GenResult, error) {
		for _, c := range in.AlertmanagerConfigs {
			got = append(got, c.Namespace+"/"+c.Name)
		}
		return NewGenerated().Generate(context.Background(), in)
	})
	amc := func(name string, l map[string]string) *monitoringv1alpha1.AlertmanagerConfig {
		return &monitoringv1alpha1.AlertmanagerConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, Labels: l}}
	}
	f := newFixture(t, Config{}, gen, alertmanager("main", func(a *monitoringv1.Alertmanager) {
		a.Spec.AlertmanagerConfigSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"am": "main"}}
	}), amc("b", map[string]string{"am": "main"}), amc("a", map[string]string{"am": "main"}), amc("c", map[string]string{"am": "other"}))
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"mon/a", "mon/b"}) {
		t.Errorf("selected %v", got)
	}
}

type genFunc func(context.Context, GenInput) (GenResult, error)

func (g genFunc) Generate(ctx context.Context, in GenInput) (GenResult, error) { return g(ctx, in) }

func TestCustomServiceIsChecked(t *testing.T) {
	a := alertmanager("main", func(a *monitoringv1.Alertmanager) { a.Spec.ServiceName = ptr.To("mine") })
	f := newFixture(t, Config{}, nil, a)
	if err := f.reconcile("main"); err == nil || !strings.Contains(err.Error(), "Service mon/mine does not exist") {
		t.Fatalf("got %v", err)
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "mine"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"alertmanager": "main"}}}
	if err := f.c.Create(context.Background(), svc); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "alertmanager-main")
	if sts.Spec.ServiceName != "mine" {
		t.Errorf("serviceName %q", sts.Spec.ServiceName)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "alertmanager-operated"}, &corev1.Service{}); err == nil {
		t.Error("alertmanager-operated created although spec.serviceName is set")
	}
}

// TestReloaderWatchAPI: with --reloader-watch-api an Alertmanager with its own service
// account gets the reloader's Role and RoleBinding and a reloader that watches the
// generated Secret; without one it falls back to the volume, says why, and what was made
// for it before goes.
func TestReloaderWatchAPI(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderWatchAPI = true
	f := newFixture(t, Config{Config: instance.Config{Workload: opts}}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) { a.Spec.ServiceAccountName = "am" }))
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	role, rb := &rbacv1.Role{}, &rbacv1.RoleBinding{}
	f.get(role, "alertmanager-main-config-reloader")
	f.get(rb, "alertmanager-main-config-reloader")
	if !metav1.IsControlledBy(role, alertmanager("main")) || rb.Subjects[0].Name != "am" {
		t.Errorf("Role owners %+v, binding subjects %+v", role.OwnerReferences, rb.Subjects)
	}
	watches := func() bool {
		sts := &appsv1.StatefulSet{}
		f.get(sts, "alertmanager-main")
		for _, c := range sts.Spec.Template.Spec.Containers {
			if slices.Contains(c.Args, "--watch-secret=mon/alertmanager-main-generated=/etc/alertmanager/config") {
				return true
			}
		}
		return false
	}
	if !watches() {
		t.Error("the reloader does not watch the generated Secret")
	}
	if c := f.condition("main", monitoringv1.Reconciled); c.Reason != outcome.ReasonReconciled {
		t.Errorf("Reconciled %+v", c)
	}
	before := f.writes.Total()
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	if after := f.writes.Total(); after != before {
		t.Errorf("a resync wrote %v objects", after-before)
	}

	a := &monitoringv1.Alertmanager{}
	f.get(a, "main")
	a.Spec.ServiceAccountName = ""
	if err := f.c.Update(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	if watches() {
		t.Error("without a service account the reloader still watches the API")
	}
	c := f.condition("main", monitoringv1.Reconciled)
	if c.Status != monitoringv1.ConditionTrue || c.Reason != outcome.ReasonAPIWatchNeedsServiceAccount || !strings.Contains(c.Message, "spec.serviceAccountName") {
		t.Errorf("Reconciled %+v", c)
	}
	for _, o := range []client.Object{&rbacv1.Role{}, &rbacv1.RoleBinding{}} {
		if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "alertmanager-main-config-reloader"}, o); err == nil {
			t.Errorf("%T still exists after the fallback", o)
		}
	}
}

// TestStorageClassIsChecked: a volumeClaimTemplate naming a StorageClass that does not
// exist is refused before anything is written, as prometheus-operator does; once the
// class exists the Alertmanager is reconciled.
func TestStorageClassIsChecked(t *testing.T) {
	f := newFixture(t, Config{}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) {
		a.Spec.Storage = &monitoringv1.StorageSpec{VolumeClaimTemplate: monitoringv1.EmbeddedPersistentVolumeClaim{
			Spec: corev1.PersistentVolumeClaimSpec{StorageClassName: ptr.To("fast"),
				Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}}},
		}}
	}))
	f.r.StorageClasses = f.c
	if err := f.reconcile("main"); err == nil {
		t.Fatal("reconciled with a missing storage class")
	}
	c := f.condition("main", monitoringv1.Reconciled)
	if c.Status != monitoringv1.ConditionFalse || c.Reason != outcome.ReasonInvalidConfiguration || !strings.Contains(c.Message, `storage class "fast" does not exist`) {
		t.Errorf("Reconciled %+v", c)
	}
	if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "alertmanager-main"}, &appsv1.StatefulSet{}); err == nil {
		t.Error("the StatefulSet was written")
	}
	if err := f.c.Create(context.Background(), &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "fast"}, Provisioner: "example.com/fast"}); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	if c := f.condition("main", monitoringv1.Reconciled); c.Status != monitoringv1.ConditionTrue {
		t.Errorf("Reconciled %+v", c)
	}
}
