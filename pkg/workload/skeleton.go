package workload

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// StatefulSetShape is what a kind's StatefulSet is made of: the kind builds the pod
// template and its storage, the shared skeleton (BuildStatefulSet) does the rest.
type StatefulSetShape struct {
	Name, Namespace string
	// Labels are the StatefulSet's own, MatchLabels its selector (immutable: exactly
	// prometheus-operator's, ADR 0008).
	Labels, MatchLabels map[string]string
	Replicas            int32
	ServiceName         string
	Template            corev1.PodTemplateSpec
	// The spec fields of the same name.
	MinReadySeconds     *int32
	PodManagementPolicy *monitoringv1.PodManagementPolicyType
	UpdateStrategy      *monitoringv1.StatefulSetUpdateStrategy
	PVCRetention        *appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy
	// Storage is the data volume (nil with a claim template, Claim), Volumes spec.volumes.
	Storage *corev1.Volume
	Claim   *corev1.PersistentVolumeClaim
	Volumes []corev1.Volume
}

// BuildStatefulSet builds the StatefulSet of s (Parallel pod management and rolling
// updates unless the spec says otherwise), validates it and stamps the hash of its content
// in the layout.InputHashAnnotation annotation. Owner references are the controller's
// job.
func BuildStatefulSet(s StatefulSetShape) (*appsv1.StatefulSet, error) {
	sts := &appsv1.StatefulSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace, Labels: s.Labels},
		Spec: appsv1.StatefulSetSpec{
			Replicas:            ptr.To(s.Replicas),
			Selector:            &metav1.LabelSelector{MatchLabels: s.MatchLabels},
			Template:            s.Template,
			ServiceName:         s.ServiceName,
			PodManagementPolicy: appsv1.ParallelPodManagement,
			UpdateStrategy:      appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType},
			MinReadySeconds:     ptr.Deref(s.MinReadySeconds, 0),
		},
	}
	if err := PodManagementPolicy(s.PodManagementPolicy, &sts.Spec); err != nil {
		return nil, err
	}
	if err := UpdateStrategy(s.UpdateStrategy, &sts.Spec); err != nil {
		return nil, err
	}
	if r := s.PVCRetention; r != nil {
		sts.Spec.PersistentVolumeClaimRetentionPolicy = r.DeepCopy()
	}
	if err := CheckMinReadySeconds(s.MinReadySeconds); err != nil {
		return nil, err
	}
	return FinishStatefulSet(sts, s.Storage, s.Claim, s.Volumes)
}

// CheckMinReadySeconds refuses a negative spec.minReadySeconds.
func CheckMinReadySeconds(m *int32) error {
	if v := ptr.Deref(m, 0); v < 0 {
		return ErrNegative("spec.minReadySeconds", v)
	}
	return nil
}

// PodShape is what a kind's pod is made of: the operator's containers and volumes, and
// the spec fields every kind has, which PodSpec converts the same way for all.
type PodShape struct {
	// Containers and InitContainers are the operator's; UserContainers and
	// UserInitContainers (spec.containers, spec.initContainers) patch or extend them.
	Containers, UserContainers         []corev1.Container
	InitContainers, UserInitContainers []corev1.Container
	Volumes                            []corev1.Volume
	// TopologySpread, when set, converts spec.topologySpreadConstraints (after the
	// containers are merged, before the grace period is checked); otherwise
	// TopologySpreadConstraints are copied.
	TopologySpread            func() ([]corev1.TopologySpreadConstraint, error)
	TopologySpreadConstraints []corev1.TopologySpreadConstraint
	// DefaultGracePeriod is the kind's default of spec.terminationGracePeriodSeconds.
	DefaultGracePeriod int64
	// AutomountServiceAccountToken is the pod's (nil: left out).
	AutomountServiceAccountToken *bool
	// SpecFields are the spec's own pod settings (SpecFieldsOf).
	SpecFields
}

