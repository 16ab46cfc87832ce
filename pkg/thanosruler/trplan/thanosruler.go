package trplan

import (
	"maps"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// ThanosRulerContainerName is the name of the Thanos Ruler container, as
// prometheus-operator names it (users patch it by name through spec.containers).
const ThanosRulerContainerName = "thanos-ruler"

// ThanosRulerNameValue is the value of app.kubernetes.io/name on the ThanosRuler pods.
const ThanosRulerNameValue = "thanos-ruler"

const (
	// ThanosRulerReplicaLabel is the external label telling the replicas of a ThanosRuler
	// apart; it is dropped from the alerts they send.
	ThanosRulerReplicaLabel = "thanos_ruler_replica"
	// Defaults of spec.evaluationInterval and spec.retention (the CRD's defaults, for
	// objects written without them).
	defaultThanosRulerEvalInterval = "15s"
	defaultThanosRulerRetention    = "24h"
	// thanosRulerGracePeriod is prometheus-operator's termination grace period.
	thanosRulerGracePeriod = 120
	// operatedThanosRulerLabel marks the governing Service, as prometheus-operator does.
	operatedThanosRulerLabel = "operated-thanos-ruler"
)

// Versions gating the ruler's flags, as prometheus-operator gates them.
// ThanosRulerInput is what the controller hands the ThanosRuler builders.
type ThanosRulerInput struct {
	// ThanosRuler is the object reconciled; the builders never modify it.
	ThanosRuler *monitoringv1.ThanosRuler
	// RuleConfigMaps is how many rule ConfigMaps the controller wrote; the pod mounts
	// Slots(RuleConfigMaps) of them, optional, so that a new one does not roll the pods.
	RuleConfigMaps int
	// TLSAssetSecrets is how many TLS assets Secrets the controller wrote (likewise
	// mounted in Slots of them).
	TLSAssetSecrets int
}

// thanosRulerFixedLabels are the labels that identify the pods of a ThanosRuler.
func thanosRulerFixedLabels(name string) map[string]string {
	return map[string]string{
		layout.NameLabel:            ThanosRulerNameValue,
		layout.ManagedByLabel:       layout.ManagedByValue,
		layout.InstanceLabel:        name,
		layout.ThanosRulerNameLabel: name,
	}
}

// thanosRulerSelectorLabels are the labels of the StatefulSet selector, composed as
// prometheus-operator composes them: the operator's labels, then spec.podMetadata's, then
// the fixed ones, each winning over the former.
func thanosRulerSelectorLabels(t *monitoringv1.ThanosRuler, operatorLabels map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, operatorLabels)
	if m := t.Spec.PodMetadata; m != nil {
		maps.Copy(out, m.Labels)
	}
	maps.Copy(out, thanosRulerFixedLabels(t.Name))
	return out
}

// ThanosRulerServiceName is the governing Service of t's StatefulSet: spec.serviceName
// or thanos-ruler-operated.
func ThanosRulerServiceName(t *monitoringv1.ThanosRuler) string {
	return workload.GoverningServiceName(t.Spec.ServiceName, layout.ThanosRulerGoverningServiceName)
}

// ManagesThanosRulerService reports whether the controller creates thanos-ruler-operated
// for t; when spec.serviceName is set the user provides the Service.
func ManagesThanosRulerService(t *monitoringv1.ThanosRuler) bool {
	return workload.ManagesService(t.Spec.ServiceName)
}

// ThanosRulerVersion is spec.version, or versions.DefaultThanos, as written.
func ThanosRulerVersion(t *monitoringv1.ThanosRuler) string {
	if s := ptr.Deref(t.Spec.Version, ""); s != "" {
		return s
	}
	return versions.DefaultThanos
}

// thanosRulerVersion parses ThanosRulerVersion.
func thanosRulerVersion(t *monitoringv1.ThanosRuler) (versions.Version, error) {
	return workload.SpecVersion(ThanosRulerVersion(t), versions.DefaultThanos, "a Thanos")
}

// ThanosRulerImage resolves t's image as prometheus-operator does: spec.image, or the
// operator's Thanos base image (--thanos-default-base-image) tagged with the version.
func ThanosRulerImage(t *monitoringv1.ThanosRuler, opts workload.Options) (string, error) {
	return workload.ImageFor("Thanos Ruler", workload.ImageSpec{Image: &t.Spec.Image, Version: ThanosRulerVersion(t)}, opts.ThanosBaseImage, versions.DefaultThanos)
}

// thanosRulerWebFields is spec.web's web config file part (nil when unset).
func thanosRulerWebFields(t *monitoringv1.ThanosRuler) *monitoringv1.WebConfigFileFields {
	if t.Spec.Web == nil {
		return nil
	}
	return &t.Spec.Web.WebConfigFileFields
}

// ThanosRulerWebConfig is the content of web-config.yaml for t, which the controller
// stores under layout.WebConfigFile in layout.ThanosRuler(t.Name).WebConfigSecret();
// checked with the exporter-toolkit parser Thanos uses.
func ThanosRulerWebConfig(t *monitoringv1.ThanosRuler) ([]byte, error) {
	return workload.WebConfigFor(thanosRulerWebFields(t), layout.ThanosRulerWebConfigDir, "Thanos Ruler")
}

