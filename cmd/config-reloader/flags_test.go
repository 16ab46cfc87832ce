package main

import (
	"errors"
	"flag"
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
		"--web-config-file=/etc/web.yaml",
		"--statefulset-ordinal-from-envvar=MY_POD",
		"--auto-gomemlimit-ratio=0.8",
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
	if c.watchInterval != 0 || c.delayInterval != 50*time.Millisecond || c.reloadMethod != "signal" || c.kubeconfig != "/kc" ||
		c.webConfigFile != "/etc/web.yaml" || c.ordinalFrom != "MY_POD" || c.memlimitRatio != 0.8 {
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

// upstreamFlags are the flags of prometheus-operator's prometheus-config-reloader v0.93
// (cmd/prometheus-config-reloader/main.go and the kingpin flags it registers) with
// typical values: every one must parse. cmd/config-reloader's compatibility with the
// real binary is tested in pkg/workload and test/e2e.
var upstreamFlags = []string{
	"--config-file=/etc/prometheus/config/prometheus.yaml.gz",
	"--config-envsubst-file=/etc/prometheus/config_out/prometheus.env.yaml",
	"--watch-interval=3m0s",
	"--delay-interval=1s",
	"--retry-interval=5s",
	"--reload-timeout=30s",
	"--auto-gomemlimit-ratio=0.0",
	"--watched-dir=/etc/prometheus/rules/prometheus-k8s-rulefiles-0",
	"--watched-dir=/etc/prometheus/config",
	"--reload-method=http",
	"--process-executable-name=prometheus",
	"--statefulset-ordinal-from-envvar=POD_NAME",
	"--listen-address=:8080",
	"--web-config-file=/etc/prometheus/web_config/web-config.yaml",
	"--log-format=logfmt",
	"--log-level=info",
	"--reload-url=http://127.0.0.1:9090/-/reload",
	"--runtimeinfo-url=http://127.0.0.1:9090/api/v1/status/runtimeinfo",
	"--no-version",
	"--no-short-version",
}

func TestParseFlagsUpstream(t *testing.T) {
	t.Parallel()
	if _, err := parseFlags(upstreamFlags, io.Discard); err != nil {
		t.Fatal(err)
	}
	// kingpin also takes the value as the next argument.
	c, err := parseFlags([]string{"--config-file", "/in", "--watch-interval", "0", "--listen-address", ":8081"}, io.Discard)
	if err != nil || c.configFile != "/in" || c.watchInterval != 0 || c.listenAddress != ":8081" {
		t.Fatalf("%+v, %v", c, err)
	}
	for _, help := range []string{"--help", "--help-long", "--help-man", "-h"} {
		if _, err := parseFlags([]string{help}, io.Discard); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: %v", help, err)
		}
	}
	for _, v := range []string{"--version", "--short-version"} {
		if c, err := parseFlags([]string{v}, io.Discard); err != nil || !(c.version || c.shortVersion) {
			t.Errorf("%s: %+v, %v", v, c, err)
		}
	}
}

// TestConfirmURL: only the signal method confirms reloads against runtimeinfo (the
// default unless given), as in prometheus-config-reloader; the http method ignores the flag.
func TestConfirmURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--reload-url=https://localhost:9093/-/reload"}, ""},
		{[]string{"--reload-url=http://127.0.0.1:9090/prefix/-/reload"}, ""},
		{[]string{"--runtimeinfo-url=http://127.0.0.1:9090/p/api/v1/status/runtimeinfo"}, ""},
		{[]string{"--runtimeinfo-url="}, ""},
		{[]string{"--reload-method=signal"}, defaultRuntimeInfoURL},
		{[]string{"--reload-method=signal", "--runtimeinfo-url=https://localhost:9090/api/v1/status/runtimeinfo"}, "https://localhost:9090/api/v1/status/runtimeinfo"},
		{[]string{"--reload-method=signal", "--runtimeinfo-url="}, ""},
	} {
		c, err := parseFlags(append([]string{"--config-file=/in"}, tc.args...), io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := c.confirmURL(); got != tc.want {
			t.Errorf("%v: confirms against %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestWithOrdinal(t *testing.T) {
	t.Parallel()
	env := map[string]string{"POD_NAME": "prometheus-k8s-12", "OTHER": "x", ordinalEnv: "from-env", "NODIGITS": "abc"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for from, want := range map[string]string{"POD_NAME": "12", "NODIGITS": "", "UNSET": ""} {
		l := withOrdinal(lookup, from)
		if v, ok := l(ordinalEnv); !ok || v != want {
			t.Errorf("from %s: %q, %v; want %q", from, v, ok, want)
		}
		if v, ok := l("OTHER"); !ok || v != "x" {
			t.Errorf("other variables: %q, %v", v, ok)
		}
		if _, ok := l("UNSET"); ok {
			t.Error("unset variable found")
		}
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
		{[]string{"--config-file=/in", "--reload-url=localhost/-/reload"}, "want an http or https URL"},
		{[]string{"--config-file=/in", "--runtimeinfo-url=ftp://x/"}, "want an http or https URL"},
		{[]string{"--config-file=/in", "--auto-gomemlimit-ratio=lots"}, "invalid value"},
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
	for _, level := range []string{"all", "ALL", "Debug"} {
		b.Reset()
		log, _ = newLogger(&b, level, "logfmt")
		log.Debug("dbg")
		if !strings.Contains(b.String(), "msg=dbg") {
			t.Errorf("level %s hides debug", level)
		}
	}
	b.Reset()
	log, _ = newLogger(&b, "none", "json")
	log.Error("hidden")
	if b.Len() != 0 {
		t.Errorf("level none logged %q", b.String())
	}
	if _, err := newLogger(&b, "none", "xml"); err == nil {
		t.Error("bad format accepted with level none")
	}
	if _, err := newLogger(&b, "loud", "logfmt"); err == nil {
		t.Fatal("bad level accepted")
	}
	if _, err := newLogger(&b, "info", "xml"); err == nil {
		t.Fatal("bad format accepted")
	}
}
