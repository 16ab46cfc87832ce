package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/explain"
)

const explainFixture = "../../pkg/explain/testdata/cluster.yaml"

func runExplain(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = explainCmd(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestExplainHealthyExitsZero(t *testing.T) {
	out, errs, code := runExplain("servicemonitor", "app/api", "-f", explainFixture, "--prometheus", "mon/k8s")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"ServiceMonitor app/api\n",
		"Prometheus mon/k8s\n",
		"kept http://10.0.0.10:8080/metrics (service api, pod api-0, port web)",
		"result: every endpoint has a kept target",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour on a non-terminal")
	}
}

func TestExplainBrokenExitsOneAndNamesTheCause(t *testing.T) {
	// Flags before and after the subject; -n gives the namespace.
	out, _, code := runExplain("-f", explainFixture, "servicemonitor", "-n", "app", "rpc")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	if !strings.Contains(out, `dropped 10.0.0.20:9090 (service rpc, port grpc) by relabel_configs[2]: port name is "grpc"; the endpoint asks for "web"`) {
		t.Errorf("output:\n%s", out)
	}
}

func TestExplainJSON(t *testing.T) {
	out, errs, code := runExplain("svc", "app/db", "-f", explainFixture, "-o", "json")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var rep explain.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.OK || rep.Subject.Kind != "Service" || len(rep.NearMisses) == 0 {
		t.Errorf("report %+v", rep)
	}
}

func TestExplainOperatorFlags(t *testing.T) {
	out, _, code := runExplain("servicemonitor", "app/api", "-f", explainFixture, "--prometheus-instance-selector", "tier=canary")
	if code != 1 || !strings.Contains(out, `FAIL instance: the Prometheus's labels do not match --prometheus-instance-selector "tier=canary"`) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestExplainUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"servicemonitor"}, {"deployment", "a/b", "-f", explainFixture}, {"pod", "a/b", "-o", "yaml"}, {"pod", "a/b", "--no-such-flag"}} {
		if _, _, code := runExplain(args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if _, _, code := runExplain("servicemonitor", "app/missing", "-f", explainFixture); code != 1 {
		t.Errorf("missing monitor: exit %d, want 1", code)
	}
}
