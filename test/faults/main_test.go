package faults

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lookout-operator/lookout/test/testenv"
)

const (
	// envOperator names a lookout-operator binary to use instead of building one.
	envOperator = "LOOKOUT_FAULTS_OPERATOR"
	// envKeep keeps the operators' logs (and kubeconfigs) even when every test passed.
	envKeep = "LOOKOUT_FAULTS_KEEP"
)

var (
	// cp is the control plane the tests share (the API server restart test starts its own).
	cp *controlPlane
	// operatorBin is the lookout-operator binary under test.
	operatorBin string
	// workDir holds the build, kubeconfigs and operator logs.
	workDir string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	workDir, err = os.MkdirTemp("", "faults-lookout-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	keep := os.Getenv(envKeep) != ""
	defer func() {
		if keep {
			fmt.Fprintf(os.Stderr, "faults: operator logs kept in %s\n", workDir)
			return
		}
		_ = os.RemoveAll(workDir)
	}()
	if operatorBin, err = buildOperator(); err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		return 1
	}
	ctx := context.Background()
	env, err := testenv.Start(ctx, testenv.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults: starting the control plane:", err)
		return 1
	}
	cp, err = newControlPlane("shared", env.Config, env.KubeConfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults:", err)
		_ = env.Stop()
		return 1
	}
	code := m.Run()
	keep = keep || code != 0
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "faults: stopping the control plane:", err)
	}
	return code
}

// buildOperator returns $LOOKOUT_FAULTS_OPERATOR, or builds ./cmd/operator of this
// checkout, so the tests always run the code they sit next to (bin/ may hold another
// build).
func buildOperator() (string, error) {
	if p := os.Getenv(envOperator); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", envOperator, p, err)
		}
		return p, nil
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		return "", err
	}
	out := filepath.Join(workDir, "lookout-operator")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/operator")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/operator: %v\n%s", err, b)
	}
	return out, nil
}
