package promplan

import (
	"fmt"
	"strings"

	"github.com/lookout-operator/lookout/pkg/workload"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// defaultTerminationGracePeriod leaves Prometheus time to flush its head block.
const defaultTerminationGracePeriod = 600

// Input is what the controller hands the StatefulSet builder for one Prometheus.
type Input struct {
	// Prometheus is the object reconciled; the builders never modify it.
	Prometheus *promserver.Server
	// RuleConfigMaps is how many rule ConfigMaps the controller wrote, named
	// layout.Prometheus(name).RuleConfigMap(0..RuleConfigMaps-1).
	RuleConfigMaps int
	// TLSAssetSecrets is how many TLS assets Secrets the controller wrote, named
	// layout.Prometheus(name).TLSAssetsSecret(0..TLSAssetSecrets-1).
	TLSAssetSecrets int
	// ConfigParts is how many Secrets the generated config is spread over: the config
	// Secret and layout.ConfigPartSecret(1..ConfigParts-1); 0 and 1 both mean the config
	// Secret alone.
	ConfigParts int
	// DaemonSetPods are the names of the pods of a DaemonSet-mode agent that exist, sorted
	// (from the controller's pod cache): with Options.ReloaderReportConfig its reloader
	// Role lets exactly these report (ReportingPods). Unused otherwise.
	DaemonSetPods []string
}

// Shards is the number of shards of p: spec.shards, 1 when unset or 0.
func Shards(p *promserver.Server) (int32, error) {
	s := ptr.Deref(p.Spec.Shards, 1)
	if s < 0 {
		return 0, fmt.Errorf("spec.shards must not be negative, got %d", s)
	}
	return max(s, 1), nil
}

// Replicas is the number of replicas of each shard: spec.replicas, 1 when unset.
func Replicas(p *promserver.Server) (int32, error) {
	r := ptr.Deref(p.Spec.Replicas, 1)
	if r < 0 {
		return 0, fmt.Errorf("spec.replicas must not be negative, got %d", r)
	}
	return r, nil
}

// StatefulSetNames are the names of the StatefulSets p should have, shard 0 first; the
// controller deletes any other StatefulSet it owns.
func StatefulSetNames(p *promserver.Server) ([]string, error) {
	if p.DaemonSetMode() {
		return nil, nil // a DaemonSet instead
	}
	n, err := Shards(p)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, n)
	for s := range n {
		names = append(names, Instance(p).StatefulSet(int(s)))
	}
	return names, nil
}

// StatefulSets builds the StatefulSet of every shard that can run. A shard whose
// StatefulSet name is too long for its pods' controller-revision-hash label is left out
// and named in skipped (prometheus-operator creates it, and its pods never start); when
// shard 0's is too long, nothing can run and that is an error.
func StatefulSets(in Input, opts workload.Options) (sets []*appsv1.StatefulSet, skipped []string, err error) {
	if in.Prometheus == nil {
		return nil, nil, fmt.Errorf("no Prometheus given")
	}
	n, err := Shards(in.Prometheus)
	if err != nil {
		return nil, nil, err
	}
	sets = make([]*appsv1.StatefulSet, 0, n)
	for s := range n {
		if name := Instance(in.Prometheus).StatefulSet(int(s)); s > 0 && len(name) > workload.MaxStatefulSetName {
			skipped = append(skipped, name)
			continue
		}
		sts, err := StatefulSet(in, opts, s)
		if err != nil {
			return nil, nil, err
		}
		sets = append(sets, sts)
	}
	return sets, skipped, nil
}

// StatefulSet builds the StatefulSet of one shard, with the hash of its content in the
// layout.InputHashAnnotation annotation. Owner references are the controller's job. An
// error means the spec cannot become a valid StatefulSet; its message names the field.
func StatefulSet(in Input, opts workload.Options, shard int32) (*appsv1.StatefulSet, error) {
	p := in.Prometheus
	if p == nil {
		return nil, fmt.Errorf("no Prometheus given")
	}
	sts, err := buildStatefulSet(p, opts, in, shard)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s shard %d: %w", strings.ToLower(p.Kind()), p.Namespace, p.Name, shard, err)
	}
	return sts, nil
}

func buildStatefulSet(p *promserver.Server, opts workload.Options, in Input, shard int32) (*appsv1.StatefulSet, error) {
	shards, err := Shards(p)
	if err != nil {
		return nil, err
	}
	if shard < 0 || shard >= shards {
		return nil, fmt.Errorf("shard %d does not exist, spec.shards is %d", shard, shards)
	}
	replicas, err := Replicas(p)
	if err != nil {
		return nil, err
	}
	if _, err := RetainShards(p); err != nil {
		return nil, err
	}
	if in.RuleConfigMaps < 0 || in.TLSAssetSecrets < 0 {
		return nil, fmt.Errorf("negative number of rule ConfigMaps (%d) or TLS assets Secrets (%d)", in.RuleConfigMaps, in.TLSAssetSecrets)
	}
	name := Instance(p).StatefulSet(int(shard))
	if err := workload.CheckStatefulSetName(name, p.Kind()); err != nil {
		return nil, err
	}
	v, err := promVersion(p)
	if err != nil {
		return nil, err
	}
	ruleSlots, tlsSlots := ruleSlots(p, in.RuleConfigMaps), workload.Slots(in.TLSAssetSecrets)
	// The pod is useless if Prometheus rejects its web config, so fail here too.
	if _, err := WebConfig(p); err != nil {
		return nil, err
	}

	storageVol, claim, storageMount, err := storage(p)
	if err != nil {
		return nil, err
	}
	template, err := podTemplate(p, opts, v, shard, ruleSlots, tlsSlots, in.ConfigParts, storageMount)
	if err != nil {
		return nil, err
	}

	return workload.BuildStatefulSet(workload.StatefulSetShape{
		Name:                name,
		Namespace:           p.Namespace,
		Labels:              statefulSetLabels(p, shard),
		MatchLabels:         workload.WithOperatorLabels(opts, selectorLabels(p, shard)),
		Replicas:            replicas,
		ServiceName:         ServiceName(p),
		Template:            template,
		MinReadySeconds:     p.Spec.MinReadySeconds,
		PodManagementPolicy: p.Spec.PodManagementPolicy,
		UpdateStrategy:      p.Spec.UpdateStrategy,
		PVCRetention:        p.Spec.PersistentVolumeClaimRetentionPolicy,
		Storage:             storageVol,
		Claim:               claim,
		Volumes:             p.Spec.Volumes,
	})
}