// PodSpec builds the pod spec of s: the user's containers merged into the operator's,
// the spec fields converted, a negative grace period refused.
func (s PodShape) PodSpec() (corev1.PodSpec, error) {
	containers, err := MergeContainers(s.Containers, s.UserContainers, "spec.containers")
	if err != nil {
		return corev1.PodSpec{}, err
	}
	initContainers, err := MergeContainers(s.InitContainers, s.UserInitContainers, "spec.initContainers")
	if err != nil {
		return corev1.PodSpec{}, err
	}
	var spread []corev1.TopologySpreadConstraint
	if s.TopologySpread != nil {
		if spread, err = s.TopologySpread(); err != nil {
			return corev1.PodSpec{}, err
		}
	} else {
		for _, c := range s.TopologySpreadConstraints {
			spread = append(spread, *c.DeepCopy())
		}
	}
	grace := ptr.Deref(s.TerminationGracePeriodSeconds, s.DefaultGracePeriod)
	if grace < 0 {
		return corev1.PodSpec{}, ErrNegative("spec.terminationGracePeriodSeconds", grace)
	}
	pod := corev1.PodSpec{
		InitContainers:                initContainers,
		Containers:                    containers,
		Volumes:                       s.Volumes,
		ServiceAccountName:            s.ServiceAccountName,
		AutomountServiceAccountToken:  s.AutomountServiceAccountToken,
		SecurityContext:               PodSecurityContextOr(s.SecurityContext),
		TerminationGracePeriodSeconds: ptr.To(grace),
		NodeSelector:                  CopyMap(s.NodeSelector),
		Affinity:                      s.Affinity.DeepCopy(),
		TopologySpreadConstraints:     spread,
		SchedulerName:                 s.SchedulerName,
		PriorityClassName:             s.PriorityClassName,
		HostAliases:                   HostAliases(s.HostAliases),
		HostNetwork:                   s.HostNetwork,
		DNSPolicy:                     DNSPolicyFor(s.DNSPolicy, s.HostNetwork),
		DNSConfig:                     DNSConfig(s.DNSConfig),
		EnableServiceLinks:            CopyBool(s.EnableServiceLinks),
		HostUsers:                     CopyBool(s.HostUsers),
	}
	for _, t := range s.Tolerations {
		pod.Tolerations = append(pod.Tolerations, *t.DeepCopy())
	}
	pod.ImagePullSecrets = append(pod.ImagePullSecrets, s.ImagePullSecrets...)
	return pod, nil
}

// WithDefaultMemoryRequest is a copy of r with prometheus-operator's default memory
// request (200Mi) unless r requests memory.
func WithDefaultMemoryRequest(r corev1.ResourceRequirements) corev1.ResourceRequirements {
	resources := *r.DeepCopy()
	if _, ok := resources.Requests[corev1.ResourceMemory]; !ok {
		if resources.Requests == nil {
			resources.Requests = corev1.ResourceList{}
		}
		resources.Requests[corev1.ResourceMemory] = resource.MustParse("200Mi")
	}
	return resources
}

// StorageVolumeName is the name of the data volume: the claim template's name when
// storage s is a claim that names itself, def otherwise.
func StorageVolumeName(s *monitoringv1.StorageSpec, def string) string {
	if s != nil && s.EmptyDir == nil && s.Ephemeral == nil && s.VolumeClaimTemplate.Name != "" {
		return s.VolumeClaimTemplate.Name
	}
	return def
}

// CheckStatefulSetName refuses a StatefulSet name too long for its pods'
// controller-revision-hash label; kind names the object to rename.
func CheckStatefulSetName(name, kind string) error {
	if len(name) > MaxStatefulSetName {
		return fmt.Errorf("StatefulSet name %q has %d characters, at most %d fit (pods carry a controller-revision-hash label of the name plus 11 characters); use a shorter %s name", name, len(name), MaxStatefulSetName, kind)
	}
	return nil
}
