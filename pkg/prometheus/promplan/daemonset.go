package promplan

import (
	"fmt"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// CheckDaemonSetMode refuses the fields a PrometheusAgent in DaemonSet mode cannot have,
// with the messages of the rules upstream's CRD states for them (an API server with an
// older CRD lets them through): one agent runs per node and scrapes the pods of its node,
// so there are no replicas, shards or volumes of its own, and no ServiceMonitors, Probes
// or ScrapeConfigs, whose targets are not pods of one node. Select pods with PodMonitors.
func CheckDaemonSetMode(p *promserver.Server) error {
	s := p.Spec
	for _, f := range []struct {
		set  bool
		what string
	}{
		{s.Replicas != nil, "replicas cannot be set"},
		{s.Storage != nil, "storage cannot be set"},
		{ptr.Deref(s.Shards, 1) > 1, "shards cannot be greater than 1"},
		{s.PersistentVolumeClaimRetentionPolicy != nil, "persistentVolumeClaimRetentionPolicy cannot be set"},
		{s.ServiceMonitorSelector != nil, "serviceMonitorSelector cannot be set"},
		{s.ServiceMonitorNamespaceSelector != nil, "serviceMonitorNamespaceSelector cannot be set"},
		{s.ProbeSelector != nil, "probeSelector cannot be set"},
		{s.ProbeNamespaceSelector != nil, "probeNamespaceSelector cannot be set"},
		{s.ScrapeConfigSelector != nil, "scrapeConfigSelector cannot be set"},
		{s.ScrapeConfigNamespaceSelector != nil, "scrapeConfigNamespaceSelector cannot be set"},
	} {
		if f.set {
			return fmt.Errorf("spec.%s when mode is DaemonSet: an agent per node scrapes only the pods of its node, selected by PodMonitors", f.what)
		}
	}
	return nil
}

// DaemonSet builds the DaemonSet of a PrometheusAgent in DaemonSet mode, named as its
// StatefulSet would be (prom-agent-<name>), with the hash of its content in the
// layout.InputHashAnnotation annotation. Its pods are those of the StatefulSet mode
// without the shard: the same containers and volumes, the WAL on an emptyDir, and
// NODE_NAME in the reloader's environment for the config's node-local discovery.
func DaemonSet(in Input, opts workload.Options) (*appsv1.DaemonSet, error) {
	p := in.Prometheus
	if p == nil || !p.DaemonSetMode() {
		return nil, fmt.Errorf("not a PrometheusAgent in DaemonSet mode")
	}
	ds, err := buildDaemonSet(p, opts, in)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", strings.ToLower(p.Kind()), p.Namespace, p.Name, err)
	}
	return ds, nil
}

func buildDaemonSet(p *promserver.Server, opts workload.Options, in Input) (*appsv1.DaemonSet, error) {
	if err := CheckDaemonSetMode(p); err != nil {
		return nil, err
	}
	if in.TLSAssetSecrets < 0 {
		return nil, fmt.Errorf("negative number of TLS assets Secrets (%d)", in.TLSAssetSecrets)
	}
	v, err := promVersion(p)
	if err != nil {
		return nil, err
	}
	if _, err := WebConfig(p); err != nil {
		return nil, err
	}
	storageVol, _, storageMount, err := storage(p)
	if err != nil {
		return nil, err
	}
	template, err := podTemplate(p, opts, v, 0, 0, workload.Slots(in.TLSAssetSecrets), in.ConfigParts, storageMount)
	if err != nil {
		return nil, err
	}
	template.Spec.Volumes = append(template.Spec.Volumes, *storageVol)
	for _, vol := range p.Spec.Volumes {
		template.Spec.Volumes = append(template.Spec.Volumes, *vol.DeepCopy())
	}
	if err := workload.Validate(&appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: template}}); err != nil {
		return nil, err
	}
	minReady := ptr.Deref(p.Spec.MinReadySeconds, 0)
	if minReady < 0 {
		return nil, fmt.Errorf("spec.minReadySeconds must not be negative, got %d", minReady)
	}
	ds := &appsv1.DaemonSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      Instance(p).StatefulSet(0),
			Namespace: p.Namespace,
			Labels:    statefulSetLabels(p, 0),
		},
		Spec: appsv1.DaemonSetSpec{
			Selector:        &metav1.LabelSelector{MatchLabels: workload.WithOperatorLabels(opts, selectorLabels(p, 0))},
			Template:        template,
			MinReadySeconds: minReady,
		},
	}
	hash, err := workload.ContentHash("DaemonSet", ds.Name, ds.Labels, ds.Annotations, ds.Spec)
	if err != nil {
		return nil, err
	}
	ds.Annotations = map[string]string{layout.InputHashAnnotation: hash}
	return ds, nil
}

// DaemonSetStatus is the status of a PrometheusAgent in DaemonSet mode from its live
// DaemonSet (nil: not created yet): one pod per node, counted as replicas.
func DaemonSetStatus(p *promserver.Server, ds *appsv1.DaemonSet, now metav1.Time) monitoringv1.PrometheusStatus {
	st := monitoringv1.PrometheusStatus{Paused: p.Spec.Paused, Selector: Selector(p), Shards: 1}
	var problems []string
	if ds == nil {
		problems = append(problems, fmt.Sprintf("DaemonSet %s does not exist yet", Instance(p).StatefulSet(0)))
	} else {
		s := ds.Status
		st.Replicas = s.DesiredNumberScheduled
		st.UpdatedReplicas = s.UpdatedNumberScheduled
		st.AvailableReplicas = s.NumberAvailable
		st.UnavailableReplicas = s.NumberUnavailable
		if s.ObservedGeneration < ds.Generation {
			problems = append(problems, fmt.Sprintf("DaemonSet %s: generation %d not observed yet", ds.Name, ds.Generation))
		}
		if s.NumberAvailable < s.DesiredNumberScheduled {
			problems = append(problems, fmt.Sprintf("DaemonSet %s: %d of %d pods available", ds.Name, s.NumberAvailable, s.DesiredNumberScheduled))
		}
	}
	cond := workload.AvailableCondition(st.Replicas, st.AvailableReplicas, problems, p.Generation, p.Status.Conditions, now)
	if st.Replicas == 0 {
		// No node is scheduled to run one: nothing is scraped, which is not "available".
		cond = workload.AvailableCondition(1, 0, append(problems, "no node runs a pod of the DaemonSet (none matches its node selector, affinity and tolerations, or it is new)"), p.Generation, p.Status.Conditions, now)
		cond.Message = strings.Replace(cond.Message, "0/1 replicas available: ", "", 1)
	}
	st.Conditions = []monitoringv1.Condition{cond}
	return st
}
