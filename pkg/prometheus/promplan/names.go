package promplan

import (
	"path"
	"strconv"

	"github.com/lookout-operator/lookout/pkg/workload"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// PrometheusContainerName is the name of the Prometheus container, as
// prometheus-operator names it (users patch it by name).
const PrometheusContainerName = "prometheus"

// Volume names and values of the Prometheus pod.
const (
	configVolume      = "config"
	configPartsVolume = "config-parts"
	logFilesVolume    = "log-files"
	logDir            = "/var/log/prometheus"
	storageSubPath    = "prometheus-db"
	// operatedLabel marks the governing Service, as prometheus-operator does.
	operatedLabel = "operated-prometheus"
	// PrometheusNameValue and AgentNameValue are the values of app.kubernetes.io/name on
	// what is built here for a Prometheus and for a PrometheusAgent.
	PrometheusNameValue = "prometheus"
	AgentNameValue      = "prometheus-agent"
)

// selectorLabels are the labels of the StatefulSet selector of one shard: exactly those
// of prometheus-operator's selector, so that either operator takes over the other's
// StatefulSet in place, with its pods and volumes (ADR 0008). The selector is immutable:
// never change this set.
func selectorLabels(p *promserver.Server, shard int32) map[string]string {
	name := p.Name
	l := map[string]string{
		layout.ManagedByLabel:      layout.ManagedByValue,
		layout.NameLabel:           NameValue(p),
		layout.InstanceLabel:       name,
		layout.PrometheusNameLabel: name,
		layout.OperatorNameLabel:   name,
		layout.ShardLabel:          strconv.Itoa(int(shard)),
	}
	if p.DaemonSetMode() {
		// A DaemonSet has no shards; its selector is what upstream's selects on.
		delete(l, layout.ShardLabel)
	}
	return l
}

// objectLabels are the labels of the StatefulSet and its pods.
func objectLabels(p *promserver.Server, shard int32) map[string]string {
	l := selectorLabels(p, shard)
	l[layout.LegacyManagedByLabel] = layout.ManagedByValue
	return l
}

// statefulSetLabels are the labels of one shard's StatefulSet: its pods' labels and
// prometheus-operator's mode label (server or agent), which its StatefulSet informer
// selects on.
func statefulSetLabels(p *promserver.Server, shard int32) map[string]string {
	l := objectLabels(p, shard)
	l[layout.ModeLabel] = mode(p)
	return l
}

// Selector is the label selector matching the pods of every shard of p, as reported in
// status.selector for the scale subresource.
func Selector(p *promserver.Server) string {
	l := selectorLabels(p, 0)
	delete(l, layout.ShardLabel)
	return labels.SelectorFromSet(l).String()
}

// ServiceName is the governing Service of p's StatefulSets: spec.serviceName, or
// prometheus-operated (prometheus-agent-operated for an agent).
func ServiceName(p *promserver.Server) string {
	return workload.GoverningServiceName(p.Spec.ServiceName, governingServiceName(p))
}

// ManagesGoverningService reports whether the controller creates prometheus-operated (or
// prometheus-agent-operated) for p; when spec.serviceName is set the user provides the
// Service.
func ManagesGoverningService(p *promserver.Server) bool {
	return workload.ManagesService(p.Spec.ServiceName)
}

// storageVolumeName is the name of the TSDB volume or volume claim template.
func storageVolumeName(p *promserver.Server) string {
	return workload.StorageVolumeName(p.Spec.Storage, Instance(p).Base()+"-db")
}

// portName is the name of the Prometheus container port and of the governing Service port.
func portName(p *promserver.Server) string {
	if p.Spec.PortName != "" {
		return p.Spec.PortName
	}
	return workload.DefaultPortName
}

// ruleSlotDir is the mount directory of the n-th rule ConfigMap slot.
func ruleSlotDir(p *promserver.Server, n int) string {
	return path.Join(layout.RulesDir, Instance(p).RuleConfigMap(n))
}
