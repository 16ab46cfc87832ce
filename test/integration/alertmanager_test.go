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

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"gopkg.in/yaml.v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	amoutcome "github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// These tests count writes like writes_test.go, so they are not parallel either.

// amConfig reads and decompresses the generated config of an Alertmanager.
func amConfig(ns, name string) (string, *corev1.Secret, error) {
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Alertmanager(name).GeneratedSecret()}, sec); err != nil {
		return "", nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.AlertmanagerConfigCompressedKey]))
	if err != nil {
		return "", sec, err
	}
	b, err := io.ReadAll(r)
	return string(b), sec, err
}

func amConfigIs(ns, name, want string) error {
	got, _, err := amConfig(ns, name)
	if err != nil {
		return err
	}
	// The generator writes the configuration as Alertmanager's loader reads it (quoting,
	// order): compare what it routes to.
	if r, w := routing(got), routing(want); r != w {
		return fmt.Errorf("generated config %q routes to %s, want %s", got, r, w)
	}
	return nil
}

// routing is the top-level receiver and the receiver names of a configuration.
func routing(cfg string) string {
	var c struct {
		Route     struct{ Receiver string } `yaml:"route"`
		Receivers []struct{ Name string }   `yaml:"receivers"`
	}
	if err := yaml.Unmarshal([]byte(cfg), &c); err != nil {
		return "unparsable: " + err.Error()
	}
	out := c.Route.Receiver + " of"
	for _, r := range c.Receivers {
		out += " " + r.Name
	}
	return out
}

// amPeers checks the --cluster.peer flags and gossip listen address of the StatefulSet.
func amPeers(ns, name string, replicas int) error {
	sts, err := statefulSet(ns, layout.Alertmanager(name).StatefulSet())
	if err != nil {
		return err
	}
	if got := ptr.Deref(sts.Spec.Replicas, -1); got != int32(replicas) {
		return fmt.Errorf("replicas %d, want %d", got, replicas)
	}
	args := sts.Spec.Template.Spec.Containers[0].Args
	var peers, want []string
	for _, a := range args {
		if p, ok := strings.CutPrefix(a, "--cluster.peer="); ok {
			peers = append(peers, p)
		}
	}
	for i := range replicas {
		want = append(want, fmt.Sprintf("alertmanager-%s-%d.alertmanager-operated:9094", name, i))
	}
	if !slices.Equal(peers, want) {
		return fmt.Errorf("peers %v, want %v", peers, want)
	}
	listen := "--cluster.listen-address=[$(POD_IP)]:9094"
	if replicas == 1 {
		listen = "--cluster.listen-address="
	}
	if !slices.Contains(args, listen) {
		return fmt.Errorf("no %s in %v", listen, args)
	}
	return nil
}

func amCondition(ns, name string, typ monitoringv1.ConditionType) (*monitoringv1.Condition, *monitoringv1.Alertmanager, error) {
	a := &monitoringv1.Alertmanager{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, a); err != nil {
		return nil, nil, err
	}
	for i := range a.Status.Conditions {
		if a.Status.Conditions[i].Type == typ {
			return &a.Status.Conditions[i], a, nil
		}
	}
	return nil, a, fmt.Errorf("no %s condition in %+v", typ, a.Status)
}

