package workload

import (
	corev1 "k8s.io/api/core/v1"
)

// SecretKeyField is a spec field naming a Secret key that the pod mounts as a file and a
// flag names.
type SecretKeyField struct {
	// Field is the spec field ("spec.queryConfig").
	Field string
	// Volume is the pod volume of the key, Flag the flag given its path.
	Volume, Flag string
	Selector     corev1.SecretKeySelector
}
