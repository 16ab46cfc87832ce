package integration

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/test/testenv"
)

// dedicatedLabel marks Prometheus objects the shared operator ignores, for tests that run
// (and restart) an operator of their own.
const dedicatedLabel = "lookout-test/dedicated"

var (
	env    *testenv.Env
	k8s    client.Client
	nsSeq  atomic.Int32
	cancel context.CancelFunc
	// sharedRegistry holds the metrics of the operator every test shares.
	sharedRegistry *prometheus.Registry
)

func TestMain(m *testing.M) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapLevel())))
	ctx, c := context.WithCancel(context.Background())
	cancel = c
	var err error
	env, err = testenv.Start(ctx, testenv.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		os.Exit(1)
	}
	k8s = env.Client
	sharedRegistry = prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.NewSelector().Add(mustRequirement(dedicatedLabel, "!")), func(o *operator.Options) { o.Registry = sharedRegistry })
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the operator:", err)
		_ = env.Stop()
		os.Exit(1)
	}
	code := m.Run()
	stop()
	cancel()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
	}
	os.Exit(code)
}

func zapLevel() zapcore.Level {
	if os.Getenv("LOOKOUT_TEST_VERBOSE") != "" {
		return zapcore.DebugLevel
	}
	return zapcore.ErrorLevel
}

func mustRequirement(key string, op string) labels.Requirement {
	r, err := labels.NewRequirement(key, selection.DoesNotExist, nil)
	if err != nil {
		panic(err)
	}
	return *r
}

// startOperator runs an operator in-process on the test control plane; stop waits for it.
func startOperator(ctx context.Context, instances labels.Selector, mut ...func(*operator.Options)) (stop func(), err error) {
	opts := operator.DefaultOptions()
	opts.Registry = prometheus.NewRegistry()
	// Target health needs Prometheus pods, which only targethealth_test.go fakes: without
	// them every binding would turn Unknown after two polls.
	opts.TargetHealthInterval = 0
	for _, m := range mut {
		m(&opts)
	}
	opts.MetricsAddr, opts.ProbeAddr = "0", "0"
	opts.LeaderElection = false
	opts.PrometheusInstanceSelector = instances
	// ThanosRulers too: a dedicated operator never reconciles the shared one's.
	opts.ThanosRulerInstanceSelector = instances
	opts.AlertmanagerInstanceSelector = instances
	opts.GracefulShutdown = 5 * time.Second
	opts.SkipControllerNameValidation = true
	mgr, err := operator.New(ctx, env.Config, opts)
	if err != nil {
		return nil, err
	}
	mctx, mcancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	if !mgr.GetCache().WaitForCacheSync(mctx) {
		mcancel()
		return nil, fmt.Errorf("cache did not sync")
	}
	return func() { mcancel(); <-done }, nil
}

// newNamespace creates a namespace for one test.
func newNamespace(t *testing.T, lbls map[string]string) string {
	t.Helper()
	name := fmt.Sprintf("t%02d-%s", nsSeq.Add(1), strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())))
	if len(name) > 60 {
		name = name[:60]
	}
	name = strings.TrimRight(name, "-")
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: lbls}}
	if err := k8s.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return name
}

// eventually retries f until it returns nil or the timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		if err = f(); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: still failing after %s: %v", what, timeout, err)
}

// writes returns the shared operator's API write count so far.
func writes() float64 {
	total := 0.0
	for _, v := range writeCounts() {
		total += v
	}
	return total
}

// writeCounts returns the shared operator's lookout_api_writes_total by "kind/verb".
func writeCounts() map[string]float64 { return writeCountsOf(sharedRegistry) }

// writeCountsOf returns lookout_api_writes_total by "kind/verb" from one operator's
// registry.
func writeCountsOf(reg *prometheus.Registry) map[string]float64 {
	out := map[string]float64{}
	families, err := reg.Gather()
	if err != nil {
		panic(err)
	}
	for _, f := range families {
		if f.GetName() != "lookout_api_writes_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			var kind, verb string
			for _, l := range m.GetLabel() {
				switch l.GetName() {
				case "kind":
					kind = l.GetValue()
				case "verb":
					verb = l.GetValue()
				}
			}
			out[kind+"/"+verb] = m.GetCounter().GetValue()
		}
	}
	return out
}
