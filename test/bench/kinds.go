package main

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// createJob creates one object (or a few belonging together).
type createJob = func(context.Context, *cluster) error

// benchKind is what differs between the harness's modes: the objects it creates, the
// config Secret it watches, what it looks for in that config, how it changes one object
// and how the report words it. runOne, change, populate and the report are shared.
type benchKind struct {
	// flag is the -kind value.
	flag string
	// plural and singular name the measured resource ("ServiceMonitors").
	plural, singular string
	// short names one object in the report's rows ("one-<short> change").
	short string
	// marker names what the config holds per object ("job").
	marker string
	// listPath is the API path listing the objects in every namespace.
	listPath string
	// title is the report section's heading; section names its begin/end markers.
	title   string
	section string
	// configSecret and configKey are the defaults of -config-secret and -config-key.
	configSecret, configKey string
	// targets: the report shows the project's targets at N = 5,000 for this kind.
	targets bool
	// statusBindings: the operator writes a binding to every object's status (the
	// control plane's rate for those writes is measured, see -ceiling).
	statusBindings bool

	// itemName is object i's name (in namespace scenario.namespace(i)).
	itemName func(i int) string
	// item returns the jobs creating object i and whatever it needs of its own.
	item func(s scenario, i int) []createJob
	// perNamespace returns the jobs creating what every namespace of the objects needs.
	perNamespace func(s scenario, ns string) []createJob
	// owner creates the object that selects every item (Prometheus, Alertmanager).
	owner createJob

	// expected is the marker object i puts into the config.
	expected func(s scenario, i int) string
	// count returns how many of the expected markers the config holds.
	count func(cfg []byte, expected map[string]bool) int

	// newObject returns an empty object of the kind, for the change's get and update.
	newObject func() client.Object
	// mutate makes change k to object i (k counts from 0 within one size).
	mutate func(obj client.Object, s scenario, i, k int) error
	// changed recognises change k of object i in a config.
	changed func(cfg []byte, s scenario, i, k int) bool
	// describeChange is change k of object i for the harness's log.
	describeChange func(s scenario, i, k int) string

	// created lists the created kinds for the harness's log ("ServiceMonitors, Services and EndpointSlices").
	created string
	// makeRuns says when `make bench` runs this kind.
	makeRuns string
	// objects describes the created objects in the report, given the options.
	objects func(o options) string
	// complete says when a config counts as complete; changeText what a change does.
	complete, changeText string
}

var kinds = []*benchKind{serviceMonitorKind, agentKind, alertmanagerConfigKind}

func kindByFlag(name string) (*benchKind, error) {
	for _, k := range kinds {
		if k.flag == name {
			return k, nil
		}
	}
	return nil, fmt.Errorf("unknown kind %q (one of %s)", name, kindNames())
}

// beginMarker and endMarker delimit the section of the output file the harness owns for
// the kind. The ServiceMonitor markers predate the other kinds and keep their text.
func (k *benchKind) beginMarker() string {
	return "<!-- " + k.section + ":begin (written by test/bench; do not edit by hand) -->"
}

func (k *benchKind) endMarker() string { return "<!-- " + k.section + ":end -->" }

// ServiceMonitors: each with a headless Service and an EndpointSlice, selected by one
// Prometheus; the config holds a scrape job per monitor and a change sets one monitor's
// scrape interval.

