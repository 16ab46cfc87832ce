package trplan

import (
	"slices"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestThanosRulerStatefulSetGolden(t *testing.T) {
	for _, c := range rulerCases() {
		t.Run(c.name, func(t *testing.T) {
			in, opts := c.input()
			sts, err := ThanosRulerStatefulSet(in, opts)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "thanosruler-statefulset-"+c.name, toYAML(t, sts))
		})
	}
}

func TestThanosRulerServiceGolden(t *testing.T) {
	golden(t, "thanosruler-service", toYAML(t, ThanosRulerGoverningService(ruler())))
}

func rulerArgs(t *testing.T, tr *monitoringv1.ThanosRuler) []string {
	t.Helper()
	sts, err := ThanosRulerStatefulSet(ThanosRulerInput{ThanosRuler: tr}, workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return sts.Spec.Template.Spec.Containers[0].Args
}

// The flags prometheus-operator gates by version appear from that version on.
func TestThanosRulerVersionGates(t *testing.T) {
	all := func(v string) *monitoringv1.ThanosRuler {
		return ruler(func(t *monitoringv1.ThanosRuler) {
			t.Spec.Version = ptr.To(v)
			t.Spec.RuleQueryOffset = ptr.To(monitoringv1.Duration("1m"))
			t.Spec.RuleConcurrentEval = ptr.To[int32](2)
			t.Spec.RuleOutageTolerance = ptr.To(monitoringv1.Duration("1h"))
			t.Spec.EnableFeatures = []monitoringv1.EnableFeature{"x"}
		})
	}
	for _, c := range []struct {
		version string
		want    []string
		absent  []string
	}{
		{"v0.20.0", nil, []string{"--rule-query-offset", "--rule-concurrent-evaluation", "--for-outage-tolerance", "--enable-feature", "--http.config"}},
		{"v0.30.0", []string{"--for-outage-tolerance=1h", "--http.config="}, []string{"--rule-query-offset", "--rule-concurrent-evaluation", "--enable-feature"}},
		{"v0.37.0", []string{"--rule-concurrent-evaluation=2"}, []string{"--rule-query-offset", "--enable-feature"}},
		{"v0.39.0", []string{"--rule-query-offset=1m", "--rule-concurrent-evaluation=2", "--enable-feature=x"}, nil},
	} {
		args := strings.Join(rulerArgs(t, all(c.version)), " ")
		for _, w := range c.want {
			if !strings.Contains(args, w) {
				t.Errorf("%s: no %s in %s", c.version, w, args)
			}
		}
		for _, a := range c.absent {
			if strings.Contains(args, a) {
				t.Errorf("%s: %s in %s", c.version, a, args)
			}
		}
	}
}

// The replica label is an external label on every replica and dropped from alerts;
// spec.labels are quoted as Thanos reads them.
func TestThanosRulerLabels(t *testing.T) {
	args := rulerArgs(t, ruler(func(t *monitoringv1.ThanosRuler) {
		t.Spec.Labels = map[string]string{"b": "2", "a": `x"y`}
		t.Spec.AlertDropLabels = []string{"a"}
	}))
	want := []string{`--label=thanos_ruler_replica="$(POD_NAME)"`, `--label=a="x\"y"`, `--label=b="2"`, "--alert.label-drop=thanos_ruler_replica", "--alert.label-drop=a"}
	var got []string
	for _, a := range args {
		if strings.HasPrefix(a, "--label=") || strings.HasPrefix(a, "--alert.label-drop=") {
			got = append(got, a)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if args[0] != "rule" {
		t.Errorf("first argument %q", args[0])
	}
}

func TestThanosRulerStatefulSetErrors(t *testing.T) {
	cases := []struct {
		name string
		mut  func(*monitoringv1.ThanosRuler)
		want string
	}{
		{"no query", func(t *monitoringv1.ThanosRuler) { t.Spec.QueryEndpoints = nil }, ErrThanosRulerNoQuery.Error()},
		{"bad version", func(t *monitoringv1.ThanosRuler) { t.Spec.Version = ptr.To("latest") }, `spec.version "latest" is not a Thanos version`},
		{"remote write before 0.24", func(t *monitoringv1.ThanosRuler) {
			t.Spec.Version = ptr.To("v0.23.0")
			t.Spec.RemoteWrite = []monitoringv1.RemoteWriteSpec{{URL: "http://x/write"}}
		}, "spec.remoteWrite needs Thanos v0.24.0 or later"},
		{"bad evaluation interval", func(t *monitoringv1.ThanosRuler) { t.Spec.EvaluationInterval = "often" }, `spec.evaluationInterval "often"`},
		{"bad retention", func(t *monitoringv1.ThanosRuler) { t.Spec.Retention = "1 day" }, `spec.retention "1 day"`},
		{"bad label name", func(t *monitoringv1.ThanosRuler) { t.Spec.Labels = map[string]string{"a=b": "c"} }, `spec.labels: "a=b" is not a label name`},
		{"query config without key", func(t *monitoringv1.ThanosRuler) { t.Spec.QueryConfig = secretRef("q", "") }, "spec.queryConfig needs both name and key"},
		{"operator flag in additionalArgs", func(t *monitoringv1.ThanosRuler) {
			t.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "query", Value: "x"}}
		}, "--query is set by the operator"},
		{"http.config in additionalArgs", func(t *monitoringv1.ThanosRuler) {
			t.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "http.config", Value: "/x"}}
		}, "--http.config is set by the operator"},
		{"bad log level", func(t *monitoringv1.ThanosRuler) { t.Spec.LogLevel = "trace" }, `spec.logLevel "trace"`},
		{"negative replicas", func(t *monitoringv1.ThanosRuler) { t.Spec.Replicas = ptr.To[int32](-1) }, "spec.replicas must not be negative"},
		{"name too long", func(t *monitoringv1.ThanosRuler) { t.Name = strings.Repeat("a", 40) }, "at most 52 fit"},
		{"grpc TLS from a Secret", func(t *monitoringv1.ThanosRuler) {
			t.Spec.GRPCServerTLSConfig = &monitoringv1.GRPCServerTLSConfig{TLSConfig: monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{KeySecret: secretRef("s", "k")}}}
		}, "spec.grpcServerTlsConfig: only caFile, certFile and keyFile are supported"},
		{"duplicate volume", func(t *monitoringv1.ThanosRuler) {
			t.Spec.Volumes = []corev1.Volume{{Name: "tls-assets", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		}, `volume "tls-assets" is defined twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ThanosRulerStatefulSet(ThanosRulerInput{ThanosRuler: ruler(c.mut)}, workload.DefaultOptions())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// The selector is prometheus-operator's: operator labels, pod metadata labels, fixed
// labels; the pods carry it and the version label.
func TestThanosRulerSelector(t *testing.T) {
	tr := ruler(func(t *monitoringv1.ThanosRuler) {
		t.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"team": "sre", "thanos-ruler": "spoofed"}}
	})
	opts := workload.DefaultOptions()
	opts.OperatorLabels = map[string]string{"env": "prod"}
	sts, err := ThanosRulerStatefulSet(ThanosRulerInput{ThanosRuler: tr}, opts)
	if err != nil {
		t.Fatal(err)
	}
	sel := sts.Spec.Selector.MatchLabels
	want := map[string]string{"env": "prod", "team": "sre", "thanos-ruler": "main", "app.kubernetes.io/name": "thanos-ruler",
		"app.kubernetes.io/managed-by": "prometheus-operator", "app.kubernetes.io/instance": "main"}
	if len(sel) != len(want) {
		t.Fatalf("selector %v, want %v", sel, want)
	}
	for k, v := range want {
		if sel[k] != v {
			t.Errorf("selector %v, want %v", sel, want)
		}
	}
	pod := sts.Spec.Template.Labels
	for k, v := range sel {
		if pod[k] != v {
			t.Errorf("pod labels %v do not carry the selector %v", pod, sel)
		}
	}
	if pod["app.kubernetes.io/version"] != "0.42.4" {
		t.Errorf("version label %q", pod["app.kubernetes.io/version"])
	}
}

func TestThanosRulerStatus(t *testing.T) {
	now := metav1.Now()
	tr := ruler(func(t *monitoringv1.ThanosRuler) { t.Spec.Replicas = ptr.To[int32](2) })
	st := ThanosRulerStatus(tr, nil, nil, now)
	if st.Conditions[0].Status != monitoringv1.ConditionFalse || !strings.Contains(st.Conditions[0].Message, "StatefulSet thanos-ruler-main not found") {
		t.Errorf("no StatefulSet: %+v", st.Conditions)
	}
	sts := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](2)}, Status: appsv1.StatefulSetStatus{Replicas: 2, UpdatedReplicas: 2, AvailableReplicas: 1}}
	st = ThanosRulerStatus(tr, sts, nil, now)
	if st.Replicas != 2 || st.AvailableReplicas != 1 || st.UnavailableReplicas != 1 || st.Conditions[0].Status != monitoringv1.ConditionDegraded {
		t.Errorf("one of two available: %+v", st)
	}
	sts.Status.AvailableReplicas = 2
	if st = ThanosRulerStatus(tr, sts, nil, now); st.Conditions[0].Status != monitoringv1.ConditionTrue {
		t.Errorf("all available: %+v", st)
	}
}
