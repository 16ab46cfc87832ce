package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Hash is a stable hash of everything the controller writes for sts: its labels, its
// annotations other than layout.InputHashAnnotation, and its spec. JSON encoding sorts
// map keys, and the builders emit lists in a fixed order, so equal input gives an equal
// hash across runs and processes.
func Hash(sts *appsv1.StatefulSet) (string, error) {
	return ContentHash("StatefulSet", sts.Name, sts.Labels, sts.Annotations, sts.Spec)
}

// ContentHash hashes what the controller writes for a workload of kind: its labels, its
// annotations other than layout.InputHashAnnotation, and its spec.
func ContentHash(kind, name string, labels, objAnnotations map[string]string, spec any) (string, error) {
	annotations := map[string]string{}
	for k, v := range objAnnotations {
		if k != layout.InputHashAnnotation {
			annotations[k] = v
		}
	}
	b, err := json.Marshal(struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
		Spec        any               `json:"spec"`
	}{labels, annotations, spec})
	if err != nil {
		return "", fmt.Errorf("hashing %s %s: %w", kind, name, err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// UpToDate reports whether live was written from the same desired StatefulSet, by
// comparing their hash annotations; when it is, the controller writes nothing.
func UpToDate(live, desired *appsv1.StatefulSet) bool {
	h := desired.Annotations[layout.InputHashAnnotation]
	return h != "" && live.Annotations[layout.InputHashAnnotation] == h
}

// NeedsRecreate reports whether live differs from desired in a field the API server
// refuses to update (selector, serviceName, podManagementPolicy, volumeClaimTemplates) and
// names it. The controller then deletes live with propagationPolicy Orphan, so pods and
// claims stay and the new StatefulSet adopts them, and creates desired. Fields the API
// server defaults in claim templates are compared only when desired sets them.
func NeedsRecreate(live, desired *appsv1.StatefulSet) (bool, string) {
	switch {
	case !equality.Semantic.DeepEqual(live.Spec.Selector, desired.Spec.Selector):
		return true, "spec.selector"
	case live.Spec.ServiceName != desired.Spec.ServiceName:
		return true, "spec.serviceName"
	case live.Spec.PodManagementPolicy != desired.Spec.PodManagementPolicy:
		return true, "spec.podManagementPolicy"
	case len(live.Spec.VolumeClaimTemplates) != len(desired.Spec.VolumeClaimTemplates):
		return true, "spec.volumeClaimTemplates"
	}
	for i := range desired.Spec.VolumeClaimTemplates {
		d, l := &desired.Spec.VolumeClaimTemplates[i], &live.Spec.VolumeClaimTemplates[i]
		field := fmt.Sprintf("spec.volumeClaimTemplates[%d]", i)
		if d.Name != l.Name || !equalMaps(d.Labels, l.Labels) || !equalMaps(d.Annotations, l.Annotations) {
			return true, field + ".metadata"
		}
		ds, ls := &d.Spec, &l.Spec
		if !equality.Semantic.DeepEqual(ds.AccessModes, ls.AccessModes) ||
			!equality.Semantic.DeepEqual(ds.Resources, ls.Resources) ||
			!equality.Semantic.DeepEqual(ds.Selector, ls.Selector) ||
			!equality.Semantic.DeepEqual(ds.DataSource, ls.DataSource) ||
			!equality.Semantic.DeepEqual(ds.DataSourceRef, ls.DataSourceRef) ||
			(ds.StorageClassName != nil && !equality.Semantic.DeepEqual(ds.StorageClassName, ls.StorageClassName)) ||
			(ds.VolumeMode != nil && !equality.Semantic.DeepEqual(ds.VolumeMode, ls.VolumeMode)) ||
			(ds.VolumeAttributesClassName != nil && !equality.Semantic.DeepEqual(ds.VolumeAttributesClassName, ls.VolumeAttributesClassName)) ||
			(ds.VolumeName != "" && ds.VolumeName != ls.VolumeName) {
			return true, field + ".spec"
		}
	}
	return false, ""
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
