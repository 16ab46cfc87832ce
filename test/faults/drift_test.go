package faults

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// restoreTimeout bounds how long a generated object may stay edited or missing. The
// operator is told nothing: the watch event of the edit alone must bring it back.
const restoreTimeout = 20 * time.Second

// TestEditedGeneratedObjectsRestored: someone else edits or deletes what the operator
// generated — the config Secret's data (keeping its hash annotation), a rule ConfigMap
// (right after its creation, and later), the StatefulSet's replicas, the governing
// Service. Each is restored by the reconcile its own watch event triggers, with exactly
// one write, and nothing else is written.
func TestEditedGeneratedObjectsRestored(t *testing.T) {
	ns := cp.newNamespace(t)
	op := startOperator(t, cp, "drift", "drift")
	ops := []*operator{op}
	cp.mustCreate(t,
		newPrometheus(ns, "p", "drift"),
		newServiceMonitor(ns, "sm", "drift"),
		newRule(ns, "rules", "drift", "vector(1)"),
	)
	cmKey := types.NamespacedName{Namespace: ns, Name: layout.Prometheus("p").RuleConfigMap(0)}
	var cm corev1.ConfigMap
	poll(t, "rule ConfigMap created", 30*time.Second, ops, func() error { return cp.c.Get(ctx, cmKey, &cm) })
	want := cm.DeepCopy()

	// Deleted at once: the operator's memo of its own create must not hide the deletion.
	before, _ := op.writes()
	if err := cp.c.Delete(ctx, &cm); err != nil {
		t.Fatal(err)
	}
	took := poll(t, "rule ConfigMap deleted right after its creation: recreated", restoreTimeout, ops, func() error {
		return sameConfigMap(cmKey, want)
	})
	t.Logf("measured: rule ConfigMap deleted %s after its creation restored in %s", time.Since(cm.CreationTimestamp.Time).Round(time.Second), took.Round(time.Millisecond))

	poll(t, "config, StatefulSet and governing Service generated", 30*time.Second, ops, func() error {
		if err := cp.configHasMonitors(ns, "p", "sm"); err != nil {
			return err
		}
		if _, err := cp.statefulSet(ns, layout.Prometheus("p").StatefulSet(0)); err != nil {
			return err
		}
		return cp.c.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.GoverningServiceName}, &corev1.Service{})
	})
	base := quiet(t, 2*time.Second, 30*time.Second, op)[0]
	if d := diff(before, base); d["ConfigMap/create"] != 1 {
		t.Errorf("rule ConfigMap recreated %v times, want once; writes %v", d["ConfigMap/create"], d)
	}

	// The config Secret's data replaced by another valid gzip, its annotations kept.
	_, sec, err := cp.config(ns, "p")
	if err != nil {
		t.Fatal(err)
	}
	goodConfig := append([]byte(nil), sec.Data[layout.ConfigCompressedKey]...)
	var cases []driftCase
	cases = append(cases, driftCase{
		name: "config Secret data edited (hash annotation kept)", write: "Secret/update",
		edit: func() error {
			s := sec.DeepCopy()
			s.Data[layout.ConfigCompressedKey] = gzipped(t, "global:\n  scrape_interval: 1h\n")
			return cp.c.Update(ctx, s)
		},
		check: func() error {
			_, now, err := cp.config(ns, "p")
			if err != nil {
				return err
			}
			if !bytes.Equal(now.Data[layout.ConfigCompressedKey], goodConfig) {
				return fmt.Errorf("config Secret still holds the edited data")
			}
			return nil
		},
	})

	cases = append(cases, driftCase{
		name: "rule ConfigMap deleted", write: "ConfigMap/create",
		edit: func() error {
			return cp.c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: cmKey.Name}})
		},
		check: func() error { return sameConfigMap(cmKey, want) },
	})

	stsKey := types.NamespacedName{Namespace: ns, Name: layout.Prometheus("p").StatefulSet(0)}
	cases = append(cases, driftCase{
		name: "StatefulSet scaled to 3 by hand", write: "StatefulSet/update",
		edit: func() error {
			var sts appsv1.StatefulSet
			if err := cp.c.Get(ctx, stsKey, &sts); err != nil {
				return err
			}
			sts.Spec.Replicas = ptr.To[int32](3)
			return cp.c.Update(ctx, &sts)
		},
		check: func() error {
			var sts appsv1.StatefulSet
			if err := cp.c.Get(ctx, stsKey, &sts); err != nil {
				return err
			}
			if r := ptr.Deref(sts.Spec.Replicas, 1); r != 1 {
				return fmt.Errorf("StatefulSet has %d replicas", r)
			}
			return nil
		},
	})

	svcKey := types.NamespacedName{Namespace: ns, Name: layout.GoverningServiceName}
	cases = append(cases, driftCase{
		// The operator may list and watch Services here (as with Lookout's RBAC), so it
		// watches prometheus-operated and the deletion itself reconciles the Prometheus.
		name: "governing Service deleted", write: "Service/create",
		edit: func() error {
			return cp.c.Delete(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: svcKey.Name}})
		},
		check: func() error {
			var svc corev1.Service
			if err := cp.c.Get(ctx, svcKey, &svc); err != nil {
				return err
			}
			if svc.Spec.ClusterIP != corev1.ClusterIPNone {
				return fmt.Errorf("Service is not headless")
			}
			return nil
		},
	})

	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			before := quiet(t, time.Second, 30*time.Second, op)[0]
			if err := c.edit(); err != nil {
				t.Fatal(err)
			}
			took := poll(t, c.name+": restored", restoreTimeout, ops, c.check)
			after := quiet(t, 2*time.Second, 30*time.Second, op)[0]
			d := diff(before, after)
			// The Prometheus status follows the StatefulSet's own status (replicas): a
			// restored StatefulSet may move it; it is not a generated object.
			delete(d, "Prometheus/apply-status")
			if len(d) != 1 || d[c.write] != 1 {
				t.Errorf("writes while restoring: %v, want exactly one %s", d, c.write)
			}
			t.Logf("measured: %s restored in %s", c.name, took.Round(time.Millisecond))
		})
	}
	if c, err := cp.reconciled(ns, "p"); err != nil || c.Status != monitoringv1.ConditionTrue {
		t.Errorf("Reconciled after the edits: %+v %v", c, err)
	}
}

