package workload

import (
	corev1 "k8s.io/api/core/v1"
)

func PodNameEnvVar() corev1.EnvVar {
	return corev1.EnvVar{Name: PodNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}
}
