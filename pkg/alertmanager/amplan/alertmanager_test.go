package amplan

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

func TestAlertmanagerStatefulSetGolden(t *testing.T) {
	for _, c := range amCases() {
		t.Run(c.name, func(t *testing.T) {
			in, opts := c.input()
			sts, err := AlertmanagerStatefulSet(in, opts)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "alertmanager-statefulset-"+c.name, toYAML(t, sts))
		})
	}
}

func TestAlertmanagerServiceAndConfigsGolden(t *testing.T) {
	golden(t, "alertmanager-service", toYAML(t, AlertmanagerGoverningService(am())))
	for _, c := range amCases() {
		if c.a.Spec.ClusterTLS != nil {
			b, err := AlertmanagerClusterTLSConfig(c.a)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "alertmanager-cluster-tls-config", b)
		}
		if c.name == "web-tls" {
			b, err := AlertmanagerWebConfig(c.a)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "alertmanager-web-config-tls", b)
		}
	}
}

// TestAlertmanagerPeers follows the peers through scaling: one flag per replica, and
// gossip off (an empty listen address) with a single replica.
func TestAlertmanagerPeers(t *testing.T) {
	for _, n := range []int32{1, 3, 1, 0} {
		a := am(func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To(n) })
		sts, err := AlertmanagerStatefulSet(AlertmanagerInput{Alertmanager: a}, workload.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		args := sts.Spec.Template.Spec.Containers[0].Args
		var peers []string
		for _, arg := range args {
			if p, ok := strings.CutPrefix(arg, "--cluster.peer="); ok {
				peers = append(peers, p)
			}
		}
		var want []string
		for i := range n {
			want = append(want, "alertmanager-main-"+string(rune('0'+i))+".alertmanager-operated:9094")
		}
		if !slices.Equal(peers, want) {
			t.Errorf("replicas %d: peers %v, want %v", n, peers, want)
		}
		off := slices.Contains(args, "--cluster.listen-address=")
		if off != (n == 1) {
			t.Errorf("replicas %d: gossip off %v in %v", n, off, args)
		}
		if *sts.Spec.Replicas != n {
			t.Errorf("replicas %d: StatefulSet has %d", n, *sts.Spec.Replicas)
		}
	}
}

