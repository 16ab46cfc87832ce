package promplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// podMetadata merges spec.podMetadata with the operator's labels and annotations; the
// operator's win.
func podMetadata(p *promserver.Server, opts workload.Options, shard int32) metav1.ObjectMeta {
	labels := map[string]string{}
	annotations := map[string]string{}
	if m := p.Spec.PodMetadata; m != nil {
		for k, v := range m.Labels {
			labels[k] = v
		}
		for k, v := range m.Annotations {
			annotations[k] = v
		}
	}
	for k, v := range objectLabels(p, shard) {
		labels[k] = v
	}
	annotations[workload.DefaultContainerAnnotation] = PrometheusContainerName
	return metav1.ObjectMeta{Labels: workload.WithOperatorLabels(opts, labels), Annotations: annotations}
}

// topologySpread converts spec.topologySpreadConstraints; additionalLabelSelectors adds
// the labels of this Prometheus (OnResource) or of this shard (OnShard) to the selector.
func topologySpread(p *promserver.Server, opts workload.Options, shard int32) ([]corev1.TopologySpreadConstraint, error) {
	if len(p.Spec.TopologySpreadConstraints) == 0 {
		return nil, nil
	}
	out := make([]corev1.TopologySpreadConstraint, 0, len(p.Spec.TopologySpreadConstraints))
	for i, c := range p.Spec.TopologySpreadConstraints {
		core := corev1.TopologySpreadConstraint(*c.CoreV1TopologySpreadConstraint.DeepCopy())
		if c.AdditionalLabelSelectors != nil {
			extra := workload.WithOperatorLabels(opts, selectorLabels(p, shard))
			switch *c.AdditionalLabelSelectors {
			case monitoringv1.ShardAndResourceNameLabelSelector:
			case monitoringv1.ResourceNameLabelSelector:
				delete(extra, layout.ShardLabel)
			default:
				return nil, fmt.Errorf("spec.topologySpreadConstraints[%d].additionalLabelSelectors %q: must be OnResource or OnShard", i, *c.AdditionalLabelSelectors)
			}
			if core.LabelSelector == nil {
				core.LabelSelector = &metav1.LabelSelector{}
			}
			if core.LabelSelector.MatchLabels == nil {
				core.LabelSelector.MatchLabels = map[string]string{}
			}
			for k, v := range extra {
				core.LabelSelector.MatchLabels[k] = v
			}
		}
		out = append(out, core)
	}
	return out, nil
}