// TestAlertmanagerLifecycle: an Alertmanager gets its objects under upstream's names, its
// peers follow spec.replicas (1 → 3 → 1), the user's config reaches the generated Secret
// and follows its changes, a resync writes nothing, and an invalid config keeps the last
// good generated Secret with Reconciled=False; a deleted alertmanager-operated is
// restored at once.
func TestAlertmanagerLifecycle(t *testing.T) {
	ns := newNamespace(t, nil)
	good := "route:\n  receiver: team\nreceivers:\n- name: team\n"
	user := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "alertmanager-main"},
		Data: map[string][]byte{layout.AlertmanagerConfigKey: []byte(good), "mail.tmpl": []byte(`{{ define "mail" }}x{{ end }}`)}}
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}, Spec: monitoringv1.AlertmanagerSpec{Replicas: ptr.To[int32](1)}}
	create(t, user, am)

	eventually(t, 20*time.Second, "generated config", func() error { return amConfigIs(ns, "main", good) })
	eventually(t, 10*time.Second, "one replica", func() error { return amPeers(ns, "main", 1) })
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "main"}, am); err != nil {
		t.Fatal(err)
	}
	_, gen, _ := amConfig(ns, "main")
	if string(gen.Data["mail.tmpl"]) == "" {
		t.Error("the config Secret's other keys are not in the generated Secret")
	}
	for _, name := range []string{"alertmanager-main-generated", "alertmanager-main-tls-assets-0", "alertmanager-main-web-config"} {
		sec := &corev1.Secret{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sec); err != nil {
			t.Fatalf("Secret %s: %v", name, err)
		}
		if !metav1.IsControlledBy(sec, am) {
			t.Errorf("Secret %s is not controlled by the Alertmanager: %+v", name, sec.OwnerReferences)
		}
	}
	svc := &corev1.Service{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "alertmanager-operated"}, svc); err != nil {
		t.Fatal(err)
	}
	if len(svc.Spec.Ports) != 3 || svc.Spec.ClusterIP != corev1.ClusterIPNone || svc.Spec.Selector["app.kubernetes.io/name"] != "alertmanager" {
		t.Errorf("Service %+v", svc.Spec)
	}
	sts, _ := statefulSet(ns, "alertmanager-main")
	if !metav1.IsControlledBy(sts, am) || sts.Spec.ServiceName != "alertmanager-operated" {
		t.Errorf("StatefulSet owners %+v, service %q", sts.OwnerReferences, sts.Spec.ServiceName)
	}
	eventually(t, 10*time.Second, "status", func() error {
		c, a, err := amCondition(ns, "main", monitoringv1.Reconciled)
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("Reconciled %+v", c)
		}
		if a.Status.Selector != amplan.AlertmanagerSelector(a) {
			return fmt.Errorf("status.selector %q", a.Status.Selector)
		}
		return nil
	})

	for _, n := range []int{3, 1} {
		update(t, am, func() { am.Spec.Replicas = ptr.To(int32(n)) })
		eventually(t, 20*time.Second, fmt.Sprintf("%d replicas", n), func() error { return amPeers(ns, "main", n) })
	}

	// A resync: a label change, an unrelated Secret.
	before := settle(t)
	update(t, am, func() { am.Labels = map[string]string{"touched": "1"} })
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "unrelated"}, StringData: map[string]string{"x": "y"}})
	if after := settle(t); after != before {
		t.Errorf("the operator made %v API writes with nothing to change", after-before)
	}

	// A deleted alertmanager-operated comes back from its own watch event (the operator
	// here may list and watch Services), not at the next resync.
	if err := k8s.Delete(ctx, svc); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "alertmanager-operated restored", func() error {
		var back corev1.Service
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "alertmanager-operated"}, &back); err != nil {
			return err
		}
		if back.UID == svc.UID {
			return fmt.Errorf("still the deleted Service")
		}
		return nil
	})

	changed := "route:\n  receiver: other\nreceivers:\n- name: other\n"
	update(t, user, func() { user.Data[layout.AlertmanagerConfigKey] = []byte(changed) })
	eventually(t, 20*time.Second, "changed config", func() error { return amConfigIs(ns, "main", changed) })

	update(t, user, func() { user.Data[layout.AlertmanagerConfigKey] = []byte("route: [unclosed") })
	eventually(t, 20*time.Second, "Reconciled=False", func() error {
		c, _, err := amCondition(ns, "main", monitoringv1.Reconciled)
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionFalse || c.Reason != amoutcome.ReasonInvalidConfiguration || !strings.Contains(c.Message, "base configuration does not load") {
			return fmt.Errorf("Reconciled %+v", c)
		}
		return nil
	})
	if err := amConfigIs(ns, "main", changed); err != nil {
		t.Errorf("the last good config was not kept: %v", err)
	}
}

// TestAlertmanagerDefaultConfig: without a config Secret the generated one holds
// prometheus-operator's default, and spec.configSecret names another Secret.
func TestAlertmanagerDefaultConfig(t *testing.T) {
	ns := newNamespace(t, nil)
	custom := "route:\n  receiver: c\nreceivers:\n- name: c\n"
	create(t,
		&monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "plain"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mine"}, StringData: map[string]string{"alertmanager.yaml": custom}},
		&monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "custom"}, Spec: monitoringv1.AlertmanagerSpec{ConfigSecret: "mine"}},
	)
	eventually(t, 20*time.Second, "default config", func() error {
		got, _, err := amConfig(ns, "plain")
		if err != nil {
			return err
		}
		if routing(got) != "null of null" {
			return fmt.Errorf("config %q", got)
		}
		return nil
	})
	eventually(t, 20*time.Second, "spec.configSecret", func() error { return amConfigIs(ns, "custom", custom) })
}

// amcBinding checks the status binding an Alertmanager gave an AlertmanagerConfig.
func amcBinding(ns, name, am string, status monitoringv1.ConditionStatus, msg string) error {
	amc := &monitoringv1alpha1.AlertmanagerConfig{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, amc); err != nil {
		return err
	}
	for _, b := range amc.Status.Bindings {
		if b.Resource != monitoringv1.AlertmanagerName || b.Name != am || b.Namespace != ns {
			continue
		}
		for _, c := range b.Conditions {
			if c.Type == monitoringv1.Accepted && c.Status == status && strings.Contains(c.Message, msg) && c.ObservedGeneration == amc.Generation {
				return nil
			}
		}
		return fmt.Errorf("binding %+v, want Accepted=%s with %q", b.Conditions, status, msg)
	}
	return fmt.Errorf("no binding for Alertmanager %s in %+v", am, amc.Status.Bindings)
}

