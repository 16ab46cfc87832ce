package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestNamespaceSelector: a ServiceMonitor in another namespace is used only once its
// namespace gets the label the Prometheus's namespace selector asks for, and dropped again
// when the label goes.
func TestNamespaceSelector(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	other := newNamespace(t, nil)
	p := newPrometheus(ns, "ns-sel", func(p *monitoringv1.Prometheus) {
		p.Spec.ServiceMonitorNamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"monitor-" + ns: "yes"}}
	})
	create(t, p, newServiceMonitor(other, "remote"))
	job := "job_name: serviceMonitor/" + other + "/remote/0"
	eventually(t, 20*time.Second, "config without the remote monitor", func() error {
		c, _, err := config(ns, "ns-sel")
		if err != nil {
			return err
		}
		if strings.Contains(c, job) {
			return fmt.Errorf("monitor of an unselected namespace is in the config")
		}
		return nil
	})
	labelNamespace(t, other, "monitor-"+ns, "yes")
	eventually(t, 20*time.Second, "remote monitor after labelling its namespace", func() error {
		c, _, err := config(ns, "ns-sel")
		if err != nil {
			return err
		}
		if !strings.Contains(c, job) {
			return fmt.Errorf("job missing")
		}
		return nil
	})
	labelNamespace(t, other, "monitor-"+ns, "")
	eventually(t, 20*time.Second, "remote monitor dropped after unlabelling", func() error {
		c, _, err := config(ns, "ns-sel")
		if err != nil {
			return err
		}
		if strings.Contains(c, job) {
			return fmt.Errorf("job still present")
		}
		return nil
	})
}

func labelNamespace(t *testing.T, name, key, value string) {
	t.Helper()
	n := &corev1.Namespace{}
	if err := k8s.Get(ctx, types.NamespacedName{Name: name}, n); err != nil {
		t.Fatal(err)
	}
	patch := client.MergeFrom(n.DeepCopy())
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	if value == "" {
		delete(n.Labels, key)
	} else {
		n.Labels[key] = value
	}
	if err := k8s.Patch(ctx, n, patch); err != nil {
		t.Fatal(err)
	}
}

// TestRejectedMonitorStatus: an invalid ServiceMonitor is left out with Accepted=False, a
// reason and a message in its status, and a Warning event; a valid one next to it is in
// the config with Accepted=True; fixing the bad one makes it accepted; a monitor the
// Prometheus stops selecting loses its binding.
func TestRejectedMonitorStatus(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	bad := newServiceMonitor(ns, "bad", func(s *monitoringv1.ServiceMonitor) {
		s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{SourceLabels: []monitoringv1.LabelName{"a"}, Regex: "(unclosed", TargetLabel: "b"}}
	})
	create(t, newPrometheus(ns, "st"), newServiceMonitor(ns, "good"), bad)

	eventually(t, 20*time.Second, "bindings", func() error {
		if err := binding(ns, "good", monitoringv1.ConditionTrue, "Accepted", ""); err != nil {
			return err
		}
		return binding(ns, "bad", monitoringv1.ConditionFalse, "InvalidConfiguration", `invalid regex "(unclosed"`)
	})
	c, _, err := config(ns, "st")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c, "serviceMonitor/"+ns+"/good/0") || strings.Contains(c, "serviceMonitor/"+ns+"/bad/0") {
		t.Fatalf("config should hold the good monitor only:\n%s", c)
	}
	eventually(t, 10*time.Second, "warning event on the rejected monitor", func() error {
		var evs corev1.EventList
		if err := k8s.List(ctx, &evs, client.InNamespace(ns)); err != nil {
			return err
		}
		for _, e := range evs.Items {
			if e.InvolvedObject.Name == "bad" && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, "invalid regex") {
				return nil
			}
		}
		return fmt.Errorf("no warning event for the rejected monitor among %d events", len(evs.Items))
	})

	// Fix it: accepted, and its generation observed.
	sm := newServiceMonitor(ns, "bad")
	update(t, sm, func() { sm.Spec.Endpoints[0].RelabelConfigs[0].Regex = "(closed)" })
	eventually(t, 20*time.Second, "fixed monitor accepted", func() error {
		return binding(ns, "bad", monitoringv1.ConditionTrue, "Accepted", "")
	})

	// Stop selecting it: the binding goes away.
	sm = newServiceMonitor(ns, "good")
	update(t, sm, func() { sm.Labels = map[string]string{"team": "other"} })
	eventually(t, 20*time.Second, "binding removed", func() error {
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "good"}, sm); err != nil {
			return err
		}
		if len(sm.Status.Bindings) != 0 {
			return fmt.Errorf("bindings %+v", sm.Status.Bindings)
		}
		return nil
	})
}

// binding checks the Accepted condition of a ServiceMonitor's binding.
func binding(ns, name string, status monitoringv1.ConditionStatus, reason, msg string) error {
	sm := &monitoringv1.ServiceMonitor{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sm); err != nil {
		return err
	}
	if len(sm.Status.Bindings) != 1 {
		return fmt.Errorf("%s: want one binding, have %+v", name, sm.Status.Bindings)
	}
	b := sm.Status.Bindings[0]
	if b.Resource != "prometheuses" || b.Group != "monitoring.coreos.com" || len(b.Conditions) != 1 {
		return fmt.Errorf("%s: binding %+v", name, b)
	}
	c := b.Conditions[0]
	if c.Type != monitoringv1.Accepted || c.Status != status || c.Reason != reason || !strings.Contains(c.Message, msg) || c.ObservedGeneration != sm.Generation {
		return fmt.Errorf("%s: condition %+v (generation %d)", name, c, sm.Generation)
	}
	return nil
}

