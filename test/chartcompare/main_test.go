package chartcompare

import (
	"context"
	"fmt"
	"os"
	"testing"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/lookout-operator/lookout/test/testenv"
)

var (
	env *testenv.Env
	k8s client.Client
	ctx = context.Background()
)

// TestMain starts one control plane for the package, with one Node, so that the kubelet
// Endpoints each operator writes list an address. No operator runs between the cases.
func TestMain(m *testing.M) {
	level := zapcore.ErrorLevel
	if os.Getenv("LOOKOUT_TEST_VERBOSE") != "" {
		level = zapcore.DebugLevel
	}
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(level)))
	var err error
	env, err = testenv.Start(ctx, testenv.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		os.Exit(1)
	}
	k8s = env.Client
	if err := addNode(); err != nil {
		fmt.Fprintln(os.Stderr, "creating the node:", err)
		_ = env.Stop()
		os.Exit(1)
	}
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
	}
	os.Exit(code)
}

func addNode() error {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Labels: map[string]string{"kubernetes.io/os": "linux"}}}
	if err := k8s.Create(ctx, node); err != nil {
		return err
	}
	node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.99.0.7"}, {Type: corev1.NodeHostName, Address: "node-a"}}
	node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	return k8s.Status().Update(ctx, node)
}