// thanosRulerWebTLS reports whether the ruler v serves HTTPS.
func thanosRulerWebTLS(t *monitoringv1.ThanosRuler, v versions.Version) bool {
	return t.Spec.Web != nil && t.Spec.Web.TLSConfig != nil && v.Supports(versions.ThanosRulerWebConfig)
}

// thanosRulerPortName is the name of the HTTP port of the container and the Service.
func thanosRulerPortName(t *monitoringv1.ThanosRuler) string {
	if t.Spec.PortName != "" {
		return t.Spec.PortName
	}
	return workload.DefaultPortName
}

// ThanosRulerSecretKeys are the Secret keys t's flags read from files, by spec field, in
// the order the flags come: each is mounted in the pod, so the controller checks they
// exist. A field another one overrides (queryEndpoints by queryConfig, ...) is left out.
func ThanosRulerSecretKeys(t *monitoringv1.ThanosRuler) []workload.SecretKeyField {
	s := &t.Spec
	var out []workload.SecretKeyField
	add := func(field, volume, flag string, sel *corev1.SecretKeySelector) {
		if sel != nil {
			out = append(out, workload.SecretKeyField{Field: field, Volume: volume, Flag: flag, Selector: *sel})
		}
	}
	add("spec.queryConfig", "query-config", "query.config-file", s.QueryConfig)
	add("spec.alertmanagersConfig", "alertmanager-config", "alertmanagers.config-file", s.AlertManagersConfig)
	if s.ObjectStorageConfigFile == nil {
		add("spec.objectStorageConfig", "objstorage-config", "objstore.config-file", s.ObjectStorageConfig)
	}
	if s.TracingConfigFile == "" {
		add("spec.tracingConfig", "tracing-config", "tracing.config-file", s.TracingConfig)
	}
	if s.AlertRelabelConfigFile == nil {
		add("spec.alertRelabelConfigs", "alertrelabel-config", "alert.relabel-config-file", s.AlertRelabelConfigs)
	}
	return out
}

// ThanosRulerGoverningService is the headless Service thanos-ruler-operated shared by the
// ThanosRuler StatefulSets of t's namespace; like prometheus-operator's it selects every
// ThanosRuler pod of the namespace, with the HTTP and gRPC ports. The controller creates
// it only when ManagesThanosRulerService(t).
func ThanosRulerGoverningService(t *monitoringv1.ThanosRuler) *corev1.Service {
	port := thanosRulerPortName(t)
	return workload.GoverningServiceShape{
		Name:      layout.ThanosRulerGoverningServiceName,
		Namespace: t.Namespace,
		Labels:    map[string]string{layout.ManagedByLabel: layout.ManagedByValue, operatedThanosRulerLabel: "true"},
		Selector:  map[string]string{layout.NameLabel: ThanosRulerNameValue},
		Ports: []corev1.ServicePort{
			workload.ServicePort(port, layout.ThanosRulerHTTPPort, port, corev1.ProtocolTCP),
			workload.ServicePort(workload.ThanosGRPCPortName, layout.ThanosRulerGRPCPort, workload.ThanosGRPCPortName, corev1.ProtocolTCP),
		},
	}.Service()
}

// CheckThanosRulerService checks the Service spec.serviceName names (nil when it does not
// exist): like prometheus-operator, the controller refuses to reconcile t unless it
// exists in t's namespace and its selector selects t's pods (a Service without a
// selector is accepted).
func CheckThanosRulerService(t *monitoringv1.ThanosRuler, svc *corev1.Service) error {
	return workload.CheckCustomService("ThanosRuler", t.Namespace, ThanosRulerServiceName(t), layout.ThanosRulerGoverningServiceName, svc, thanosRulerFixedLabels(t.Name))
}

// ThanosRulerStatus computes the status of t from its live StatefulSet (nil when it does
// not exist) and, when the controller has them, its pods: replicas counts, paused and the
// Available condition. The controller adds Reconciled.
func ThanosRulerStatus(t *monitoringv1.ThanosRuler, sts *appsv1.StatefulSet, pods []corev1.Pod, now metav1.Time) monitoringv1.ThanosRulerStatus {
	c, available := workload.OneStatefulSet{
		Name: t.Name, Namespace: t.Namespace, Generation: t.Generation, SpecReplicas: t.Spec.Replicas,
		StatefulSet: layout.ThanosRuler(t.Name).StatefulSet(), Live: sts, Pods: pods,
		NameLabel: layout.ThanosRulerNameLabel, Conditions: t.Status.Conditions,
	}.Status(now)
	return monitoringv1.ThanosRulerStatus{
		Paused:   t.Spec.Paused,
		Replicas: c.Replicas, UpdatedReplicas: c.Updated, AvailableReplicas: c.Available, UnavailableReplicas: c.Unavailable,
		Conditions: []monitoringv1.Condition{available},
	}
}
