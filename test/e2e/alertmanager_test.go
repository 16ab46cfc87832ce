//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// TestAlertmanagerCluster: an Alertmanager with three replicas runs as the three pods of
// the operator's StatefulSet, which find each other through the --cluster.peer names of
// the governing Service (the kubelet helper's hosts files stand in for cluster DNS): each
// pod's /api/v2/status lists all three as peers, at their pod addresses, and the cluster
// is ready.
func TestAlertmanagerCluster(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()

	mustCreate(t, sc.alertmanager("mesh", 3))
	pods := sc.runReplicas(sc.ns, layout.Alertmanager("mesh").StatefulSet())
	if len(pods) != 3 {
		t.Fatalf("%d pods, want 3", len(pods))
	}
	var want []string
	for _, p := range pods {
		want = append(want, net.JoinHostPort(p.ip, fmt.Sprint(layout.AlertmanagerMeshPort)))
	}
	sort.Strings(want)
	sc.step("mesh formed: every pod sees the three peers, cluster ready", 60*time.Second, func() error {
		for _, p := range pods {
			st, err := alertmanagerStatus(p)
			if err != nil {
				return err
			}
			var got []string
			for _, peer := range st.Cluster.Peers {
				got = append(got, peer.Address)
			}
			sort.Strings(got)
			if !slices.Equal(got, want) {
				return fmt.Errorf("pod %s: peers %v, want %v", p.name, got, want)
			}
			if st.Cluster.Status != "ready" {
				return fmt.Errorf("pod %s: cluster status %q", p.name, st.Cluster.Status)
			}
		}
		return nil
	})
}

