package integration

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
)

// TestAlertmanagerConfigLoadedCondition: with --reloader-report-config an Alertmanager's
// reloader gets --report-pod and a Role to patch its own pods' status; the pods' reports
// (written as the reloader writes them, through pods/status) of the sha256 of the
// generated configuration make ConfigLoaded False naming the lagging pods, then True.
func TestAlertmanagerConfigLoadedCondition(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) { o.Workload.ReloaderReportConfig = true })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	create(t, &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cl", Labels: map[string]string{dedicatedLabel: ns}},
		Spec: monitoringv1.AlertmanagerSpec{Replicas: ptr.To[int32](2), ServiceAccountName: "am"}})
	eventually(t, 20*time.Second, "StatefulSet with --report-pod and the reloader's Role", func() error {
		sts, err := statefulSet(ns, "alertmanager-cl")
		if err != nil {
			return err
		}
		for _, c := range sts.Spec.Template.Spec.Containers {
			if c.Name == "config-reloader" && !slices.Contains(c.Args, "--report-pod="+ns+"/$(POD_NAME)") {
				return fmt.Errorf("reloader args %s", strings.Join(c.Args, " "))
			}
		}
		role := &rbacv1.Role{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "alertmanager-cl-config-reloader"}, role); err != nil {
			return err
		}
		want := []string{"alertmanager-cl-0", "alertmanager-cl-1"}
		if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || !slices.Equal(role.Rules[0].ResourceNames, want) {
			return fmt.Errorf("role rules %+v", role.Rules)
		}
		return nil
	})
	sts, err := statefulSet(ns, "alertmanager-cl")
	if err != nil {
		t.Fatal(err)
	}
	// The hash the reloader reports: the sha256 of the decompressed generated config.
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Alertmanager("cl").GeneratedSecret()}, sec); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.AlertmanagerConfigCompressedKey]))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	hash := confighash.Sum(plain)

	expect := func(status monitoringv1.ConditionStatus, reason, message string) {
		t.Helper()
		eventually(t, 20*time.Second, fmt.Sprintf("ConfigLoaded=%s %s: %s", status, reason, message), func() error {
			c, _, err := amCondition(ns, "cl", "ConfigLoaded")
			if err != nil {
				return err
			}
			if c.Status != status || c.Reason != reason || c.Message != message {
				return fmt.Errorf("ConfigLoaded=%s %s: %s", c.Status, c.Reason, c.Message)
			}
			return nil
		})
	}
	expect(monitoringv1.ConditionFalse, "ReplicasLagging", "2 of 2 replicas do not run the latest configuration (sha256 "+hash[:12]+") yet: "+
		"alertmanager-cl-0 does not exist, alertmanager-cl-1 does not exist")

	writers := map[string]*podreport.PodWriter{}
	for _, name := range []string{"alertmanager-cl-0", "alertmanager-cl-1"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: sts.Spec.Template.Labels},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "alertmanager", Image: "alertmanager"}}},
		}
		create(t, pod)
		if writers[name], err = podreport.NewPodWriter(env.Config, ns, name, "test"); err != nil {
			t.Fatal(err)
		}
	}
	if err := writers["alertmanager-cl-0"].WriteConfigLoaded(ctx, hash); err != nil {
		t.Fatal(err)
	}
	expect(monitoringv1.ConditionFalse, "ReplicasLagging", "1 of 2 replicas do not run the latest configuration (sha256 "+hash[:12]+") yet: "+
		"alertmanager-cl-1 has not reported a configuration")
	if err := writers["alertmanager-cl-1"].WriteConfigLoaded(ctx, hash); err != nil {
		t.Fatal(err)
	}
	expect(monitoringv1.ConditionTrue, "AllReplicasLoaded", "all 2 replicas run the latest configuration (sha256 "+hash[:12]+")")
}
