package integration

import (
	"io"
	"slices"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// TestRenderObjectsMatchOperator runs the operator on a Prometheus with a ServiceMonitor
// and a PrometheusRule, then renders the same objects offline (render --objects, with the
// same operator flags) and checks that the plan is what the operator wrote: the same
// objects, each with the input hash the operator stamped on it (so the same content), and
// nothing else owned by the Prometheus.
func TestRenderObjectsMatchOperator(t *testing.T) {
	t.Parallel()
	args := []string{"--labels=team=obs", "--reloader-watch-api"}
	parsed, err := operator.ParseArgs(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "plan", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
		p.Spec.ServiceAccountName = "prometheus"
	})
	rule := &monitoringv1.PrometheusRule{}
	rule.Namespace, rule.Name, rule.Labels = ns, "r", map[string]string{"team": "a"}
	rule.Spec.Groups = []monitoringv1.RuleGroup{{Name: "g", Rules: []monitoringv1.Rule{{Record: "a:b:sum", Expr: intstr.FromString("sum(up)")}}}}
	create(t, p, newServiceMonitor(ns, "web"), rule)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.Workload, o.Labels, o.Annotations = parsed.Options.Workload, parsed.Options.Labels, parsed.Options.Annotations
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	eventually(t, 60*time.Second, "the StatefulSet", func() error {
		_, err := statefulSet(ns, "prometheus-plan")
		return err
	})

	live := &monitoringv1.Prometheus{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "plan"}, live); err != nil {
		t.Fatal(err)
	}
	objs := &render.Objects{Prometheuses: []*monitoringv1.Prometheus{live}}
	sms := &monitoringv1.ServiceMonitorList{}
	rules := &monitoringv1.PrometheusRuleList{}
	nss := &corev1.NamespaceList{}
	for _, l := range []client.ObjectList{sms, rules, nss} {
		if err := k8s.List(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	for i := range sms.Items {
		if sms.Items[i].Namespace == ns {
			objs.ServiceMonitors = append(objs.ServiceMonitors, &sms.Items[i])
		}
	}
	for i := range rules.Items {
		if rules.Items[i].Namespace == ns {
			objs.PrometheusRules = append(objs.PrometheusRules, &rules.Items[i])
		}
	}
	for i := range nss.Items {
		objs.Namespaces = append(objs.Namespaces, &nss.Items[i])
	}
	outs, err := render.Render(objs, render.Options{Versions: versions.For(parsed.Options.DefaultVersions)})
	if err != nil || len(outs) != 1 {
		t.Fatalf("render: %d outputs, %v", len(outs), err)
	}
	pl, err := render.Plan(outs[0], parsed.Options.WorkloadOptions())
	if err != nil {
		t.Fatal(err)
	}
	w := &write.Writer{Labels: parsed.Options.Labels, Annotations: parsed.Options.Annotations}

	var planned []string
	for _, want := range pl.Objects() {
		hashed := want.GetAnnotations()[layout.InputHashAnnotation] != ""
		w.Decorate(want)
		kind := want.GetObjectKind().GroupVersionKind()
		name := kind.Kind + "/" + want.GetName()
		planned = append(planned, name)
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(kind)
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(want), got); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if h := want.GetAnnotations()[layout.InputHashAnnotation]; hashed && got.GetAnnotations()[layout.InputHashAnnotation] != h {
			t.Errorf("%s: the operator wrote input hash %s, render plans %s", name, got.GetAnnotations()[layout.InputHashAnnotation], h)
		}
		if got.GetLabels()["team"] != "obs" {
			t.Errorf("%s: labels %v lack the operator's --labels", name, got.GetLabels())
		}
		switch want := want.(type) {
		case *corev1.Service:
			svc := &corev1.Service{}
			if err := k8s.Get(ctx, client.ObjectKeyFromObject(want), svc); err != nil {
				t.Fatal(err)
			}
			if !equality.Semantic.DeepEqual(svc.Spec.Selector, want.Spec.Selector) || len(svc.Spec.Ports) != len(want.Spec.Ports) {
				t.Errorf("%s: the operator wrote %v %v, render plans %v %v", name, svc.Spec.Selector, svc.Spec.Ports, want.Spec.Selector, want.Spec.Ports)
			}
		case *rbacv1.Role:
			role := &rbacv1.Role{}
			if err := k8s.Get(ctx, client.ObjectKeyFromObject(want), role); err != nil {
				t.Fatal(err)
			}
			if !equality.Semantic.DeepEqual(role.Rules, want.Rules) {
				t.Errorf("%s: the operator wrote %v, render plans %v", name, role.Rules, want.Rules)
			}
		}
	}
	// Nothing else is owned by the Prometheus.
	var owned []string
	for kind, l := range map[string]client.ObjectList{"Secret": &corev1.SecretList{}, "ConfigMap": &corev1.ConfigMapList{}, "StatefulSet": &appsv1.StatefulSetList{}, "Role": &rbacv1.RoleList{}, "RoleBinding": &rbacv1.RoleBindingList{}} {
		if err := k8s.List(ctx, l, client.InNamespace(ns)); err != nil {
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
				if ref.UID == live.UID {
					owned = append(owned, kind+"/"+o.GetName())
				}
			}
		}
	}
	for _, o := range owned {
		if !slices.Contains(planned, o) {
			t.Errorf("the operator wrote %s, which render does not plan (plan: %v)", o, planned)
		}
	}
}