// TestAlertmanagerConfigRouting: alerts of an operator-managed Prometheus reach the
// Alertmanager the operator generated (two replicas, discovered through the governing
// Service alertmanager-operated), whose configuration the teams' AlertmanagerConfigs in
// their own namespaces extend:
//
//   - each team's route delivers the alert carrying its namespace label to its webhook
//     (served by the suite); neither route has matchers of its own, so only the namespace
//     matcher the operator enforces (OnNamespace) keeps the other team's alert, and an
//     alert of neither namespace, away from it;
//   - an edit that makes team B's AlertmanagerConfig invalid (a webhook URL in a Secret
//     that does not exist) is rejected in its status, the object is left out of the
//     configuration every replica serves, team A's route stays and its alerts are still
//     delivered;
//   - a change of team A's route (group_by) and receiver (a second webhook) is served by
//     every replica (/api/v2/status) and delivers to both webhooks without a pod restart.
func TestAlertmanagerConfigRouting(t *testing.T) {
	sc := newScenario(t, 4*time.Minute)
	defer sc.done()
	ctx := context.Background()

	teamA, teamB := sc.ns+"-team-a", sc.ns+"-team-b"
	for _, ns := range []string{teamA, teamB} {
		if err := createNamespace(ctx, ns, sc.labels()); err != nil {
			t.Fatal(err)
		}
	}
	hook := startWebhookSink(t)
	amcA, amcB := teamConfig(sc, teamA, hook.url("/team-a")), teamConfig(sc, teamB, hook.url("/team-b"))
	mustCreate(t, amcA, amcB, sc.alertmanager("routing", 2, func(a *monitoringv1.Alertmanager) {
		a.Spec.AlertmanagerConfigSelector = &metav1.LabelSelector{MatchLabels: sc.labels()}
		a.Spec.AlertmanagerConfigNamespaceSelector = &metav1.LabelSelector{MatchLabels: sc.labels()}
	}))
	ams := sc.runReplicas(sc.ns, layout.Alertmanager("routing").StatefulSet())
	// There is no endpoint controller: publish the pods behind the governing Service.
	if err := publishPods(ctx, sc.ns, layout.AlertmanagerGoverningServiceName, ams); err != nil {
		t.Fatal(err)
	}
	receiverA, receiverB := teamA+"/team/webhook", teamB+"/team/webhook"
	sc.step("both AlertmanagerConfigs accepted and served by every replica", 60*time.Second, func() error {
		for _, c := range []*monitoringv1alpha1.AlertmanagerConfig{amcA, amcB} {
			if _, err := amcAccepted(sc, c, true); err != nil {
				return err
			}
		}
		return servedByAll(ams, func(cfg amConfig) error {
			for _, r := range []string{receiverA, receiverB} {
				if cfg.route(r) == nil {
					return fmt.Errorf("no route to receiver %s", r)
				}
			}
			return nil
		})
	})

	mustCreate(t, sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) {
		p.Spec.Alerting = &monitoringv1.AlertingSpec{Alertmanagers: []monitoringv1.AlertmanagerEndpoints{{
			Namespace: ptr.To(sc.ns), Name: layout.AlertmanagerGoverningServiceName, Port: intstr.FromString("web"),
		}}}
	}))
	prom := promAPI{base: sc.runPods(sc.ns, statefulSetName("main", 0))[0].url("web")}
	sc.step("Prometheus discovered both Alertmanagers", 60*time.Second, func() error {
		var data struct {
			Active []struct {
				URL string `json:"url"`
			} `json:"activeAlertmanagers"`
		}
		if err := prom.get("/api/v1/alertmanagers", nil, &data); err != nil {
			return err
		}
		if len(data.Active) != len(ams) {
			return fmt.Errorf("%d active Alertmanagers, want %d: %v", len(data.Active), len(ams), data.Active)
		}
		return nil
	})

	mustCreate(t, teamAlerts(sc, "team-alerts", map[string]string{
		"E2ETeamA": teamA, "E2ETeamB": teamB, "E2ENoTeam": sc.ns,
	}))
	sc.step("PrometheusRule alerts delivered to each team's webhook", 60*time.Second, func() error {
		if err := hook.received("/team-a", "E2ETeamA", teamA); err != nil {
			return err
		}
		return hook.received("/team-b", "E2ETeamB", teamB)
	})
	// The routes' group_wait is 1s: what else would be delivered has been by now.
	time.Sleep(3 * time.Second)
	for _, w := range []struct{ path, alert string }{
		{"/team-a", "E2ETeamB"}, {"/team-a", "E2ENoTeam"}, {"/team-b", "E2ETeamA"}, {"/team-b", "E2ENoTeam"},
	} {
		if n := len(hook.alerts(w.path, w.alert)); n != 0 {
			t.Errorf("webhook %s received %s %d times: the namespace matcher does not keep other namespaces' alerts away", w.path, w.alert, n)
		}
	}

	// An invalid edit of team B's object: the receiver's second webhook takes its URL from a
	// Secret that does not exist.
	mustUpdate(t, amcB, func() {
		amcB.Spec.Receivers[0].WebhookConfigs = append(amcB.Spec.Receivers[0].WebhookConfigs, monitoringv1alpha1.WebhookConfig{
			URLSecret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "missing-webhook"}, Key: "url"},
		})
	})
	sc.step("invalid edit of team B's AlertmanagerConfig rejected in its status", 30*time.Second, func() error {
		c, err := amcAccepted(sc, amcB, false)
		if err != nil {
			return err
		}
		if !strings.Contains(c.Message, "missing-webhook") {
			return fmt.Errorf("condition message %q does not name the missing Secret", c.Message)
		}
		if c.ObservedGeneration != amcB.Generation {
			return fmt.Errorf("condition for generation %d, want %d", c.ObservedGeneration, amcB.Generation)
		}
		_, err = amcAccepted(sc, amcA, true)
		return err
	})
	// The rejected object is left out of the configuration; the other team's route stays.
	sc.step("every replica serves team A's route without team B's", 30*time.Second, func() error {
		return servedByAll(ams, func(cfg amConfig) error {
			if cfg.route(receiverA) == nil {
				return fmt.Errorf("no route to %s", receiverA)
			}
			if cfg.route(receiverB) != nil {
				return fmt.Errorf("the rejected %s is still routed to", receiverB)
			}
			return nil
		})
	})
	mustCreate(t, teamAlerts(sc, "after-rejection", map[string]string{"E2ETeamAAfterRejection": teamA}))
	sc.step("team A's new alert delivered after the rejection", 60*time.Second, func() error {
		return hook.received("/team-a", "E2ETeamAAfterRejection", teamA)
	})

	// A valid change of team A's object: group by severity too, and a second webhook.
	mustUpdate(t, amcA, func() {
		amcA.Spec.Route.GroupBy = []string{"alertname", "severity"}
		amcA.Spec.Receivers[0].WebhookConfigs = append(amcA.Spec.Receivers[0].WebhookConfigs, monitoringv1alpha1.WebhookConfig{URL: ptr.To(hook.url("/team-a-2"))})
	})
	sc.step("team A's change served by every replica (/api/v2/status config)", 60*time.Second, func() error {
		return servedByAll(ams, func(cfg amConfig) error {
			r := cfg.route(receiverA)
			if r == nil {
				return fmt.Errorf("no route to %s", receiverA)
			}
			if !slices.Equal(r.GroupBy, []string{"alertname", "severity"}) {
				return fmt.Errorf("route to %s groups by %v", receiverA, r.GroupBy)
			}
			if n := cfg.webhooks(receiverA); n != 2 {
				return fmt.Errorf("receiver %s has %d webhooks, want 2", receiverA, n)
			}
			return nil
		})
	})
	// Served by the reloader's reload, not by new pods (scenario.done checks again at the
	// end).
	for _, p := range ams {
		if n := p.restartCount(); n != 0 {
			t.Errorf("pod %s was recreated %d times: the configuration change rolled it", p.name, n)
		}
	}
	mustCreate(t, teamAlerts(sc, "after-change", map[string]string{"E2ETeamAAfterChange": teamA}))
	sc.step("team A's new alert delivered to both its webhooks", 60*time.Second, func() error {
		if err := hook.received("/team-a", "E2ETeamAAfterChange", teamA); err != nil {
			return err
		}
		return hook.received("/team-a-2", "E2ETeamAAfterChange", teamA)
	})
}

