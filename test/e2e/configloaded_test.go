//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// TestConfigLoaded: two operators run with --reloader-report-config, one in file mode
// (the reloader reads the kubelet-projected config Secret) and one in API-watch mode, each
// managing a Prometheus of two replicas. The real reloaders report each configuration
// Prometheus confirmed on their own pod, through pods/status and the Role the operator
// made, and the operator turns that into ConfigLoaded. After each of a few ServiceMonitor
// edits the condition goes False (the new configuration is not loaded yet) then True,
// naming the new hash; the time from the edit to True is logged per edit and as a median.
func TestConfigLoaded(t *testing.T) {
	sc := newScenario(t, 5*time.Minute)
	defer sc.done()
	ctx := context.Background()

	const rounds = 4
	modes := []struct {
		name string
		args []string
	}{
		{"file", []string{"--reloader-report-config"}},
		{"api", []string{"--reloader-report-config", "--reloader-watch-api"}},
	}
	type instance struct {
		mode, ns string
		sm       *monitoringv1.ServiceMonitor
		times    []time.Duration
	}
	var insts []*instance
	for _, m := range modes {
		sc.startOperator("cl-"+m.name, m.args...)
		ns := sc.ns + "-" + m.name
		if err := createNamespace(ctx, ns, nil); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, sc.prometheus(ns, "cl", func(p *monitoringv1.Prometheus) {
			p.Labels = map[string]string{operatorLabel: "cl-" + m.name}
			p.Spec.Replicas = ptr.To[int32](2)
		}))
		sm := &monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edited", Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": "edited"}},
				Endpoints: []monitoringv1.Endpoint{{Port: "web", Interval: "1s"}},
			},
		}
		mustCreate(t, sm)
		insts = append(insts, &instance{mode: m.name, ns: ns, sm: sm})
	}

	for _, in := range insts {
		// No StatefulSet controller runs here: the Pod objects the reloaders report on are
		// created as it would create them, before the pods start.
		var sts appsv1.StatefulSet
		sc.step(in.mode+" StatefulSet with --report-pod", 30*time.Second, func() error {
			if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: in.ns, Name: statefulSetName("cl", 0)}, &sts); err != nil {
				return err
			}
			for _, c := range sts.Spec.Template.Spec.Containers {
				if c.Name == "config-reloader" && slices.Contains(c.Args, "--report-pod="+in.ns+"/$(POD_NAME)") {
					return nil
				}
			}
			return fmt.Errorf("the reloader has no --report-pod")
		})
		for i := range 2 {
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Namespace: in.ns, Name: fmt.Sprintf("%s-%d", sts.Name, i), Labels: sts.Spec.Template.Labels,
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: sts.Name, UID: sts.UID}}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "localhost/lookout/prometheus:e2e"}}},
			}
			mustCreate(t, pod)
		}
		sc.runReplicas(in.ns, sts.Name)
		sc.step(in.mode+" ConfigLoaded=True at start", 60*time.Second, func() error {
			_, err := loadedWith(ctx, in.ns, configHashOf(ctx, in.ns))
			return err
		})
	}

	for i := 1; i <= rounds; i++ {
		interval := monitoringv1.Duration(fmt.Sprintf("%ds", i+1))
		type progress struct {
			oldHash, hash string
			t0            time.Time
			sawFalse      bool
			took          time.Duration
		}
		prog := map[*instance]*progress{}
		for _, in := range insts {
			prog[in] = &progress{oldHash: configHashOf(ctx, in.ns)}
			mustUpdate(t, in.sm, func() { in.sm.Spec.Endpoints[0].Interval = interval })
			prog[in].t0 = time.Now()
		}
		// Both instances are polled together, every 25 ms, so each one's time is its own.
		deadline := time.Now().Add(s.kubeSync + 60*time.Second + kubeletSlack())
		for {
			if err := sc.health(); err != nil {
				t.Fatalf("edit %d: %v", i, err)
			}
			pending := 0
			for _, in := range insts {
				pr := prog[in]
				if pr.took != 0 {
					continue
				}
				pending++
				h := configHashOf(ctx, in.ns)
				if h == "" || h == pr.oldHash {
					continue // the operator has not written the new configuration yet
				}
				c, err := loadedWith(ctx, in.ns, h)
				if c != nil && c.Status == monitoringv1.ConditionFalse && strings.Contains(c.Message, h[:12]) {
					pr.sawFalse = true
				}
				if err == nil && !pr.sawFalse && c.LastTransitionTime.Time.Before(pr.t0.Truncate(time.Second)) {
					err = fmt.Errorf("ConfigLoaded True since before the edit")
				}
				if err == nil {
					pr.hash, pr.took = h, time.Since(pr.t0)
					pending--
				} else if time.Now().After(deadline) {
					t.Fatalf("%s mode, edit %d: ConfigLoaded not True for sha256 %s after %s: %v\nlogs: %s", in.mode, i, h[:12], time.Since(pr.t0).Round(time.Millisecond), err, sc.logHint())
				}
			}
			if pending == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("edit %d: no new configuration generated", i)
			}
			time.Sleep(25 * time.Millisecond)
		}
		for _, in := range insts {
			pr := prog[in]
			if !pr.sawFalse {
				// Polling missed it; the True condition's transition time is after the edit.
				t.Logf("%s mode, edit %d: the False condition was not caught by polling (True transitioned after the edit)", in.mode, i)
			}
			t.Logf("%s mode, edit %d (interval %s, sha256 %s): ConfigLoaded False, then True %s after the edit", in.mode, i, interval, pr.hash[:12], pr.took.Round(time.Millisecond))
			in.times = append(in.times, pr.took)
		}
	}
	for _, in := range insts {
		t.Logf("%s mode: edit -> ConfigLoaded=True over %d edits: median %s, individual %v (kubelet sync every %s)",
			in.mode, rounds, median(in.times).Round(time.Millisecond), roundAll(in.times), s.kubeSync)
	}
}

// configHashOf is the hash of the configuration the operator generated last for the
// Prometheus "cl" of ns.
func configHashOf(ctx context.Context, ns string) string {
	var sec corev1.Secret
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-cl"}, &sec); err != nil {
		return ""
	}
	return sec.Annotations[layout.InputHashAnnotation]
}

// loadedWith returns the ConfigLoaded condition of the Prometheus "cl" of ns, and an error
// unless it is True for hash.
func loadedWith(ctx context.Context, ns, hash string) (*monitoringv1.Condition, error) {
	var p monitoringv1.Prometheus
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "cl"}, &p); err != nil {
		return nil, err
	}
	for i, c := range p.Status.Conditions {
		if c.Type != "ConfigLoaded" {
			continue
		}
		want := "all 2 replicas run the latest configuration (sha256 " + hash[:min(12, len(hash))] + ")"
		if c.Status != monitoringv1.ConditionTrue || c.Message != want {
			return &p.Status.Conditions[i], fmt.Errorf("ConfigLoaded=%s %s: %s", c.Status, c.Reason, c.Message)
		}
		return &p.Status.Conditions[i], nil
	}
	return nil, fmt.Errorf("no ConfigLoaded condition")
}

func roundAll(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond).String()
	}
	return out
}
