package integration

import (
	"io"
	"slices"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// TestRenderObjectsMatchOperator runs the operator on a Prometheus with a ServiceMonitor
// and a PrometheusRule, an Alertmanager with its config Secret and an AlertmanagerConfig,
// and a ThanosRuler with the same PrometheusRule, then renders the same objects offline
// (render --objects, with the same operator flags) and checks that each plan is what the
// operator wrote: the same objects, each with the input hash the operator stamped on it
// (so the same content), and nothing else owned by the instance.
func TestRenderObjectsMatchOperator(t *testing.T) {
	t.Parallel()
	args := []string{"--labels=team=obs", "--reloader-watch-api"}
	parsed, err := operator.ParseArgs(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ns := newNamespace(t, nil)
	dedicated := map[string]string{dedicatedLabel: ns}
	p := newPrometheus(ns, "plan", func(p *monitoringv1.Prometheus) {
		p.Labels = dedicated
		p.Spec.ServiceAccountName = "prometheus"
	})
	rule := &monitoringv1.PrometheusRule{}
	rule.Namespace, rule.Name, rule.Labels = ns, "r", map[string]string{"team": "a"}
	rule.Spec.Groups = []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{{Record: "a:b:sum", Expr: intstr.FromString("sum(up)")}}}}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "plan", Labels: dedicated}, Spec: monitoringv1.AlertmanagerSpec{
		ServiceAccountName:         "alertmanager",
		AlertmanagerConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
	}}
	amSecret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "alertmanager-plan"}, StringData: map[string]string{
		layout.AlertmanagerConfigKey: "route:\n  receiver: \"null\"\nreceivers:\n- name: \"null\"\n",
		"extra.tmpl":                 `{{ define "x" }}x{{ end }}`,
	}}
	hook := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "hook"}, StringData: map[string]string{"url": "http://hook.example.invalid/"}}
	amc := &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "c", Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route: &monitoringv1alpha1.Route{Receiver: "hook"},
			Receivers: []monitoringv1alpha1.Receiver{{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
				URLSecret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "hook"}, Key: "url"},
			}}}},
		},
	}
	tr := newThanosRuler(ns, "plan", func(t *monitoringv1.ThanosRuler) { t.Labels = dedicated })
	create(t, p, newServiceMonitor(ns, "web"), rule, amSecret, hook, amc, am, tr)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set(dedicated)), func(o *operator.Options) {
		o.Workload, o.Labels, o.Annotations = parsed.Options.Workload, parsed.Options.Labels, parsed.Options.Annotations
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, sts := range []string{"prometheus-plan", "alertmanager-plan", "thanos-ruler-plan"} {
		eventually(t, 60*time.Second, "the StatefulSet "+sts, func() error {
			_, err := statefulSet(ns, sts)
			return err
		})
	}

	// The objects render reads, as the operator sees them.
	objs := &render.Objects{}
	proms := &monitoringv1.PrometheusList{}
	ams := &monitoringv1.AlertmanagerList{}
	amcs := &monitoringv1alpha1.AlertmanagerConfigList{}
	trs := &monitoringv1.ThanosRulerList{}
	sms := &monitoringv1.ServiceMonitorList{}
	rules := &monitoringv1.PrometheusRuleList{}
	secrets := &corev1.SecretList{}
	for _, l := range []client.ObjectList{proms, ams, amcs, trs, sms, rules, secrets} {
		if err := k8s.List(ctx, l, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pointers(proms.Items) {
		objs.Prometheuses = append(objs.Prometheuses, promserver.Of(p))
	}
	objs.Alertmanagers = pointers(ams.Items)
	objs.AlertmanagerConfigs = pointers(amcs.Items)
	objs.ThanosRulers = pointers(trs.Items)
	objs.Monitors.ServiceMonitors = pointers(sms.Items)
	objs.PrometheusRules = pointers(rules.Items)
	objs.Secrets = pointers(secrets.Items)
	nss := &corev1.NamespaceList{}
	if err := k8s.List(ctx, nss); err != nil {
		t.Fatal(err)
	}
	objs.Namespaces = pointers(nss.Items)
	opts := render.Options{Versions: versions.For(parsed.Options.DefaultVersions)}
	w := &write.Writer{Labels: parsed.Options.Labels, Annotations: parsed.Options.Annotations}
	wopts := parsed.Options.WorkloadOptions()

	outs, err := render.Render(objs, opts)
	if err != nil || len(outs) != 1 {
		t.Fatalf("render: %d outputs, %v", len(outs), err)
	}
	pl, err := render.Plan(outs[0], wopts)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, "Prometheus", pl, w, outs[0].Prometheus.UID)

	amOuts, err := render.RenderAlertmanagers(objs, opts)
	if err != nil || len(amOuts) != 1 {
		t.Fatalf("render: %d Alertmanagers, %v", len(amOuts), err)
	}
	if len(amOuts[0].Verdicts) != 1 || !amOuts[0].Verdicts[0].Used() {
		t.Errorf("AlertmanagerConfig verdicts %+v", amOuts[0].Verdicts)
	}
	pl, err = render.AlertmanagerPlan(amOuts[0], wopts)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, "Alertmanager", pl, w, amOuts[0].Alertmanager.UID)

	trOuts, err := render.RenderThanosRulers(objs, opts)
	if err != nil || len(trOuts) != 1 {
		t.Fatalf("render: %d ThanosRulers, %v", len(trOuts), err)
	}
	pl, err = render.ThanosRulerPlan(trOuts[0], wopts)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, "ThanosRuler", pl, w, trOuts[0].ThanosRuler.UID)
}