var serviceMonitorKind = &benchKind{
	flag: "servicemonitors", plural: "ServiceMonitors", singular: "ServiceMonitor", short: "monitor", marker: "job",
	listPath: "/apis/monitoring.coreos.com/v1/servicemonitors",
	title:    "Scale benchmark", section: "scale-benchmark",
	configSecret: "prometheus-" + promName, configKey: "prometheus.yaml.gz",
	targets:        true,
	statusBindings: true,
	itemName:       monitorName,
	item: func(s scenario, i int) []createJob {
		ns, name := s.namespace(i), monitorName(i)
		labels := map[string]string{"app": name}
		return []createJob{func(ctx context.Context, cl *cluster) error {
			svc := &corev1.Service{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
				Spec: corev1.ServiceSpec{
					ClusterIP: corev1.ClusterIPNone,
					Selector:  labels,
					Ports:     []corev1.ServicePort{{Name: portName, Port: 8080, TargetPort: intstr.FromString(portName)}},
				},
			}
			_, err := cl.cs.CoreV1().Services(ns).Create(ctx, svc, metav1.CreateOptions{})
			return err
		}, func(ctx context.Context, cl *cluster) error {
			eps := &discoveryv1.EndpointSlice{
				ObjectMeta:  metav1.ObjectMeta{Name: name + "-1", Namespace: ns, Labels: map[string]string{discoveryv1.LabelServiceName: name}},
				AddressType: discoveryv1.AddressTypeIPv4,
				Endpoints: []discoveryv1.Endpoint{{
					Addresses:  []string{fmt.Sprintf("10.%d.%d.%d", 1+i/(250*250), (i/250)%250, 1+i%250)},
					Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)},
				}},
				Ports: []discoveryv1.EndpointPort{{Name: ptr.To(portName), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
			}
			_, err := cl.cs.DiscoveryV1().EndpointSlices(ns).Create(ctx, eps, metav1.CreateOptions{})
			return err
		}, func(ctx context.Context, cl *cluster) error {
			sm := &monitoringv1.ServiceMonitor{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{selectLabel: "true"}},
				Spec: monitoringv1.ServiceMonitorSpec{
					Selector:  metav1.LabelSelector{MatchLabels: labels},
					Endpoints: []monitoringv1.Endpoint{{Port: portName, Interval: baseInterval}},
				},
			}
			return cl.c.Create(ctx, sm)
		}}
	},
	owner: func(ctx context.Context, cl *cluster) error {
		p := &monitoringv1.Prometheus{
			ObjectMeta: metav1.ObjectMeta{Name: promName, Namespace: promNamespace},
			Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
				ServiceMonitorSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{selectLabel: "true"}},
				ServiceMonitorNamespaceSelector: &metav1.LabelSelector{},
			}},
		}
		return cl.c.Create(ctx, p)
	},
	expected: func(s scenario, i int) string { return s.job(i) },
	count:    countJobs,
	newObject: func() client.Object {
		return &monitoringv1.ServiceMonitor{}
	},
	mutate: func(obj client.Object, _ scenario, _, k int) error {
		sm := obj.(*monitoringv1.ServiceMonitor)
		if len(sm.Spec.Endpoints) == 0 {
			return fmt.Errorf("%s/%s has no endpoints", sm.Namespace, sm.Name)
		}
		sm.Spec.Endpoints[0].Interval = monitoringv1.Duration(changedInterval(k))
		return nil
	},
	changed: func(cfg []byte, s scenario, i, k int) bool { return hasInterval(cfg, s.job(i), changedInterval(k)) },
	describeChange: func(s scenario, i, k int) string {
		return fmt.Sprintf("%s/%s interval %s", s.namespace(i), monitorName(i), changedInterval(k))
	},
	created:  "ServiceMonitors, Services and EndpointSlices",
	makeRuns: "`make bench` runs it after the `go test -bench` benchmarks of the packages",
	objects: func(o options) string {
		return fmt.Sprintf("N ServiceMonitors spread over %d namespaces, each with a headless Service and an EndpointSlice, %s unrelated "+
			"Secrets of %s, and one Prometheus selecting every monitor (`serviceMonitorSelector` on a label, "+
			"`serviceMonitorNamespaceSelector: {}`)", o.namespaces, thousands(o.secrets), bytesStr(o.secretSize))
	},
	complete: "holds a `serviceMonitor/<ns>/<name>/0` job for every monitor",
	changeText: "sets one monitor's `endpoints[0].interval` to a new value; its latency runs from the return of the harness's update to " +
		"the watch delivering the Secret version with that interval in that job",
}

