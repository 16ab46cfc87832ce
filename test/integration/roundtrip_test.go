package integration

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/test/testenv"
)

// upstreamInputHash is the annotation prometheus-operator records its input hash in.
const upstreamInputHash = "prometheus-operator-input-hash"

// TestSwapWithPrometheusOperator runs the real prometheus-operator v0.93 (built from its
// module into bin/) and Lookout in turn on the same Prometheus: going back to
// prometheus-operator and taking over again keep the StatefulSet (same UID: no deletion,
// no orphaning, pods and volumes stay), the config Secret and the governing Service, and
// each operator does write its own version of them.
func TestSwapWithPrometheusOperator(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	dedicated := labels.SelectorFromSet(labels.Set{dedicatedLabel: ns})
	p := newPrometheus(ns, "swap", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
		p.Spec.Shards = ptrInt32(2)
	})
	create(t, p, newServiceMonitor(ns, "web"))

	stop, err := startOperator(ctx, dedicated)
	if err != nil {
		t.Fatal(err)
	}
	sets := func() (map[string]*appsv1.StatefulSet, error) {
		out := map[string]*appsv1.StatefulSet{}
		for _, name := range []string{"prometheus-swap", "prometheus-swap-shard-1"} {
			s := &appsv1.StatefulSet{}
			if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, s); err != nil {
				return nil, err
			}
			out[name] = s
		}
		return out, nil
	}
	var lookoutSets map[string]*appsv1.StatefulSet
	eventually(t, 20*time.Second, "Lookout's StatefulSets", func() (err error) {
		lookoutSets, err = sets()
		return err
	})
	secret := &corev1.Secret{}
	eventually(t, 20*time.Second, "Lookout's config", func() error {
		if err := configContains(ns, "swap", "serviceMonitor/"+ns+"/web/0"); err != nil {
			return err
		}
		return k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus("swap").ConfigSecret()}, secret)
	})
	stop()

	// Going back: prometheus-operator adopts everything in place.
	stopUpstream := startPrometheusOperator(t, ns)
	eventually(t, 60*time.Second, "prometheus-operator's version of the StatefulSets", func() error {
		now, err := sets()
		if err != nil {
			return err
		}
		for name, s := range now {
			if s.UID != lookoutSets[name].UID {
				return fmt.Errorf("%s was recreated by prometheus-operator (UID %s → %s)", name, lookoutSets[name].UID, s.UID)
			}
			if s.Annotations[upstreamInputHash] == "" {
				return fmt.Errorf("%s not reconciled by prometheus-operator yet", name)
			}
		}
		return nil
	})
	upstreamSets, _ := sets()
	stopUpstream()
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: layout.Prometheus("swap").ConfigSecret()}, sec); err != nil || sec.UID != secret.UID {
		t.Fatalf("config Secret replaced by prometheus-operator: %v", err)
	}

	// Taking over again: Lookout rewrites them in place.
	stop, err = startOperator(ctx, dedicated)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	eventually(t, 30*time.Second, "Lookout's version again", func() error {
		now, err := sets()
		if err != nil {
			return err
		}
		for name, s := range now {
			if s.UID != lookoutSets[name].UID {
				return fmt.Errorf("%s was recreated by Lookout (UID %s → %s)", name, lookoutSets[name].UID, s.UID)
			}
			if s.ResourceVersion == upstreamSets[name].ResourceVersion || s.Annotations[layout.InputHashAnnotation] == "" {
				cond := ""
				if p, err := getPrometheus(ns, "swap"); err == nil {
					if c := condition(p, monitoringv1.Reconciled); c != nil {
						cond = c.Reason + ": " + c.Message
					}
				}
				return fmt.Errorf("%s not rewritten by Lookout yet (Reconciled: %s)", name, cond)
			}
		}
		return nil
	})
	if err := configContains(ns, "swap", "serviceMonitor/"+ns+"/web/0"); err != nil {
		t.Fatal(err)
	}
}

// startPrometheusOperator runs bin/prometheus-operator on the test control plane, limited
// to namespace ns and to the Prometheus objects labelled for it; stop kills it.
func startPrometheusOperator(t *testing.T, ns string) (stop func()) {
	t.Helper()
	stop, _ = startPrometheusOperatorAt(t, ns)
	return stop
}

// startPrometheusOperatorAt is startPrometheusOperator, also returning the address of its
// web listener (/metrics).
func startPrometheusOperatorAt(t *testing.T, ns string, extra ...string) (stop func(), addr string) {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = l.Addr().String()
	l.Close()
	logFile, err := os.Create(filepath.Join(dir, "prometheus-operator.log"))
	if err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(pctx, filepath.Join(root, "bin", "prometheus-operator"),
		"--namespaces="+ns,
		"--prometheus-instance-selector="+dedicatedLabel+"="+ns,
		"--web.listen-address="+addr,
		"--log-level=debug",
	)
	cmd.Args = append(cmd.Args, extra...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting prometheus-operator (make tools builds it into bin/): %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	return func() {
		cancel()
		<-done
		logFile.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logFile.Name())
			t.Logf("prometheus-operator log:\n%s", tail(b, 4000))
		}
	}, addr
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
