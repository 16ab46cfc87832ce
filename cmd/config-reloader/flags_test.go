package main

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader/apiwatch"
)

func TestParseFlagsDefaults(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"--config-file=/in.gz"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.watchInterval != 3*time.Minute || c.delayInterval != 100*time.Millisecond ||
		c.retryInterval != 5*time.Second || c.reloadTimeout != 30*time.Second ||
		c.reloadURL != "http://127.0.0.1:9090/-/reload" ||
		c.runtimeInfoURL != "http://127.0.0.1:9090/api/v1/status/runtimeinfo" ||
		c.reloadMethod != "http" || c.processName != "prometheus" || c.listenAddress != ":8080" ||
		c.logLevel != "info" || c.logFormat != "logfmt" {
		t.Fatalf("defaults %+v", c)
	}
}

func TestParseFlagsOperatorContract(t *testing.T) {
	t.Parallel()
	// The arguments the operator's pod spec passes.
	c, err := parseFlags([]string{
		"--config-file=/etc/prometheus/config/prometheus.yaml.gz",
		"--config-envsubst-file=/etc/prometheus/config_out/prometheus.env.yaml",
		"--watched-dir=/etc/prometheus/rules/prometheus-k8s-rulefiles-0",
		"--watched-dir=/etc/prometheus/rules/prometheus-k8s-rulefiles-1",
		"--watch-interval=0",
		"--delay-interval=50ms",
		"--retry-interval=2s",
		"--reload-timeout=10s",
		"--reload-url=http://127.0.0.1:9090/-/reload",
		"--runtimeinfo-url=http://127.0.0.1:9090/api/v1/status/runtimeinfo",
		"--reload-method=signal",
		"--process-name=prometheus",
		"--listen-address=:8080",
		"--log-level=debug",
		"--log-format=json",
		"--watch-secret=monitoring/prometheus-k8s=/etc/prometheus/config",
		"--watch-configmap=monitoring/prometheus-k8s-rulefiles-0=/etc/prometheus/rules/prometheus-k8s-rulefiles-0",
		"--kubeconfig=/kc",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.watchedDirs, []string{"/etc/prometheus/rules/prometheus-k8s-rulefiles-0", "/etc/prometheus/rules/prometheus-k8s-rulefiles-1"}) {
		t.Fatalf("watched dirs %v", c.watchedDirs)
	}
	if c.watchInterval != 0 || c.delayInterval != 50*time.Millisecond || c.reloadMethod != "signal" || c.kubeconfig != "/kc" {
		t.Fatalf("parsed %+v", c)
	}
	want := []apiwatch.Target{
		{Kind: apiwatch.KindSecret, Namespace: "monitoring", Name: "prometheus-k8s", Dir: "/etc/prometheus/config"},
		{Kind: apiwatch.KindConfigMap, Namespace: "monitoring", Name: "prometheus-k8s-rulefiles-0", Dir: "/etc/prometheus/rules/prometheus-k8s-rulefiles-0"},
	}
	if !slices.Equal(c.targets, want) {
		t.Fatalf("targets %+v", c.targets)
	}
}

func TestProcessNameAlias(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"--config-file=/in", "--reload-method=signal", "--process-executable-name=prom2"}, io.Discard)
	if err != nil || c.processName != "prom2" {
		t.Fatalf("%q, %v", c.processName, err)
	}
}

func TestParseFlagsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "nothing to do"},
		{[]string{"--config-envsubst-file=/out"}, "nothing to do"},
		{[]string{"--watched-dir=/r", "--config-envsubst-file=/out"}, "needs --config-file"},
		{[]string{"--config-file=/in", "--reload-method=carrier-pigeon"}, "unknown --reload-method"},
		{[]string{"--config-file=/in", "--watch-interval=soon"}, "invalid value"},
		{[]string{"--config-file=/in", "--delay-interval=-1s"}, "must not be negative"},
		{[]string{"--config-file=/in", "--retry-interval=0"}, "must be positive"},
		{[]string{"--config-file=/in", "--reload-url="}, "needs --reload-url"},
		{[]string{"--config-file=/in", "--watch-secret=nonamespace=/d"}, "NAMESPACE/NAME=DIR"},
		{[]string{"--config-file=/in", "--watch-configmap=ns/name"}, "NAMESPACE/NAME=DIR"},
		{[]string{"--config-file=/in", "stray"}, "unexpected arguments"},
		{[]string{"--no-such-flag"}, "not defined"},
	} {
		_, err := parseFlags(tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestNewLogger(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	log, err := newLogger(&b, "warn", "json")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("hidden")
	log.Warn("shown", "k", "v")
	if out := b.String(); strings.Contains(out, "hidden") || !strings.Contains(out, `"msg":"shown","k":"v"`) {
		t.Fatalf("json output %q", out)
	}
	b.Reset()
	log, _ = newLogger(&b, "debug", "logfmt")
	log.Debug("dbg", "k", "v w")
	if out := b.String(); !strings.Contains(out, `level=DEBUG msg=dbg k="v w"`) {
		t.Fatalf("logfmt output %q", out)
	}
	if _, err := newLogger(&b, "loud", "logfmt"); err == nil {
		t.Fatal("bad level accepted")
	}
	if _, err := newLogger(&b, "info", "xml"); err == nil {
		t.Fatal("bad format accepted")
	}
}