// PrometheusAgents: the ServiceMonitor mode with a PrometheusAgent (remote write to an
// address nothing listens on: no pod runs) selecting every monitor instead of a Prometheus.
// The config Secret is prom-agent-<name>, as upstream names it.
var agentKind = func() *benchKind {
	k := *serviceMonitorKind
	k.flag, k.title, k.section = "agent", "Scale benchmark: PrometheusAgent", "scale-benchmark-agent"
	k.configSecret = "prom-agent-" + promName
	k.targets = false
	k.owner = func(ctx context.Context, cl *cluster) error {
		a := &monitoringv1alpha1.PrometheusAgent{
			ObjectMeta: metav1.ObjectMeta{Name: promName, Namespace: promNamespace},
			Spec: monitoringv1alpha1.PrometheusAgentSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
				ServiceMonitorSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{selectLabel: "true"}},
				ServiceMonitorNamespaceSelector: &metav1.LabelSelector{},
				RemoteWrite:                     []monitoringv1.RemoteWriteSpec{{URL: "http://receiver.bench.invalid/api/v1/write"}},
			}},
		}
		return cl.c.Create(ctx, a)
	}
	k.makeRuns = "`make bench-agent` runs it"
	k.objects = func(o options) string {
		return fmt.Sprintf("N ServiceMonitors spread over %d namespaces, each with a headless Service and an EndpointSlice, %s unrelated "+
			"Secrets of %s, and one PrometheusAgent selecting every monitor (`serviceMonitorSelector` on a label, "+
			"`serviceMonitorNamespaceSelector: {}`, one remote write)", o.namespaces, thousands(o.secrets), bytesStr(o.secretSize))
	}
	return &k
}()

// changedInterval is the interval change k sets: 31s, 32s, ... (never the base 30s).
func changedInterval(k int) string { return fmt.Sprintf("%ds", 31+k) }

// AlertmanagerConfigs: each routes to one receiver `r` with one webhook whose URL is
// unique to the object and whose authorization credentials come from a Secret of the
// namespace; one Alertmanager selects them all. The config holds a receiver per object and
// a change gives one object's webhook a new URL.

const (
	amcReceiver   = "r"
	amcCredSecret = "bench-webhook-credentials"
	amcCredKey    = "token"
	webhookBase   = "https://hooks.bench.invalid/"
)

func amcName(i int) string { return fmt.Sprintf("amc-%05d", i) }

// webhookURL is object i's webhook URL at version v: 0 when created, k+1 after change k.
func (s scenario) webhookURL(i, v int) string {
	return fmt.Sprintf("%s%s/%s/%d", webhookBase, s.namespace(i), amcName(i), v)
}

// receiverName is the name the operator gives object i's receiver in the generated config.
func (s scenario) receiverName(i int) string {
	return s.namespace(i) + "/" + amcName(i) + "/" + amcReceiver
}

var alertmanagerConfigKind = &benchKind{
	flag: "alertmanagerconfigs", plural: "AlertmanagerConfigs", singular: "AlertmanagerConfig", short: "AlertmanagerConfig", marker: "receiver",
	listPath: "/apis/monitoring.coreos.com/v1alpha1/alertmanagerconfigs",
	title:    "Scale benchmark: AlertmanagerConfigs", section: "scale-benchmark-alertmanagerconfigs",
	configSecret: "alertmanager-" + promName + "-generated", configKey: "alertmanager.yaml.gz",
	itemName: amcName,
	item: func(s scenario, i int) []createJob {
		return []createJob{func(ctx context.Context, cl *cluster) error { return cl.c.Create(ctx, s.amcObject(i)) }}
	},
	perNamespace: func(_ scenario, ns string) []createJob {
		return []createJob{func(ctx context.Context, cl *cluster) error {
			_, err := cl.cs.CoreV1().Secrets(ns).Create(ctx, credSecret(ns), metav1.CreateOptions{})
			return err
		}}
	},
	owner: func(ctx context.Context, cl *cluster) error {
		a := &monitoringv1.Alertmanager{
			ObjectMeta: metav1.ObjectMeta{Name: promName, Namespace: promNamespace},
			Spec: monitoringv1.AlertmanagerSpec{
				AlertmanagerConfigSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{selectLabel: "true"}},
				AlertmanagerConfigNamespaceSelector: &metav1.LabelSelector{},
			},
		}
		return cl.c.Create(ctx, a)
	},
	expected: func(s scenario, i int) string { return s.receiverName(i) },
	count:    countReceivers,
	newObject: func() client.Object {
		return &monitoringv1alpha1.AlertmanagerConfig{}
	},
	mutate: func(obj client.Object, s scenario, i, k int) error {
		amc := obj.(*monitoringv1alpha1.AlertmanagerConfig)
		if len(amc.Spec.Receivers) == 0 || len(amc.Spec.Receivers[0].WebhookConfigs) == 0 {
			return fmt.Errorf("%s/%s has no webhook", amc.Namespace, amc.Name)
		}
		amc.Spec.Receivers[0].WebhookConfigs[0].URL = ptr.To(s.webhookURL(i, k+1))
		return nil
	},
	changed: func(cfg []byte, s scenario, i, k int) bool { return hasURL(cfg, s.webhookURL(i, k+1)) },
	describeChange: func(s scenario, i, k int) string {
		return fmt.Sprintf("%s/%s url %s", s.namespace(i), amcName(i), s.webhookURL(i, k+1))
	},
	created:  "AlertmanagerConfigs (and a credentials Secret per namespace)",
	makeRuns: "`make bench` runs it after the ServiceMonitor scale benchmark",
	objects: func(o options) string {
		return fmt.Sprintf("N AlertmanagerConfigs spread over %d namespaces, each routing to one receiver `%s` with one webhook "+
			"(a URL unique to the object, `%s<ns>/<name>/0`, and `httpConfig.authorization.credentials` from a Secret `%s` of the "+
			"namespace, one per namespace), %s unrelated Secrets of %s, and one Alertmanager `%s/%s` selecting every "+
			"AlertmanagerConfig (`alertmanagerConfigSelector` on a label, `alertmanagerConfigNamespaceSelector: {}`)",
			o.namespaces, amcReceiver, webhookBase, amcCredSecret, thousands(o.secrets), bytesStr(o.secretSize), promNamespace, promName)
	},
	complete: "holds a `<ns>/<name>/" + amcReceiver + "` receiver for every AlertmanagerConfig",
	changeText: "gives one AlertmanagerConfig's webhook a new URL (`.../<ns>/<name>/<k>` for the k-th change, counting from 1); its latency runs from the " +
		"return of the harness's update to the watch delivering the Secret version that holds that URL",
}