// pointers returns pointers to the items of a list.
func pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// checkPlan checks that the operator wrote every object of the plan pl of one instance
// (owner), with the plan's input hash and the operator's labels, and nothing else owned
// by the instance.
func checkPlan(t *testing.T, kind string, pl *plan.Plan, w *write.Writer, owner types.UID) {
	t.Helper()
	var planned []string
	for _, want := range pl.Objects() {
		hashed := want.GetAnnotations()[layout.InputHashAnnotation] != ""
		w.Decorate(want)
		gvk := want.GetObjectKind().GroupVersionKind()
		name := gvk.Kind + "/" + want.GetName()
		planned = append(planned, name)
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(gvk)
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(want), got); err != nil {
			t.Errorf("%s %s: %v", kind, name, err)
			continue
		}
		if h := want.GetAnnotations()[layout.InputHashAnnotation]; hashed && got.GetAnnotations()[layout.InputHashAnnotation] != h {
			t.Errorf("%s %s: the operator wrote input hash %s, render plans %s", kind, name, got.GetAnnotations()[layout.InputHashAnnotation], h)
		}
		if got.GetLabels()["team"] != "obs" {
			t.Errorf("%s %s: labels %v lack the operator's --labels", kind, name, got.GetLabels())
		}
		switch want := want.(type) {
		case *corev1.Service:
			svc := &corev1.Service{}
			if err := k8s.Get(ctx, client.ObjectKeyFromObject(want), svc); err != nil {
				t.Fatal(err)
			}
			if !equality.Semantic.DeepEqual(svc.Spec.Selector, want.Spec.Selector) || len(svc.Spec.Ports) != len(want.Spec.Ports) {
				t.Errorf("%s %s: the operator wrote %v %v, render plans %v %v", kind, name, svc.Spec.Selector, svc.Spec.Ports, want.Spec.Selector, want.Spec.Ports)
			}
		case *rbacv1.Role:
			role := &rbacv1.Role{}
			if err := k8s.Get(ctx, client.ObjectKeyFromObject(want), role); err != nil {
				t.Fatal(err)
			}
			if !equality.Semantic.DeepEqual(role.Rules, want.Rules) {
				t.Errorf("%s %s: the operator wrote %v, render plans %v", kind, name, role.Rules, want.Rules)
			}
		}
	}
	// Nothing else is owned by the instance.
	var owned []string
	for k, l := range map[string]client.ObjectList{"Secret": &corev1.SecretList{}, "ConfigMap": &corev1.ConfigMapList{}, "StatefulSet": &appsv1.StatefulSetList{}, "Role": &rbacv1.RoleList{}, "RoleBinding": &rbacv1.RoleBindingList{}} {
		if err := k8s.List(ctx, l, client.InNamespace(pl.Namespace)); err != nil {
			t.Fatal(err)
		}
		items, err := apimeta.ExtractList(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range items {
			o, err := apimeta.Accessor(item)
			if err != nil {
				t.Fatal(err)
			}
			for _, ref := range o.GetOwnerReferences() {
				if ref.UID == owner {
					owned = append(owned, k+"/"+o.GetName())
				}
			}
		}
	}
	if len(owned) == 0 {
		t.Errorf("%s: the operator wrote nothing the instance owns", kind)
	}
	for _, o := range owned {
		if !slices.Contains(planned, o) {
			t.Errorf("the operator wrote %s for the %s, which render does not plan (plan: %v)", o, kind, planned)
		}
	}
}
