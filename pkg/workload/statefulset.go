package workload

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// FinishStatefulSet adds the storage volume or claim template and the user's volumes
// last, as prometheus-operator orders them, validates the StatefulSet and stamps the
// hash of what it was built from.
func FinishStatefulSet(sts *appsv1.StatefulSet, storageVol *corev1.Volume, claim *corev1.PersistentVolumeClaim, volumes []corev1.Volume) (*appsv1.StatefulSet, error) {
	podSpec := &sts.Spec.Template.Spec
	if storageVol != nil {
		podSpec.Volumes = append(podSpec.Volumes, *storageVol)
	}
	if claim != nil {
		sts.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{*claim}
	}
	for _, vol := range volumes {
		podSpec.Volumes = append(podSpec.Volumes, *vol.DeepCopy())
	}
	if err := Validate(sts); err != nil {
		return nil, err
	}
	hash, err := Hash(sts)
	if err != nil {
		return nil, err
	}
	sts.Annotations = map[string]string{layout.InputHashAnnotation: hash}
	return sts, nil
}

// PodManagementPolicy converts spec.podManagementPolicy (Parallel by default).
func PodManagementPolicy(pmp *monitoringv1.PodManagementPolicyType, spec *appsv1.StatefulSetSpec) error {
	if pmp == nil || *pmp == "" {
		return nil
	}
	switch *pmp {
	case monitoringv1.ParallelPodManagement, monitoringv1.OrderedReadyPodManagement:
		spec.PodManagementPolicy = appsv1.PodManagementPolicyType(*pmp)
	default:
		return fmt.Errorf("spec.podManagementPolicy %q: must be Parallel or OrderedReady", *pmp)
	}
	return nil
}

// UpdateStrategy converts spec.updateStrategy (RollingUpdate by default).
func UpdateStrategy(u *monitoringv1.StatefulSetUpdateStrategy, spec *appsv1.StatefulSetSpec) error {
	if u == nil {
		return nil
	}
	switch u.Type {
	case monitoringv1.RollingUpdateStatefulSetStrategyType, "":
		spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType}
		if r := u.RollingUpdate; r != nil && r.MaxUnavailable != nil {
			spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: ptr.To(*r.MaxUnavailable)}
		}
	case monitoringv1.OnDeleteStatefulSetStrategyType:
		if u.RollingUpdate != nil {
			return fmt.Errorf("spec.updateStrategy.rollingUpdate is only allowed with type RollingUpdate")
		}
		spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	default:
		return fmt.Errorf("spec.updateStrategy.type %q: must be RollingUpdate or OnDelete", u.Type)
	}
	return nil
}

func ErrNegative[T int32 | int64](field string, v T) error {
	return fmt.Errorf("%s must not be negative, got %d", field, v)
}
