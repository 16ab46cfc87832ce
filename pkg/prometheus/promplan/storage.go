package promplan

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// storage returns the TSDB volume (emptyDir or ephemeral) or volume claim template, and
// its mount in the prometheus container. Like prometheus-operator, spec.storage.emptyDir
// wins over ephemeral, which wins over volumeClaimTemplate; no storage is an emptyDir.
func storage(p *promserver.Server) (*corev1.Volume, *corev1.PersistentVolumeClaim, corev1.VolumeMount, error) {
	return workload.StorageFor(p.Spec.Storage, storageVolumeName(p), layout.StorageDir, storageSubPath)
}