// TestReferencedSecretRotation: rotating a Secret a monitor references regenerates the
// config with the new value.
func TestReferencedSecretRotation(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "creds"}, StringData: map[string]string{"token": "first-token"}}
	sm := newServiceMonitor(ns, "auth", func(s *monitoringv1.ServiceMonitor) {
		//lint:ignore SA1019 the deprecated field is part of the API Lookout serves
		s.Spec.Endpoints[0].BearerTokenSecret = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "token"}
	})
	create(t, sec, newPrometheus(ns, "rot"), sm)
	eventually(t, 20*time.Second, "first token in config", func() error { return configContains(ns, "rot", "credentials: first-token") })
	update(t, sec, func() { sec.Data["token"] = []byte("second-token") })
	eventually(t, 20*time.Second, "rotated token in config", func() error { return configContains(ns, "rot", "credentials: second-token") })
}

func configContains(ns, name, s string) error {
	c, _, err := config(ns, name)
	if err != nil {
		return err
	}
	if !strings.Contains(c, s) {
		return fmt.Errorf("config lacks %q", s)
	}
	return nil
}

// TestTLSAssets: a CA and client certificate from a Secret become files in the tls-assets
// Secret, referenced from the config under the fixed mount path.
func TestTLSAssets(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	// Real material: Lookout builds the HTTP client's TLS settings from it as Prometheus does.
	m := tlsMaterial()
	tls := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app-tls"}, StringData: map[string]string{
		"ca.crt": m.ca, "tls.crt": m.cert, "tls.key": m.key,
	}}
	sm := newServiceMonitor(ns, "secure", func(s *monitoringv1.ServiceMonitor) {
		sel := func(k string) *corev1.SecretKeySelector {
			return &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "app-tls"}, Key: k}
		}
		s.Spec.Endpoints[0].TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{
			CA: monitoringv1.SecretOrConfigMap{Secret: sel("ca.crt")}, Cert: monitoringv1.SecretOrConfigMap{Secret: sel("tls.crt")}, KeySecret: sel("tls.key"),
		}}
	})
	create(t, tls, newPrometheus(ns, "tls"), sm)
	eventually(t, 20*time.Second, "tls assets", func() error {
		if err := configContains(ns, "tls", "ca_file: /etc/prometheus/certs/secret_"+ns+"_app-tls_ca.crt"); err != nil {
			return err
		}
		assets := &corev1.Secret{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-tls-tls-assets-0"}, assets); err != nil {
			return err
		}
		if string(assets.Data["secret_"+ns+"_app-tls_tls.key"]) != m.key || string(assets.Data["secret_"+ns+"_app-tls_ca.crt"]) != m.ca {
			return fmt.Errorf("tls-assets data %v", assets.Data)
		}
		return nil
	})
}

// TestProbesAndScrapeConfigs: selected Probes and ScrapeConfigs (static and Consul
// discovery) become jobs; an invalid ScrapeConfig is rejected with the reason.
func TestProbesAndScrapeConfigs(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "kinds", func(p *monitoringv1.Prometheus) {
		p.Spec.ProbeSelector = &metav1.LabelSelector{}
		p.Spec.ScrapeConfigSelector = &metav1.LabelSelector{}
	})
	probe := &monitoringv1.Probe{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "site"}, Spec: monitoringv1.ProbeSpec{
		ProberSpec: monitoringv1.ProberSpec{URL: "blackbox:9115"}, Module: "http_2xx",
		Targets: monitoringv1.ProbeTargets{StaticConfig: &monitoringv1.ProbeTargetStaticConfig{Targets: []string{"https://example.com"}}},
	}}
	static := &monitoringv1alpha1.ScrapeConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "static"}, Spec: monitoringv1alpha1.ScrapeConfigSpec{
		StaticConfigs: []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"10.1.1.1:9100"}}},
	}}
	consul := &monitoringv1alpha1.ScrapeConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "consul"}, Spec: monitoringv1alpha1.ScrapeConfigSpec{
		ConsulSDConfigs: []monitoringv1alpha1.ConsulSDConfig{{Server: "consul:8500"}},
	}}
	bad := &monitoringv1alpha1.ScrapeConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bad"}, Spec: monitoringv1alpha1.ScrapeConfigSpec{
		StaticConfigs:  []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"10.1.1.2:9100"}}},
		RelabelConfigs: []monitoringv1.RelabelConfig{{SourceLabels: []monitoringv1.LabelName{"a"}, Regex: "(", TargetLabel: "b"}},
	}}
	create(t, p, probe, static, consul, bad)
	eventually(t, 20*time.Second, "jobs", func() error {
		for _, j := range []string{"job_name: probe/" + ns + "/site", "job_name: scrapeConfig/" + ns + "/static", "job_name: scrapeConfig/" + ns + "/consul"} {
			if err := configContains(ns, "kinds", j); err != nil {
				return err
			}
		}
		return nil
	})
	eventually(t, 10*time.Second, "ScrapeConfig rejected in status", func() error {
		sc := &monitoringv1alpha1.ScrapeConfig{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "bad"}, sc); err != nil {
			return err
		}
		if len(sc.Status.Bindings) != 1 || sc.Status.Bindings[0].Conditions[0].Status != monitoringv1.ConditionFalse ||
			!strings.Contains(sc.Status.Bindings[0].Conditions[0].Message, "invalid regex") {
			return fmt.Errorf("bindings %+v", sc.Status.Bindings)
		}
		pr := &monitoringv1.Probe{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "site"}, pr); err != nil {
			return err
		}
		if len(pr.Status.Bindings) != 1 || pr.Status.Bindings[0].Conditions[0].Status != monitoringv1.ConditionTrue {
			return fmt.Errorf("probe bindings %+v", pr.Status.Bindings)
		}
		return nil
	})
}