// TestNameConflictNeverOverwritten: a Secret of the user's named like the config Secret
// of a new Prometheus is never written: Reconciled=False with reason NameConflict, a
// Warning event, lookout_ownership_conflicts_total counts it, and the Secret keeps its
// data and resourceVersion while the operator retries.
func TestNameConflictNeverOverwritten(t *testing.T) {
	ns := cp.newNamespace(t)
	op := startOperator(t, cp, "conflict", "conflict")
	ops := []*operator{op}
	user := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: layout.Prometheus("p").ConfigSecret()},
		Data:       map[string][]byte{"mine": []byte("keep me")},
	}
	cp.mustCreate(t, user)
	rv := user.ResourceVersion
	cp.mustCreate(t, newPrometheus(ns, "p", "conflict"), newServiceMonitor(ns, "sm", "conflict"))
	poll(t, "Reconciled=False NameConflict", 30*time.Second, ops, func() error {
		c, err := cp.reconciled(ns, "p")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionFalse || c.Reason != "NameConflict" || !strings.Contains(c.Message, user.Name) {
			return fmt.Errorf("Reconciled is %s/%s: %s", c.Status, c.Reason, c.Message)
		}
		return nil
	})
	poll(t, "Warning event NameConflict on the Prometheus", 10*time.Second, ops, func() error {
		var evs corev1.EventList
		if err := cp.c.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return err
		}
		for _, e := range evs.Items {
			if e.InvolvedObject.Kind == monitoringv1.PrometheusesKind && e.InvolvedObject.Name == "p" &&
				e.Type == corev1.EventTypeWarning && e.Reason == "NameConflict" && strings.Contains(e.Message, user.Name) {
				return nil
			}
		}
		return fmt.Errorf("no NameConflict event among %d events", len(evs.Items))
	})
	// The operator retries with backoff: watch a few retries go by without a write.
	poll(t, "conflict counted at least three times (retries)", 30*time.Second, ops, func() error {
		m, err := op.metrics()
		if err != nil {
			return err
		}
		if n := m[`lookout_ownership_conflicts_total{kind="Secret"}`]; n < 3 {
			return fmt.Errorf("lookout_ownership_conflicts_total{kind=Secret} = %v", n)
		}
		return nil
	})
	var live corev1.Secret
	if err := cp.c.Get(ctx, client.ObjectKeyFromObject(user), &live); err != nil {
		t.Fatal(err)
	}
	if live.ResourceVersion != rv || len(live.Data) != 1 || string(live.Data["mine"]) != "keep me" || len(live.OwnerReferences) != 0 {
		t.Errorf("the user's Secret was written: resourceVersion %s -> %s, data %q, owners %v", rv, live.ResourceVersion, live.Data, live.OwnerReferences)
	}
	w, err := op.writes()
	if err != nil {
		t.Fatal(err)
	}
	// The one Secret created is the (empty) tls-assets-0, written before the config
	// Secret as every asset is (prometheus-operator always creates it too).
	if w["Secret/update"] != 0 || w["Secret/create"] > 1 {
		t.Errorf("Secret writes with a name conflict: %v", w)
	}
	if w["Secret/create"] == 1 {
		var assets corev1.Secret
		if err := cp.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "prometheus-p-tls-assets-0"}, &assets); err != nil {
			t.Errorf("a Secret was created, not tls-assets-0: %v", err)
		}
	}

	// Renaming is the user's way out: once the Secret is gone the Prometheus is reconciled.
	if err := cp.c.Delete(ctx, &live); err != nil {
		t.Fatal(err)
	}
	poll(t, "reconciled once the user's Secret is gone", 60*time.Second, ops, func() error {
		if err := cp.configHasMonitors(ns, "p", "sm"); err != nil {
			return err
		}
		c, err := cp.reconciled(ns, "p")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled is %s/%s", c.Status, c.Reason)
		}
		return nil
	})
}

// driftCase is one edit of a generated object by someone else.
type driftCase struct {
	name  string
	write string // the one write expected to restore it, Kind/verb
	edit  func() error
	check func() error // nil once restored
}

// sameConfigMap returns nil when the ConfigMap exists with want's data and owner.
func sameConfigMap(key types.NamespacedName, want *corev1.ConfigMap) error {
	var cm corev1.ConfigMap
	if err := cp.c.Get(ctx, key, &cm); err != nil {
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("ConfigMap %s is missing", key)
		}
		return err
	}
	if fmt.Sprint(cm.Data) != fmt.Sprint(want.Data) || len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != want.OwnerReferences[0].UID {
		return fmt.Errorf("ConfigMap %s differs from what the operator generated", key)
	}
	return nil
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
