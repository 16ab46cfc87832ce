package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// TestPrometheusObjects: a Prometheus and a ServiceMonitor in the real API server become a
// config Secret holding the job, a StatefulSet, the governing Service and the web-config
// Secret, all owned by the Prometheus, and a status with both conditions.
func TestPrometheusObjects(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "main", func(p *monitoringv1.Prometheus) {
		p.Spec.Retention = "7d"
		p.Spec.ExternalLabels = map[string]string{"cluster": "test"}
	})
	create(t, p, newServiceMonitor(ns, "api"))

	var cfg string
	eventually(t, 20*time.Second, "config Secret with the ServiceMonitor's job", func() error {
		c, sec, err := config(ns, "main")
		if err != nil {
			return err
		}
		if !strings.Contains(c, "job_name: serviceMonitor/"+ns+"/api/0") {
			return fmt.Errorf("job missing from config:\n%s", c)
		}
		cfg = c
		return hasOwner(sec, p)
	})
	if !strings.Contains(cfg, "cluster: test") || !strings.Contains(cfg, "prometheus: "+ns+"/main") {
		t.Errorf("external labels missing:\n%s", cfg)
	}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "main"}, p); err != nil {
		t.Fatal(err)
	}
	// The config Secret is written first; the StatefulSet follows in the same reconcile.
	var sts *appsv1.StatefulSet
	eventually(t, 10*time.Second, "StatefulSet", func() (err error) {
		sts, err = statefulSet(ns, "prometheus-main")
		return err
	})
	if err := hasOwner(sts, p); err != nil {
		t.Error(err)
	}
	args := strings.Join(sts.Spec.Template.Spec.Containers[0].Args, " ")
	// Prometheus 3.11 and later read the retention from the config file's storage section.
	if err := configContains(ns, "main", `time: "7d"`); err != nil {
		t.Error(err)
	}
	for _, want := range []string{"--web.enable-lifecycle", "--config.file=" + layout.ConfigOutDir + "/" + layout.ConfigOutFile} {
		if !strings.Contains(args, want) {
			t.Errorf("prometheus args lack %s: %s", want, args)
		}
	}
	var names []string
	for _, c := range sts.Spec.Template.Spec.Containers {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "prometheus,config-reloader" {
		t.Errorf("containers %v", names)
	}
	svc := &corev1.Service{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.GoverningServiceName}, svc); err != nil {
		t.Fatal(err)
	}
	if err := hasOwner(svc, p); err != nil {
		t.Error(err)
	}
	web := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus("main").WebConfigSecret()}, web); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "status conditions", func() error {
		p, err := getPrometheus(ns, "main")
		if err != nil {
			return err
		}
		rc, av := condition(p, monitoringv1.Reconciled), condition(p, monitoringv1.Available)
		if rc == nil || rc.Status != monitoringv1.ConditionTrue || rc.ObservedGeneration != p.Generation {
			return fmt.Errorf("Reconciled condition %+v", rc)
		}
		// No kubelet here: the pod never runs, so the StatefulSet has no available replica.
		if av == nil || av.Status != monitoringv1.ConditionFalse || av.Message == "" {
			return fmt.Errorf("Available condition %+v", av)
		}
		if p.Status.Replicas != 0 || p.Status.Selector == "" || p.Status.Shards != 1 {
			return fmt.Errorf("status %+v", p.Status)
		}
		return nil
	})
}

// TestSharding: scaling shards 1 → 3 creates shard StatefulSets whose pods get their shard
// number; 3 → 1 deletes the surplus.
func TestSharding(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "sharded")
	create(t, p, newServiceMonitor(ns, "api"))
	eventually(t, 20*time.Second, "shard 0", func() error { _, err := statefulSet(ns, "prometheus-sharded"); return err })

	setShards(t, ns, "sharded", 3)
	eventually(t, 20*time.Second, "three shards", func() error {
		for i, name := range []string{"prometheus-sharded", "prometheus-sharded-shard-1", "prometheus-sharded-shard-2"} {
			s, err := statefulSet(ns, name)
			if err != nil {
				return err
			}
			if got := envValue(s, "SHARD"); got != fmt.Sprint(i) {
				return fmt.Errorf("%s has SHARD=%q", name, got)
			}
		}
		c, _, err := config(ns, "sharded")
		if err != nil {
			return err
		}
		if !strings.Contains(c, "modulus: 3") || !strings.Contains(c, "$(SHARD)") {
			return fmt.Errorf("config has no sharding rules")
		}
		return nil
	})
	setShards(t, ns, "sharded", 1)
	eventually(t, 20*time.Second, "surplus shards deleted", func() error {
		for _, name := range []string{"prometheus-sharded-shard-1", "prometheus-sharded-shard-2"} {
			if _, err := statefulSet(ns, name); !apierrors.IsNotFound(err) {
				return fmt.Errorf("%s still exists (%v)", name, err)
			}
		}
		_, err := statefulSet(ns, "prometheus-sharded")
		return err
	})
}

func setShards(t *testing.T, ns, name string, n int32) {
	t.Helper()
	p, err := getPrometheus(ns, name)
	if err != nil {
		t.Fatal(err)
	}
	patch := client.MergeFrom(p.DeepCopy())
	p.Spec.Shards = ptr.To(n)
	if err := k8s.Patch(ctx, p, patch); err != nil {
		t.Fatal(err)
	}
}

func envValue(s *appsv1.StatefulSet, name string) string {
	for _, c := range s.Spec.Template.Spec.Containers {
		for _, e := range c.Env {
			if e.Name == name {
				return e.Value
			}
		}
	}
	return ""
}
