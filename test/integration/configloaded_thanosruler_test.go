package integration

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/reloader/dirhash"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
)

// TestThanosRulerConfigLoadedCondition: with --reloader-report-config a ThanosRuler's
// reloader gets --report-pod and a Role to patch its own pods' status; the pods' reports
// (written as the reloader writes them, through pods/status) of the hash of the rule
// ConfigMaps (package dirhash, what the reloader hashes of their mounted directories)
// make ConfigLoaded False naming the lagging pods, then True; a rule change makes it
// False again until the pods report the new rules.
func TestThanosRulerConfigLoadedCondition(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) { o.Workload.ReloaderReportConfig = true })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	rule := newRule(ns, "alerts", alertGroup("availability", "TargetDown", "up == 0"))
	create(t, rule, newThanosRuler(ns, "cl", func(tr *monitoringv1.ThanosRuler) {
		tr.Labels = map[string]string{dedicatedLabel: ns}
		tr.Spec.Replicas = ptr.To[int32](2)
		tr.Spec.ServiceAccountName = "ruler"
	}))
	eventually(t, 20*time.Second, "StatefulSet with --report-pod and the reloader's Role", func() error {
		sts, err := statefulSet(ns, "thanos-ruler-cl")
		if err != nil {
			return err
		}
		for _, c := range sts.Spec.Template.Spec.Containers {
			if c.Name == "config-reloader" && !slices.Contains(c.Args, "--report-pod="+ns+"/$(POD_NAME)") {
				return fmt.Errorf("reloader args %s", strings.Join(c.Args, " "))
			}
		}
		role := &rbacv1.Role{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "thanos-ruler-cl-config-reloader"}, role); err != nil {
			return err
		}
		want := []string{"thanos-ruler-cl-0", "thanos-ruler-cl-1"}
		if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || !slices.Equal(role.Rules[0].ResourceNames, want) {
			return fmt.Errorf("role rules %+v", role.Rules)
		}
		return nil
	})
	sts, err := statefulSet(ns, "thanos-ruler-cl")
	if err != nil {
		t.Fatal(err)
	}
	// The hash the reloader reports: of the rule ConfigMaps' data, in index order, once
	// they hold the rule (expr).
	rulesHash := func(expr string) string {
		t.Helper()
		var hash string
		eventually(t, 20*time.Second, "rule ConfigMaps with "+expr, func() error {
			var data []map[string]string
			found := false
			for n := 0; ; n++ {
				cm := &corev1.ConfigMap{}
				err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.ThanosRuler("cl").RuleConfigMap(n)}, cm)
				if apierrors.IsNotFound(err) {
					break
				}
				if err != nil {
					return err
				}
				for _, f := range cm.Data {
					found = found || strings.Contains(f, expr)
				}
				data = append(data, cm.Data)
			}
			if !found {
				return fmt.Errorf("no rule file with %q in %v", expr, data)
			}
			hash = dirhash.OfData(data...)
			return nil
		})
		return hash
	}
	expect := func(status monitoringv1.ConditionStatus, reason, message string) {
		t.Helper()
		eventually(t, 20*time.Second, fmt.Sprintf("ConfigLoaded=%s %s: %s", status, reason, message), func() error {
			c, _, err := thanosRulerCondition(ns, "cl", "ConfigLoaded")
			if err != nil {
				return err
			}
			if c.Status != status || c.Reason != reason || c.Message != message {
				return fmt.Errorf("ConfigLoaded=%s %s: %s", c.Status, c.Reason, c.Message)
			}
			return nil
		})
	}
	hash := rulesHash("up == 0")
	expect(monitoringv1.ConditionFalse, "ReplicasLagging", "2 of 2 replicas do not run the latest configuration (sha256 "+hash[:12]+") yet: "+
		"thanos-ruler-cl-0 does not exist, thanos-ruler-cl-1 does not exist")

	writers := map[string]*podreport.PodWriter{}
	for _, name := range []string{"thanos-ruler-cl-0", "thanos-ruler-cl-1"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: sts.Spec.Template.Labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "thanos-ruler", Image: "thanos"}}},
		}
		create(t, pod)
		if writers[name], err = podreport.NewPodWriter(env.Config, ns, name, "test"); err != nil {
			t.Fatal(err)
		}
	}
	if err := writers["thanos-ruler-cl-0"].WriteConfigLoaded(ctx, hash); err != nil {
		t.Fatal(err)
	}
	expect(monitoringv1.ConditionFalse, "ReplicasLagging", "1 of 2 replicas do not run the latest configuration (sha256 "+hash[:12]+") yet: "+
		"thanos-ruler-cl-1 has not reported a configuration")
	if err := writers["thanos-ruler-cl-1"].WriteConfigLoaded(ctx, hash); err != nil {
		t.Fatal(err)
	}
	expect(monitoringv1.ConditionTrue, "AllReplicasLoaded", "all 2 replicas run the latest configuration (sha256 "+hash[:12]+")")

	// A rule change: False until the pods report the new rules.
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(rule), rule); err != nil {
		t.Fatal(err)
	}
	rule.Spec.Groups[0].Rules[0].Expr = intstr.FromString("up == 2")
	if err := k8s.Update(ctx, rule); err != nil {
		t.Fatal(err)
	}
	old := hash
	hash = rulesHash("up == 2")
	expect(monitoringv1.ConditionFalse, "ReplicasLagging", "2 of 2 replicas do not run the latest configuration (sha256 "+hash[:12]+") yet: "+
		"thanos-ruler-cl-0 runs sha256 "+old[:12]+", thanos-ruler-cl-1 runs sha256 "+old[:12])
	for _, w := range writers {
		if err := w.WriteConfigLoaded(ctx, hash); err != nil {
			t.Fatal(err)
		}
	}
	expect(monitoringv1.ConditionTrue, "AllReplicasLoaded", "all 2 replicas run the latest configuration (sha256 "+hash[:12]+")")
}
