package workload

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// APIAccessVolumeSource mirrors what the kubelet injects for a service account token, for
// the reloader alone when the pod does not automount one.
func APIAccessVolumeSource() corev1.Volume {
	return corev1.Volume{Name: APIAccessVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3607)}},
			{ConfigMap: &corev1.ConfigMapProjection{
				LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items:                []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
			}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{
				{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}},
			}}},
		},
	}}}
}

// SecretKeyField is a spec field naming a Secret key that the pod mounts as a file and a
// flag names.
type SecretKeyField struct {
	// Field is the spec field ("spec.queryConfig").
	Field string
	// Volume is the pod volume of the key, Flag the flag given its path.
	Volume, Flag string
	Selector     corev1.SecretKeySelector
}
