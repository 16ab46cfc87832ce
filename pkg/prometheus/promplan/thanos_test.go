package promplan

import (
	"slices"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

func TestGoverningServiceThanos(t *testing.T) {
	svc := GoverningService(promserver.Of(prom(func(p *monitoringv1.Prometheus) { p.Spec.Thanos = &monitoringv1.ThanosSpec{} })))
	golden(t, "service-thanos", toYAML(t, svc))
	AddThanosGRPCPort(svc)
	if len(svc.Spec.Ports) != 2 {
		t.Fatalf("AddThanosGRPCPort added a second grpc port: %v", svc.Spec.Ports)
	}
	plain := GoverningService(promserver.Of(prom()))
	if len(plain.Spec.Ports) != 1 {
		t.Fatalf("without spec.thanos the Service has ports %v", plain.Spec.Ports)
	}
}

func TestThanosSidecarIsLastAndOptional(t *testing.T) {
	names := func(p *monitoringv1.Prometheus) []string {
		sts, err := StatefulSet(Input{Prometheus: promserver.Of(p), RuleConfigMaps: 1}, workload.DefaultOptions(), 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range sts.Spec.Template.Spec.Containers {
			out = append(out, c.Name)
		}
		return out
	}
	if got := names(prom()); slices.Contains(got, ThanosSidecarContainerName) {
		t.Errorf("no spec.thanos, but containers %v", got)
	}
	got := names(prom(func(p *monitoringv1.Prometheus) { p.Spec.Thanos = &monitoringv1.ThanosSpec{} }))
	if want := []string{"prometheus", "config-reloader", "thanos-sidecar"}; !slices.Equal(got, want) {
		t.Errorf("containers %v, want %v", got, want)
	}
}

func TestThanosDefaultBaseImage(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ThanosBaseImage = "registry.example/thanos"
	p := prom(func(p *monitoringv1.Prometheus) { p.Spec.Thanos = &monitoringv1.ThanosSpec{Version: ptr.To("v0.39.2")} })
	sts, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := sts.Spec.Template.Spec.Containers[2]
	if c.Image != "registry.example/thanos:v0.39.2" {
		t.Errorf("image %q", c.Image)
	}
	// A base image with a tag or digest is used as it is, as upstream does
	// (kube-prometheus-stack passes one).
	for base, want := range map[string]string{
		"quay.io/thanos/thanos:v0.42.4":         "quay.io/thanos/thanos:v0.42.4",
		"registry.example:5000/thanos":          "registry.example:5000/thanos:v0.39.2",
		"registry.example:5000/thanos:v1":       "registry.example:5000/thanos:v1",
		"quay.io/thanos/thanos@sha256:0123abcd": "quay.io/thanos/thanos@sha256:0123abcd",
	} {
		opts.ThanosBaseImage = base
		sts, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, opts, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := sts.Spec.Template.Spec.Containers[2].Image; got != want {
			t.Errorf("base %q: image %q, want %q", base, got, want)
		}
	}
}

func TestThanosHTTPClientSecret(t *testing.T) {
	p := prom()
	if NeedsThanosHTTPClientSecret(promserver.Of(p)) {
		t.Error("no spec.thanos, but the Secret is needed")
	}
	p.Spec.Thanos = &monitoringv1.ThanosSpec{}
	if !NeedsThanosHTTPClientSecret(promserver.Of(p)) || ThanosHTTPClientSecretName(promserver.Of(p)) != "prometheus-k8s-thanos-prometheus-http-client-file" {
		t.Errorf("default Thanos version: needed %v, name %q", NeedsThanosHTTPClientSecret(promserver.Of(p)), ThanosHTTPClientSecretName(promserver.Of(p)))
	}
	p.Spec.Thanos.Version = ptr.To("v0.23.2")
	if NeedsThanosHTTPClientSecret(promserver.Of(p)) {
		t.Error("Thanos v0.23 has no --prometheus.http-client-file")
	}
	if got := string(ThanosHTTPClientConfig()); got != "tls_config:\n  insecure_skip_verify: true\n" {
		t.Errorf("config %q", got)
	}
}

func TestThanosErrors(t *testing.T) {
	sel := &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "k"}
	cases := []struct {
		name string
		t    monitoringv1.ThanosSpec
		mut  func(*monitoringv1.Prometheus)
		want string
	}{
		{"both object storage fields", monitoringv1.ThanosSpec{ObjectStorageConfig: sel, ObjectStorageConfigFile: ptr.To("/x")}, nil,
			"spec.thanos.objectStorageConfig and spec.thanos.objectStorageConfigFile are mutually exclusive; set one"},
		{"both tracing fields", monitoringv1.ThanosSpec{TracingConfig: sel, TracingConfigFile: "/x"}, nil,
			"spec.thanos.tracingConfig and spec.thanos.tracingConfigFile are mutually exclusive; set one"},
		{"object storage without key", monitoringv1.ThanosSpec{ObjectStorageConfig: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}}}, nil,
			"spec.thanos.objectStorageConfig needs both name and key of a Secret"},
		{"operator flag in additionalArgs", monitoringv1.ThanosSpec{AdditionalArgs: []monitoringv1.Argument{{Name: "log.level", Value: "debug"}, {Name: "grpc-address", Value: ":1"}}}, nil,
			"spec.thanos.additionalArgs[1]: --grpc-address is set by the operator and cannot be overridden; use the matching spec field instead"},
		{"conditional operator flag in additionalArgs", monitoringv1.ThanosSpec{ObjectStorageConfigFile: ptr.To("/x"), AdditionalArgs: []monitoringv1.Argument{{Name: "--tsdb.path", Value: "/data"}}}, nil,
			"spec.thanos.additionalArgs[0]: --tsdb.path is set by the operator and cannot be overridden; use the matching spec field instead"},
		{"additionalArgs value in name", monitoringv1.ThanosSpec{AdditionalArgs: []monitoringv1.Argument{{Name: "min-time=1h"}}}, nil,
			`spec.thanos.additionalArgs[0]: name "min-time=1h" must not contain '=' or spaces; put the value in value`},
		{"bad version", monitoringv1.ThanosSpec{Version: ptr.To("latest")}, nil, `spec.thanos.version "latest" is not a Thanos version`},
		{"bad log level", monitoringv1.ThanosSpec{LogLevel: "trace"}, nil, `spec.thanos.logLevel "trace": must be one of debug, info, warn, error`},
		{"bad log format", monitoringv1.ThanosSpec{LogFormat: "text"}, nil, `spec.thanos.logFormat "text": must be logfmt or json`},
		{"bad ready timeout", monitoringv1.ThanosSpec{ReadyTimeout: "soon"}, nil, `spec.thanos.readyTimeout "soon"`},
		{"bad block size", monitoringv1.ThanosSpec{ObjectStorageConfigFile: ptr.To("/x"), BlockDuration: "big"}, func(p *monitoringv1.Prometheus) { p.Spec.DisableCompaction = true },
			`spec.thanos.blockSize "big"`},
		{"mount of a missing volume", monitoringv1.ThanosSpec{VolumeMounts: []corev1.VolumeMount{{Name: "tls", MountPath: "/tls"}}}, nil,
			`container "thanos-sidecar" mounts volume "tls", which the pod does not have`},
		{"mount path of the HTTP client file", monitoringv1.ThanosSpec{VolumeMounts: []corev1.VolumeMount{{Name: "extra", MountPath: "/etc/thanos/config"}}},
			func(p *monitoringv1.Prometheus) {
				p.Spec.Volumes = []corev1.Volume{{Name: "extra", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			},
			`container "thanos-sidecar" mounts two volumes at /etc/thanos/config`},
		{"grpc TLS from a Secret", monitoringv1.ThanosSpec{GRPCServerTLSConfig: &monitoringv1.GRPCServerTLSConfig{TLSConfig: monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{KeySecret: sel}}}}, nil,
			"spec.thanos.grpcServerTlsConfig: only caFile, certFile and keyFile are supported (mount the files with spec.volumes and spec.thanos.volumeMounts), not ca, cert or keySecret"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := prom(func(p *monitoringv1.Prometheus) { p.Spec.Thanos = c.t.DeepCopy() })
			if c.mut != nil {
				c.mut(p)
			}
			_, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, workload.DefaultOptions(), 0)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not contain %q", err, c.want)
			}
		})
	}
	opts := workload.DefaultOptions()
	opts.ThanosBaseImage = ""
	_, err := StatefulSet(Input{Prometheus: promserver.Of(prom(func(p *monitoringv1.Prometheus) { p.Spec.Thanos = &monitoringv1.ThanosSpec{} }))}, opts, 0)
	if want := "no Thanos image: spec.thanos.image is empty and the operator has no default Thanos base image (--thanos-default-base-image)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("error %v, want suffix %q", err, want)
	}
}
