//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReloaderAwaitsFrozenPrometheus: Prometheus stops answering (SIGSTOP: the process is
// alive, its socket accepts connections, nothing is answered) while a rule change reaches
// the pod. The config-reloader's reload goes past its 30 s reload timeout; the reloader
// logs it as overdue and keeps waiting for the answer instead of requesting another
// (ADR 39: Prometheus would queue a second full load behind the first). Once Prometheus
// runs again (SIGCONT) it answers the one request, the edit is served at once, no reload
// was counted as failed, and the config the reloader reports is the one the operator
// generated.
//
// pkg/reloader's tests cover the rest: a Prometheus that is down (connection refused,
// retries spaced 50, 100, 200 ms... in TestPrometheusRestart), a config Prometheus
// rejects, which leaves it on the old one (TestInvalidConfigKeepsOld), and one that never
// answers, given up after MaxAwait and asked again (TestStuckReloadFailsAfterMaxAwait).
func TestReloaderAwaitsFrozenPrometheus(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()

	mustCreate(t, sc.prometheus(sc.ns, "main"))
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}
	rule := recordingRule(sc, "rule", "e2e:frozen", "vector(1)")
	mustCreate(t, rule)
	sc.step("rule served", 60*time.Second, func() error { return servesRule(prom, "e2e:frozen", "vector(1)") })
	reloader := pd.url("reloader-web") + "/metrics"
	before, err := scrapeMetrics(reloader)
	if err != nil {
		t.Fatal(err)
	}

	promProc := pd.container("prometheus")
	if err := promProc.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	frozen := true
	thaw := func() {
		if frozen {
			frozen = false
			if err := promProc.Signal(syscall.SIGCONT); err != nil {
				t.Error(err)
			}
		}
	}
	defer thaw() // the pod must stop cleanly at the end, whatever happens
	setExpr(t, rule, "vector(2)")
	// The kubelet sync (5 s) brings the rule file, then the reload timeout (30 s, the
	// reloader's default) passes without an answer.
	const overdue = "waiting for its answer rather than requesting another"
	took := sc.step("reload against the frozen Prometheus logged as overdue", 60*time.Second, func() error {
		if !strings.Contains(tail(pd.dir+"/config-reloader.log", 50), overdue) {
			return fmt.Errorf("no %q in the reloader's log", overdue)
		}
		return nil
	})
	t.Logf("measured: overdue reload logged %s after the edit, Prometheus frozen", took.Round(time.Millisecond))

	thaw()
	took = sc.step("edit served once Prometheus runs again", 60*time.Second, func() error {
		if err := servesRule(prom, "e2e:frozen", "vector(2)"); err != nil {
			return err
		}
		m, err := scrapeMetrics(reloader)
		if err != nil {
			return err
		}
		if m["reloader_last_reload_successful"] != 1 {
			return fmt.Errorf("reloader_last_reload_successful %v", m["reloader_last_reload_successful"])
		}
		return nil
	})
	t.Logf("measured: edit served %s after SIGCONT", took.Round(time.Millisecond))
	after, err := scrapeMetrics(reloader)
	if err != nil {
		t.Fatal(err)
	}
	if reloads, failed := after["reloader_reloads_total"]-before["reloader_reloads_total"],
		after["reloader_reloads_failed_total"]-before["reloader_reloads_failed_total"]; reloads != 1 || failed != 0 {
		t.Errorf("%v reload requests, %v failed, for one edit against a frozen Prometheus; want 1 request, none failed", reloads, failed)
	}
	sc.step("config loaded by the reloader is the one the operator generated", 30*time.Second, func() error {
		return configHashesMatch(mainOperator, pd, sc.ns, "main")
	})
}

// container returns the process of a running container of the pod.
func (p *pod) container(name string) *proc {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.containers {
		if strings.HasSuffix(c.Name(), "/"+name) {
			return c
		}
	}
	panic(fmt.Sprintf("pod %s has no container %s", p.name, name))
}
