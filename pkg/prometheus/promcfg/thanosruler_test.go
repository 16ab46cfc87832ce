package promcfg_test

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// The remote-write file of a Thanos Ruler is the remote_write section a Prometheus would
// get, with the TLS files under the Thanos Ruler's mount, the credentials inlined, and
// the fields no Thanos reads left out.
func TestRemoteWriteConfig(t *testing.T) {
	rws := []monitoringv1.RemoteWriteSpec{
		{URL: "https://metrics.example.com/api/v1/write", Name: ptr("central"),
			BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")},
			TLSConfig: &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: *secretRef("tls", "ca.crt")}},
			Sigv4:     nil},
		{URL: "http://other.example.com/write", Sigv4: &monitoringv1.Sigv4{Region: "eu-west-1", ExternalID: "x"}},
	}
	res, err := promcfg.RemoteWriteConfig(promcfg.RemoteWriteInput{
		Namespace: "monitoring", RemoteWrite: rws, Version: "3.5.0", Assets: testAssets(), TLSAssetsDir: "/etc/thanos/certs",
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(res.Config)
	for _, want := range []string{
		"remote_write:\n", "url: https://metrics.example.com/api/v1/write", "name: central", "username: alice", "password: s3cret",
		"ca_file: /etc/thanos/certs/secret_monitoring_tls_ca.crt", "region: eu-west-1",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("no %q in\n%s", want, cfg)
		}
	}
	if strings.Contains(cfg, "external_id") || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "sigv4.externalId") {
		t.Errorf("externalId kept or not warned: %v\n%s", res.Warnings, cfg)
	}
	if _, ok := res.TLSAssets["secret_monitoring_tls_ca.crt"]; !ok || len(res.TLSAssets) != 1 {
		t.Errorf("TLS assets %v", res.TLSAssets)
	}
	if len(res.Dependencies) != 2 {
		t.Errorf("dependencies %v", res.Dependencies)
	}
	if rws[1].Sigv4.ExternalID != "x" {
		t.Error("the input was modified")
	}
	if err := promcfg.Validate(res.Config); err != nil {
		t.Errorf("Prometheus's loader refuses it: %v", err)
	}

	empty, err := promcfg.RemoteWriteConfig(promcfg.RemoteWriteInput{Namespace: "monitoring", Version: "2.40.0"})
	if err != nil || !strings.HasPrefix(string(empty.Config), "remote_write: []") {
		t.Errorf("no remote write: %v %q", err, empty.Config)
	}

	for _, c := range []struct {
		name string
		in   promcfg.RemoteWriteInput
		want string
	}{
		{"missing Secret key", promcfg.RemoteWriteInput{Namespace: "monitoring", Version: "3.5.0", Assets: testAssets(),
			RemoteWrite: []monitoringv1.RemoteWriteSpec{{URL: "http://x/write", BasicAuth: &monitoringv1.BasicAuth{Username: secretKey("auth", "nope"), Password: secretKey("auth", "password")}}}},
			"spec.remoteWrite[0]"},
		{"relative URL", promcfg.RemoteWriteInput{Namespace: "monitoring", Version: "3.5.0", RemoteWrite: []monitoringv1.RemoteWriteSpec{{URL: "/write"}}},
			`spec.remoteWrite[0]: url "/write" must be absolute`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := promcfg.RemoteWriteConfig(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows a secret: %v", err)
			}
		})
	}
}

// Thanos v0.24 to v0.31 embed a remote-write client older than Prometheus v2.45:
// prometheus-operator writes their file anyway, without the fields those releases do not
// read, and so does Lookout, with warnings saying what was left out and what is unchecked.
func TestRemoteWriteConfigOldThanos(t *testing.T) {
	tls := monitoringv1.TLSVersion12
	rws := []monitoringv1.RemoteWriteSpec{{URL: "https://metrics.example.com/api/v1/write", SendNativeHistograms: ptr(true),
		TLSConfig: &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{MinVersion: &tls, MaxVersion: &tls}}}}
	for _, c := range []struct {
		engine  string // rules.ThanosEngine of the Thanos release
		dropped []string
		kept    []string
	}{
		{"2.32.0", []string{"min_version", "max_version", "send_native_histograms"}, nil},                     // v0.24
		{"2.38.0", []string{"max_version", "send_native_histograms"}, []string{"min_version: TLS12"}},         // v0.28
		{"2.42.0", nil, []string{"min_version: TLS12", "max_version: TLS12", "send_native_histograms: true"}}, // v0.31
	} {
		t.Run(c.engine, func(t *testing.T) {
			res, err := promcfg.RemoteWriteConfig(promcfg.RemoteWriteInput{Namespace: "monitoring", RemoteWrite: rws, Version: c.engine})
			if err != nil {
				t.Fatal(err)
			}
			cfg := string(res.Config)
			if !strings.Contains(cfg, "url: https://metrics.example.com/api/v1/write") {
				t.Errorf("no URL in\n%s", cfg)
			}
			for _, d := range c.dropped {
				if strings.Contains(cfg, d) {
					t.Errorf("%s kept in\n%s", d, cfg)
				}
			}
			for _, k := range c.kept {
				if !strings.Contains(cfg, k) {
					t.Errorf("no %q in\n%s", k, cfg)
				}
			}
			if len(res.Warnings) != 1+len(c.dropped) || !strings.Contains(res.Warnings[0], "older than v2.45.0") {
				t.Errorf("warnings %q", res.Warnings)
			}
			if err := promcfg.Validate(res.Config); err != nil {
				t.Errorf("Prometheus's loader refuses it: %v", err)
			}
		})
	}
	if *rws[0].TLSConfig.MinVersion != tls || rws[0].SendNativeHistograms == nil {
		t.Error("the input was modified")
	}
}