func TestAlertmanagerStatefulSetErrors(t *testing.T) {
	cases := []struct {
		name string
		mut  func(*monitoringv1.Alertmanager)
		want string
	}{
		{"invalid retention", func(a *monitoringv1.Alertmanager) { a.Spec.Retention = "5d" }, `spec.retention "5d" is not a duration`},
		{"bad version", func(a *monitoringv1.Alertmanager) { a.Spec.Version = "latest" }, `spec.version "latest" is not an Alertmanager version`},
		{"too old version", func(a *monitoringv1.Alertmanager) { a.Spec.Version = "v0.14.0" }, `spec.version "v0.14.0" is not supported`},
		{"major version 1", func(a *monitoringv1.Alertmanager) { a.Spec.Version = "v1.0.0" }, `spec.version "v1.0.0" is not supported`},
		{"negative replicas", func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To[int32](-1) }, "spec.replicas must not be negative"},
		{"bad gossip interval", func(a *monitoringv1.Alertmanager) { a.Spec.ClusterGossipInterval = "often" }, `spec.clusterGossipInterval "often"`},
		{"bad peer timeout", func(a *monitoringv1.Alertmanager) { a.Spec.ClusterPeerTimeout = "1d" }, `spec.clusterPeerTimeout "1d"`},
		{"bad log level", func(a *monitoringv1.Alertmanager) { a.Spec.LogLevel = "trace" }, `spec.logLevel "trace"`},
		{"bad log format", func(a *monitoringv1.Alertmanager) { a.Spec.LogFormat = "xml" }, `spec.logFormat "xml"`},
		{"bad silence size", func(a *monitoringv1.Alertmanager) {
			a.Spec.Limits = &monitoringv1.AlertmanagerLimitsSpec{MaxPerSilenceBytes: ptr.To(monitoringv1.ByteSize("1 megabyte"))}
		}, "spec.limits.maxPerSilenceBytes"},
		{"negative silences", func(a *monitoringv1.Alertmanager) {
			a.Spec.Limits = &monitoringv1.AlertmanagerLimitsSpec{MaxSilences: ptr.To[int32](-2)}
		}, "spec.limits.maxSilences must not be negative"},
		{"operator flag in additionalArgs", func(a *monitoringv1.Alertmanager) {
			a.Spec.AdditionalArgs = []monitoringv1.Argument{{Name: "cluster.peer", Value: "x:9094"}}
		}, "--cluster.peer is set by the operator"},
		{"name too long", func(a *monitoringv1.Alertmanager) { a.Name = strings.Repeat("a", 50) }, "at most 52 fit"},
		{"storage without size", func(a *monitoringv1.Alertmanager) { a.Spec.Storage = &monitoringv1.StorageSpec{} }, "requests.storage is required"},
		{"duplicate volume", func(a *monitoringv1.Alertmanager) {
			a.Spec.Volumes = []corev1.Volume{{Name: "config-volume", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		}, `volume "config-volume" is defined twice`},
		{"mount of a missing volume", func(a *monitoringv1.Alertmanager) {
			a.Spec.VolumeMounts = []corev1.VolumeMount{{Name: "nope", MountPath: "/nope"}}
		}, `mounts volume "nope"`},
		{"unnamed container", func(a *monitoringv1.Alertmanager) { a.Spec.Containers = []corev1.Container{{Image: "x"}} }, "spec.containers[0]: a container needs a name"},
		{"bad pod management policy", func(a *monitoringv1.Alertmanager) {
			a.Spec.PodManagementPolicy = ptr.To(monitoringv1.PodManagementPolicyType("Random"))
		}, "spec.podManagementPolicy"},
		{"cluster TLS without client certificate", func(a *monitoringv1.Alertmanager) {
			a.Spec.ClusterTLS = &monitoringv1.ClusterTLSConfig{ServerTLS: monitoringv1.WebTLSConfig{
				Cert: monitoringv1.SecretOrConfigMap{Secret: secretRef("s", "c")}, KeySecret: *secretRef("s", "k"),
			}}
		}, "spec.clusterTLS.client"},
		{"web TLS without key", func(a *monitoringv1.Alertmanager) {
			a.Spec.Web = &monitoringv1.AlertmanagerWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{
				TLSConfig: &monitoringv1.WebTLSConfig{Cert: monitoringv1.SecretOrConfigMap{Secret: secretRef("s", "c")}},
			}}
		}, "spec.web.tlsConfig"},
		{"negative grace period", func(a *monitoringv1.Alertmanager) { a.Spec.TerminationGracePeriodSeconds = ptr.To[int64](-1) }, "spec.terminationGracePeriodSeconds must not be negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := AlertmanagerStatefulSet(AlertmanagerInput{Alertmanager: am(c.mut)}, workload.DefaultOptions())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := AlertmanagerStatefulSet(AlertmanagerInput{Alertmanager: am()}, workload.Options{AlertmanagerBaseImage: "x"}); err == nil {
		t.Error("no config-reloader image: want an error")
	}
}

func TestAlertmanagerStatus(t *testing.T) {
	now := metav1.Now()
	a := am(func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To[int32](3) })
	st := AlertmanagerStatus(a, nil, nil, now)
	if st.Conditions[0].Status != monitoringv1.ConditionFalse || !strings.Contains(st.Conditions[0].Message, "not found") {
		t.Errorf("no StatefulSet: %+v", st.Conditions[0])
	}
	if st.Selector != "alertmanager=main,app.kubernetes.io/instance=main,app.kubernetes.io/managed-by=prometheus-operator,app.kubernetes.io/name=alertmanager" {
		t.Errorf("selector %q", st.Selector)
	}
	sts := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](3)},
		Status: appsv1.StatefulSetStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}}
	pods := []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "alertmanager-main-2", Namespace: "monitoring", Labels: map[string]string{"alertmanager": "main"}},
		Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "alertmanager", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}}}}
	st = AlertmanagerStatus(a, sts, pods, now)
	if c := st.Conditions[0]; c.Status != monitoringv1.ConditionDegraded || !strings.Contains(c.Message, "alertmanager-main-2: container alertmanager is waiting: CrashLoopBackOff") {
		t.Errorf("degraded: %+v", c)
	}
	if st.Replicas != 3 || st.AvailableReplicas != 2 || st.UnavailableReplicas != 1 || st.UpdatedReplicas != 3 {
		t.Errorf("counts: %+v", st)
	}
	sts.Status.AvailableReplicas = 3
	if c := AlertmanagerStatus(a, sts, nil, now).Conditions[0]; c.Status != monitoringv1.ConditionTrue {
		t.Errorf("available: %+v", c)
	}
}

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512B": 512, "1KB": 1024, "1KiB": 1024, "1.5MiB": 1572864, "2GB": 2 << 30} {
		got, err := workload.ParseByteSize(in)
		if err != nil || got != want {
			t.Errorf("%s: got %d, %v, want %d", in, got, err, want)
		}
	}
}

func TestCheckAlertmanagerService(t *testing.T) {
	a := am(func(a *monitoringv1.Alertmanager) { a.Spec.ServiceName = ptr.To("mine") })
	svc := func(sel map[string]string) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "mine"}, Spec: corev1.ServiceSpec{Selector: sel}}
	}
	for _, c := range []struct {
		svc  *corev1.Service
		want string
	}{
		{nil, "does not exist"},
		{svc(map[string]string{"alertmanager": "other"}), "does not select the Alertmanager pods"},
		{svc(map[string]string{"alertmanager": "main", "app.kubernetes.io/name": "alertmanager"}), ""},
		{svc(nil), ""},
	} {
		err := CheckAlertmanagerService(a, c.svc)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: got %v, want %q", c.svc, err, c.want)
		}
	}
}

// TestTaggedDefaultBaseImage: the operator's default base image is used as it is when it
// already has a tag (kube-prometheus-stack passes tagged ones).
func TestTaggedDefaultBaseImage(t *testing.T) {
	tagged := workload.DefaultOptions()
	tagged.AlertmanagerBaseImage = "quay.io/prometheus/alertmanager:v0.30.0"
	if got, _ := AlertmanagerImage(am(), tagged); got != "quay.io/prometheus/alertmanager:v0.30.0" {
		t.Errorf("tagged default Alertmanager base image: %q", got)
	}
}
