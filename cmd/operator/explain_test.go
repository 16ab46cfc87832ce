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

// TestExplainUnknownExitStatus: an endpoint the files cannot answer for is UNKNOWN and
// exits 3, not 1; slices without Endpoints pass; an endpoint the files answer with no
// address still fails (issue 35).
func TestExplainUnknownExitStatus(t *testing.T) {
	files := []string{"-f", explainFixture, "-f", "../../pkg/explain/testdata/mirror.yaml", "--prometheus", "mon/k8s"}
	for _, c := range []struct {
		subject string
		code    int
		want    []string
	}{
		{"exported/nothing", explainUnknown, []string{
			"UNKNOWN endpoint 0 (port web): job serviceMonitor/exported/nothing/0",
			"unknown the files hold no Endpoints, EndpointSlices or Pods for Service exported/nothing (selector app=nothing)",
			"result: unknown: the files cannot say whether some endpoint has a target",
		}},
		{"exported/sliced", 0, []string{"3 kept", "kept http://10.0.2.10:8080/metrics (service sliced, pod sliced-0, port web)", "result: every endpoint has a kept target"}},
		{"exported/done", 1, []string{"FAIL endpoint 0 (port web)", "result: the chain breaks"}},
	} {
		out, errs, code := runExplain(append([]string{"servicemonitor", c.subject}, files...)...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.subject, code, c.code, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.subject, w, out)
			}
		}
	}
	out, _, code := runExplain("servicemonitor", "exported/bare", "-o", "json", "-f", explainFixture, "-f", "../../pkg/explain/testdata/mirror.yaml", "--prometheus", "mon/k8s")
	var rep explain.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != explainUnknown || rep.OK || !rep.Unknown {
		t.Errorf("json: exit %d, err %v, report %+v", code, err, rep)
	}
}