// TestAlertmanagerConfigs: selected AlertmanagerConfigs are generated into the
// configuration with their Secret values; an invalid one is left out with Accepted=False
// naming the field while the rest is still generated; a rotated Secret reaches the
// configuration; fixing the invalid one brings it in.
func TestAlertmanagerConfigs(t *testing.T) {
	ns := newNamespace(t, nil)
	url := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "hook"}, StringData: map[string]string{"url": "http://one.example.invalid/"}}
	amc := func(name, key string) *monitoringv1alpha1.AlertmanagerConfig {
		return &monitoringv1alpha1.AlertmanagerConfig{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"team": "a"}},
			Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
				Route: &monitoringv1alpha1.Route{Receiver: "hook"},
				Receivers: []monitoringv1alpha1.Receiver{{Name: "hook", WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
					URLSecret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "hook"}, Key: key},
				}}}},
			},
		}
	}
	good, bad := amc("good", "url"), amc("bad", "nope")
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "main"}, Spec: monitoringv1.AlertmanagerSpec{
		AlertmanagerConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
	}}
	create(t, url, good, bad, am)

	eventually(t, 20*time.Second, "the valid AlertmanagerConfig generated", func() error {
		cfg, _, err := amConfig(ns, "main")
		if err != nil {
			return err
		}
		if !strings.Contains(cfg, ns+"/good/hook") || !strings.Contains(cfg, "http://one.example.invalid/") || strings.Contains(cfg, ns+"/bad/") {
			return fmt.Errorf("config %q", cfg)
		}
		return nil
	})
	eventually(t, 20*time.Second, "bindings", func() error {
		if err := amcBinding(ns, "good", "main", monitoringv1.ConditionTrue, ""); err != nil {
			return fmt.Errorf("good: %w", err)
		}
		return amcBinding(ns, "bad", "main", monitoringv1.ConditionFalse, `"nope"`)
	})

	// The default matcher strategy (OnNamespace) confines each AlertmanagerConfig's route
	// to alerts of its namespace; None does not.
	if cfg, _, _ := amConfig(ns, "main"); !strings.Contains(cfg, `namespace="`+ns+`"`) {
		t.Errorf("OnNamespace: no namespace matcher in %q", cfg)
	}
	update(t, am, func() {
		am.Spec.AlertmanagerConfigMatcherStrategy = monitoringv1.AlertmanagerConfigMatcherStrategy{Type: "None"}
	})
	eventually(t, 20*time.Second, "matcher strategy None", func() error {
		cfg, _, err := amConfig(ns, "main")
		if err != nil {
			return err
		}
		if strings.Contains(cfg, `namespace="`+ns+`"`) || !strings.Contains(cfg, ns+"/good/hook") {
			return fmt.Errorf("config %q", cfg)
		}
		return nil
	})

	// One change of an AlertmanagerConfig: one write of the generated Secret, and at
	// most its own status binding (its observed generation).
	settle(t)
	before := writeCounts()
	update(t, good, func() { good.Spec.Route.GroupWait = ptr.To(monitoringv1.NonEmptyDuration("45s")) })
	eventually(t, 20*time.Second, "route change generated", func() error {
		cfg, _, err := amConfig(ns, "main")
		if err != nil {
			return err
		}
		if !strings.Contains(cfg, "45s") {
			return fmt.Errorf("config %q", cfg)
		}
		return nil
	})
	settle(t)
	for k, v := range writeCounts() {
		d := v - before[k]
		switch {
		case d == 0:
		case k == "Secret/update" && d == 1:
		case k == "AlertmanagerConfig/apply-status" && d == 1:
		default:
			t.Errorf("one AlertmanagerConfig change: %v writes of %s", d, k)
		}
	}

	update(t, url, func() { url.Data = map[string][]byte{"url": []byte("http://two.example.invalid/")} })
	eventually(t, 20*time.Second, "rotated Secret in the config", func() error {
		cfg, _, err := amConfig(ns, "main")
		if err != nil {
			return err
		}
		if !strings.Contains(cfg, "http://two.example.invalid/") {
			return fmt.Errorf("config %q", cfg)
		}
		return nil
	})

	update(t, bad, func() { bad.Spec.Receivers[0].WebhookConfigs[0].URLSecret.Key = "url" })
	eventually(t, 20*time.Second, "fixed AlertmanagerConfig generated and accepted", func() error {
		cfg, _, err := amConfig(ns, "main")
		if err != nil {
			return err
		}
		if !strings.Contains(cfg, ns+"/bad/hook") {
			return fmt.Errorf("config %q", cfg)
		}
		return amcBinding(ns, "bad", "main", monitoringv1.ConditionTrue, "")
	})
}
