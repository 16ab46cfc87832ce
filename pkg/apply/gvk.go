package apply

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
)

// The kinds of the objects the operator writes, for Writer.Ensure and metadata reads.
var (
	SecretGVK        = corev1.SchemeGroupVersion.WithKind("Secret")
	ConfigMapGVK     = corev1.SchemeGroupVersion.WithKind("ConfigMap")
	ServiceGVK       = corev1.SchemeGroupVersion.WithKind("Service")
	EndpointsGVK     = corev1.SchemeGroupVersion.WithKind("Endpoints")
	EndpointSliceGVK = discoveryv1.SchemeGroupVersion.WithKind("EndpointSlice")
	StatefulSetGVK   = appsv1.SchemeGroupVersion.WithKind("StatefulSet")
	DaemonSetGVK     = appsv1.SchemeGroupVersion.WithKind("DaemonSet")
	RoleGVK          = rbacv1.SchemeGroupVersion.WithKind("Role")
	RoleBindingGVK   = rbacv1.SchemeGroupVersion.WithKind("RoleBinding")
)
