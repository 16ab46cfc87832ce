package workload

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// StorageFor is storage for any kind: s is its spec.storage, name the volume (or claim
// template) name, mountPath and subPath where the data directory is mounted.
func StorageFor(s *monitoringv1.StorageSpec, name, mountPath, subPath string) (*corev1.Volume, *corev1.PersistentVolumeClaim, corev1.VolumeMount, error) {
	mount := corev1.VolumeMount{Name: name, MountPath: mountPath, SubPath: subPath}
	if s != nil && s.DisableMountSubPath { //nolint:staticcheck // honoured like upstream
		mount.SubPath = ""
	}
	switch {
	case s == nil:
		return &corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}, nil, mount, nil
	case s.EmptyDir != nil:
		if l := s.EmptyDir.SizeLimit; l != nil && l.Sign() < 0 {
			return nil, nil, mount, fmt.Errorf("spec.storage.emptyDir.sizeLimit %s must not be negative", l)
		}
		return &corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: s.EmptyDir.DeepCopy()}}, nil, mount, nil
	case s.Ephemeral != nil:
		if err := checkClaimSpec(&s.Ephemeral.VolumeClaimTemplate.Spec, "spec.storage.ephemeral.volumeClaimTemplate"); err != nil {
			return nil, nil, mount, err
		}
		return &corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Ephemeral: s.Ephemeral.DeepCopy()}}, nil, mount, nil
	}

	t := s.VolumeClaimTemplate
	if err := checkClaimSpec(&t.Spec, "spec.storage.volumeClaimTemplate"); err != nil {
		return nil, nil, mount, err
	}
	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      CopyMap(t.Labels),
			Annotations: CopyMap(t.Annotations),
		},
		Spec: *t.Spec.DeepCopy(),
	}
	if len(pvc.Spec.AccessModes) == 0 {
		pvc.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
	}
	return nil, pvc, mount, nil
}

// checkClaimSpec rejects a claim without a positive storage request, which the API server
// would refuse (it requires one even when the claim has a data source).
func checkClaimSpec(spec *corev1.PersistentVolumeClaimSpec, field string) error {
	q, ok := spec.Resources.Requests[corev1.ResourceStorage]
	if !ok {
		return fmt.Errorf("%s.spec.resources.requests.storage is required", field)
	}
	if q.Sign() <= 0 {
		return fmt.Errorf("%s.spec.resources.requests.storage must be greater than zero, got %s", field, q.String())
	}
	return nil
}

func CopyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
