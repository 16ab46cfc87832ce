//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// scenarioLabel selects a scenario's monitors and rules.
const scenarioLabel = "e2e.lookout.dev/scenario"

// scenario is one end-to-end test: its namespace, the pods the suite runs for it, and the
// time it may take.
type scenario struct {
	t     *testing.T
	name  string // short name: namespace suffix and label value
	ns    string
	limit time.Duration
	start time.Time
	pods  []*pod
	procs []*proc // other processes the scenario started (an operator)
}

// newScenario starts a scenario that must finish within limit; call done with defer.
// Scenarios run in parallel (go test -parallel bounds how many).
func newScenario(t *testing.T, limit time.Duration) *scenario {
	t.Parallel()
	name := strings.ToLower(strings.TrimPrefix(t.Name(), "Test"))
	name = regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(name, "-")
	// Limits are written for the default kubelet sync; a slower one (LOOKOUT_E2E_KUBELET_SYNC)
	// gets its extra time for each of a scenario's steps.
	limit += 10 * kubeletSlack()
	sc := &scenario{t: t, name: name, ns: "e2e-" + name, limit: limit, start: time.Now()}
	if err := createNamespace(context.Background(), sc.ns, nil); err != nil {
		t.Fatal(err)
	}
	return sc
}

// done logs how long the scenario took and fails it when over its limit, or when a pod
// was recreated more or less often than the scenario expects (by default never: nothing
// changes a pod template unless the scenario says so).
func (sc *scenario) done() {
	took := time.Since(sc.start)
	sc.t.Logf("scenario %s took %s (limit %s)", sc.name, took.Round(time.Millisecond), sc.limit)
	if took > sc.limit {
		sc.t.Errorf("scenario %s took %s, over its limit of %s", sc.name, took.Round(time.Millisecond), sc.limit)
	}
	for _, p := range sc.pods {
		if n := p.restartCount(); n != p.wantRestarts {
			sc.t.Errorf("pod %s/%s was recreated %d times, want %d: its StatefulSet's pod template changed (see %s/kubelet.log)", p.namespace, p.name, n, p.wantRestarts, p.dir)
		}
	}
}

// health returns the first failure of a process the scenario depends on.
func (sc *scenario) health() error {
	if err := operatorAlive(); err != nil {
		return err
	}
	for _, p := range sc.procs {
		if err := p.Alive(); err != nil {
			return err
		}
	}
	for _, p := range sc.pods {
		if err := p.health(); err != nil {
			return err
		}
	}
	return nil
}

// step polls f until it returns nil, logs how long that took and returns it. It fails the
// test when timeout passes first or when a process dies meanwhile.
func (sc *scenario) step(what string, timeout time.Duration, f func() error) time.Duration {
	sc.t.Helper()
	timeout += kubeletSlack()
	t0 := time.Now()
	lastReport := t0
	var err error
	for {
		if herr := sc.health(); herr != nil {
			sc.t.Fatalf("%s: %v", what, herr)
		}
		if err = f(); err == nil {
			took := time.Since(t0)
			sc.t.Logf("%-60s %8s", what, took.Round(time.Millisecond))
			return took
		}
		if time.Since(t0) > timeout {
			sc.t.Fatalf("%s: still failing after %s: %v\nlogs: %s", what, timeout, err, sc.logHint())
		}
		if time.Since(lastReport) > 10*time.Second {
			sc.t.Logf("%s: waiting for %s: %v", what, time.Since(t0).Round(time.Second), err)
			lastReport = time.Now()
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// kubeletSlack is how much longer than the default a kubelet sync may take.
func kubeletSlack() time.Duration { return max(0, s.kubeSync-defaultKubeletSync) }

func (sc *scenario) logHint() string {
	hints := []string{mainOperator.Log()}
	for _, p := range sc.procs {
		hints = append(hints, p.Log())
	}
	for _, p := range sc.pods {
		hints = append(hints, p.logs())
	}
	return strings.Join(hints, " ")
}

// runPods runs the pod of each StatefulSet (of one replica) and waits until they are
// ready.
func (sc *scenario) runPods(ns string, statefulSets ...string) []*pod {
	sc.t.Helper()
	var pods []*pod
	for _, name := range statefulSets {
		pods = append(pods, runStatefulSetPod(sc.t, ns, name))
	}
	sc.ready(pods)
	return pods
}

// runReplicas runs every replica of a StatefulSet and waits until they are ready.
func (sc *scenario) runReplicas(ns, statefulSet string) []*pod {
	sc.t.Helper()
	pods := runStatefulSetPods(sc.t, ns, statefulSet)
	sc.ready(pods)
	return pods
}

// ready makes pods the scenario's (their health is checked at every step) and waits for
// their readiness.
func (sc *scenario) ready(pods []*pod) {
	sc.t.Helper()
	sc.pods = append(sc.pods, pods...)
	for _, p := range pods {
		sc.step(fmt.Sprintf("pod %s ready", p.name), 90*time.Second, p.ready)
	}
}

// prometheus is a Prometheus object for a scenario: its monitors and rules are the ones
// labelled with the scenario's name in its namespace, scrape and evaluation every second,
// discovery through EndpointSlices, the prometheus service account.
func (sc *scenario) prometheus(ns, name string, mutate ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{scenarioLabel: sc.name}}
	p := &monitoringv1.Prometheus{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: monitoringv1.PrometheusSpec{
			CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
				ServiceAccountName:     prometheusSA,
				ServiceMonitorSelector: sel,
				PodMonitorSelector:     sel,
				ScrapeInterval:         "1s",
				ServiceDiscoveryRole:   ptr.To(monitoringv1.EndpointSliceRole),
			},
			RuleSelector:       sel,
			EvaluationInterval: "1s",
		},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

// labels are the labels that make the scenario's Prometheus select an object.
func (sc *scenario) labels() map[string]string { return map[string]string{scenarioLabel: sc.name} }

// statefulSetName is the StatefulSet of a shard of a Prometheus.
func statefulSetName(prometheus string, shard int) string {
	return layout.Prometheus(prometheus).StatefulSet(shard)
}