// amcObject is AlertmanagerConfig i as created.
func (s scenario) amcObject(i int) *monitoringv1alpha1.AlertmanagerConfig {
	ns, name := s.namespace(i), amcName(i)
	return &monitoringv1alpha1.AlertmanagerConfig{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{selectLabel: "true"}},
		Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
			Route: &monitoringv1alpha1.Route{Receiver: amcReceiver},
			Receivers: []monitoringv1alpha1.Receiver{{
				Name: amcReceiver,
				WebhookConfigs: []monitoringv1alpha1.WebhookConfig{{
					URL: ptr.To(s.webhookURL(i, 0)),
					HTTPConfig: &monitoringv1alpha1.HTTPConfig{
						Authorization: &monitoringv1.SafeAuthorization{
							Type: "Bearer",
							Credentials: &corev1.SecretKeySelector{
								LocalObjectReference: corev1.LocalObjectReference{Name: amcCredSecret},
								Key:                  amcCredKey,
							},
						},
					},
				}},
			}},
		},
	}
}

// credSecret is the Secret with the webhooks' credentials in namespace ns.
func credSecret(ns string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: amcCredSecret, Namespace: ns},
		Data:       map[string][]byte{amcCredKey: []byte("bench-token-" + ns)},
	}
}

const receiverPrefix = "- name: "

// countReceivers returns how many of the expected receiver names the config holds.
func countReceivers(cfg []byte, expected map[string]bool) int {
	return countNamed(cfg, receiverPrefix, expected)
}

// countNamed returns how many distinct expected names follow prefix in cfg, each name
// being the rest of its line, unquoted.
func countNamed(cfg []byte, prefix string, expected map[string]bool) int {
	seen := map[string]bool{}
	for len(cfg) > 0 {
		i := bytes.Index(cfg, []byte(prefix))
		if i < 0 {
			break
		}
		cfg = cfg[i+len(prefix):]
		end := bytes.IndexByte(cfg, '\n')
		if end < 0 {
			end = len(cfg)
		}
		name := strings.Trim(strings.TrimSpace(string(cfg[:end])), `"'`)
		if expected[name] {
			seen[name] = true
		}
		cfg = cfg[end:]
	}
	return len(seen)
}

// hasURL reports whether the config sets some url to exactly u (plain or quoted).
func hasURL(cfg []byte, u string) bool {
	for _, q := range []string{u, `"` + u + `"`, "'" + u + "'"} {
		if bytes.Contains(cfg, []byte("url: "+q+"\n")) || bytes.HasSuffix(cfg, []byte("url: "+q)) {
			return true
		}
	}
	return false
}

// kindNames lists the -kind values.
func kindNames() string {
	var n []string
	for _, k := range kinds {
		n = append(n, k.flag)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}