// alertmanager is an Alertmanager object of a scenario: the version of bin/alertmanager
// (the image the kubelet helper has), replicas as given.
func (sc *scenario) alertmanager(name string, replicas int32, mutate ...func(*monitoringv1.Alertmanager)) *monitoringv1.Alertmanager {
	a := &monitoringv1.Alertmanager{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: name},
		Spec: monitoringv1.AlertmanagerSpec{
			Replicas: ptr.To(replicas),
			Version:  "v" + imageVersion(alertmanagerImageRepo),
		},
	}
	for _, m := range mutate {
		m(a)
	}
	return a
}

// teamConfig is a team's AlertmanagerConfig "team": one route without matchers of its
// own to a receiver "webhook" that posts to url, grouped by alert name, with short waits.
func teamConfig(sc *scenario, ns, url string) *monitoringv1alpha1.AlertmanagerConfig {
	second := ptr.To(monitoringv1.NonEmptyDuration("1s"))
	return &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "team", Labels: sc.labels()},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route: &monitoringv1alpha1.Route{
				Receiver:       "webhook",
				GroupBy:        []string{"alertname"},
				GroupWait:      second,
				GroupInterval:  second,
				RepeatInterval: ptr.To(monitoringv1.NonEmptyDuration("1h")),
			},
			Receivers: []monitoringv1alpha1.Receiver{{
				Name:           "webhook",
				WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{URL: ptr.To(url)}},
			}},
		},
	}
}

// teamAlerts is a PrometheusRule whose alerts (name → namespace label) always fire.
func teamAlerts(sc *scenario, name string, alerts map[string]string) *monitoringv1.PrometheusRule {
	var rules []monitoringv1.Rule
	for _, alert := range keys(alerts) {
		rules = append(rules, monitoringv1.Rule{
			Alert:  alert,
			Expr:   intstr.FromString("vector(1)"),
			Labels: map[string]string{"namespace": alerts[alert], "severity": "warning"},
		})
	}
	sort.Slice(rules, func(i, j int) bool { return rules[i].Alert < rules[j].Alert })
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: name, Labels: sc.labels()},
		Spec:       monitoringv1.PrometheusRuleSpec{Groups: []monitoringv1.RuleGroup{{Name: name, Rules: rules}}},
	}
}

// amcAccepted reads an AlertmanagerConfig and checks its Accepted condition for the
// scenario's Alertmanagers (any of them: the scenario has one that selects it).
func amcAccepted(sc *scenario, c *monitoringv1alpha1.AlertmanagerConfig, want bool) (*monitoringv1.ConfigResourceCondition, error) {
	var got monitoringv1alpha1.AlertmanagerConfig
	if err := s.k8s.Get(context.Background(), types.NamespacedName{Namespace: c.Namespace, Name: c.Name}, &got); err != nil {
		return nil, err
	}
	c.Generation = got.Generation
	var errs []string
	for _, b := range got.Status.Bindings {
		if b.Namespace != sc.ns {
			continue
		}
		cond, err := acceptedBy(got.Status.Bindings, monitoringv1.AlertmanagerName, b.Namespace, b.Name, want)
		if err == nil {
			return cond, nil
		}
		errs = append(errs, err.Error())
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("AlertmanagerConfig %s/%s: no binding to an Alertmanager of %s: %+v", c.Namespace, c.Name, sc.ns, got.Status.Bindings)
	}
	return nil, fmt.Errorf("AlertmanagerConfig %s/%s: %s", c.Namespace, c.Name, strings.Join(errs, "; "))
}

// Alertmanager's /api/v2/status, the parts the scenarios read.
type amStatus struct {
	Cluster struct {
		Status string `json:"status"`
		Peers  []struct {
			Name    string `json:"name"`
			Address string `json:"address"`
		} `json:"peers"`
	} `json:"cluster"`
	Config struct {
		Original string `json:"original"`
	} `json:"config"`
}

func alertmanagerStatus(p *pod) (*amStatus, error) {
	var st amStatus
	if err := getJSON(p.url("web")+"/api/v2/status", &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// amConfig is the configuration an Alertmanager runs with (config.original of
// /api/v2/status), the parts the scenarios read.
type amConfig struct {
	Route     amRoute `json:"route"`
	Receivers []struct {
		Name     string `json:"name"`
		Webhooks []any  `json:"webhook_configs"`
	} `json:"receivers"`
}

type amRoute struct {
	Receiver string    `json:"receiver"`
	GroupBy  []string  `json:"group_by"`
	Routes   []amRoute `json:"routes"`
}

// route finds the first route (depth first) to receiver.
func (c amConfig) route(receiver string) *amRoute {
	var find func(r *amRoute) *amRoute
	find = func(r *amRoute) *amRoute {
		if r.Receiver == receiver {
			return r
		}
		for i := range r.Routes {
			if f := find(&r.Routes[i]); f != nil {
				return f
			}
		}
		return nil
	}
	return find(&c.Route)
}

// webhooks counts the webhook configurations of a receiver (-1: no such receiver).
func (c amConfig) webhooks(receiver string) int {
	for _, r := range c.Receivers {
		if r.Name == receiver {
			return len(r.Webhooks)
		}
	}
	return -1
}

// servedBy checks the configuration the pod's Alertmanager runs with.
func servedBy(p *pod, check func(amConfig) error) error {
	st, err := alertmanagerStatus(p)
	if err != nil {
		return err
	}
	var cfg amConfig
	if err := yaml.Unmarshal([]byte(st.Config.Original), &cfg); err != nil {
		return fmt.Errorf("pod %s: config.original: %w", p.name, err)
	}
	if err := check(cfg); err != nil {
		return fmt.Errorf("pod %s: %w", p.name, err)
	}
	return nil
}

func servedByAll(pods []*pod, check func(amConfig) error) error {
	for _, p := range pods {
		if err := servedBy(p, check); err != nil {
			return err
		}
	}
	return nil
}

// webhookSink is the teams' webhook receiver: an HTTP server of the suite on its own
// pod-network address that records the alerts of every notification, by request path.
type webhookSink struct {
	base string
	mu   sync.Mutex
	got  map[string][]webhookAlert
	err  error // the first notification that could not be read
}

type webhookAlert struct {
	Status string            `json:"status"`
	Labels map[string]string `json:"labels"`
}

func startWebhookSink(t *testing.T) *webhookSink {
	t.Helper()
	ip := s.ips.allocate()
	if err := addHostAddress(ip); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "8080"))
	if err != nil {
		t.Fatal(err)
	}
	w := &webhookSink{base: "http://" + l.Addr().String(), got: map[string][]webhookAlert{}}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		var msg struct {
			Alerts []webhookAlert `json:"alerts"`
		}
		if err == nil {
			err = json.Unmarshal(b, &msg)
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if err != nil {
			if w.err == nil {
				w.err = fmt.Errorf("webhook %s: %w (body %q)", r.URL.Path, err, b)
			}
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		w.got[r.URL.Path] = append(w.got[r.URL.Path], msg.Alerts...)
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close() })
	return w
}

func (w *webhookSink) url(path string) string { return w.base + path }

// alerts are the alerts named alertname that path received, in order.
func (w *webhookSink) alerts(path, alertname string) []webhookAlert {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []webhookAlert
	for _, a := range w.got[path] {
		if a.Labels["alertname"] == alertname {
			out = append(out, a)
		}
	}
	return out
}

// received checks that path received alertname firing with the namespace label ns, and
// that every notification so far could be read.
func (w *webhookSink) received(path, alertname, ns string) error {
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if err != nil {
		return err
	}
	for _, a := range w.alerts(path, alertname) {
		if a.Status == "firing" && a.Labels["namespace"] == ns {
			return nil
		}
	}
	w.mu.Lock()
	n := len(w.got[path])
	w.mu.Unlock()
	return fmt.Errorf("webhook %s has not received %s firing with namespace %s (%d alerts received there)", path, alertname, ns, n)
}
