// Package upstreamargs holds the operator arguments of common prometheus-operator
// installs, which Lookout must accept unchanged: the flag parsing tests and the migration
// tests start the operator with them.
package upstreamargs

// KubePrometheus returns the arguments of kube-prometheus's prometheus-operator Deployment
// (manifests/prometheusOperator-deployment.yaml, v0.93.1).
func KubePrometheus() []string {
	return []string{
		"--kubelet-service=kube-system/kubelet",
		"--prometheus-config-reloader=quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1",
		"--watch-referenced-objects-in-all-namespaces=true",
		"--disable-unmanaged-prometheus-configuration=true",
		"--kubelet-endpoints=true",
		"--kubelet-endpointslice=true",
	}
}

// Helm returns the arguments the kube-prometheus-stack chart (88.5.3, release "kps" in
// namespace "monitoring") renders for the operator with its default values. The chart
// mounts its certificate as /cert/cert and /cert/key; certFile and keyFile stand for them.
func Helm(certFile, keyFile string) []string {
	return []string{
		"--kubelet-service=kube-system/kps-kube-prometheus-stack-kubelet",
		"--kubelet-endpoints=true",
		"--kubelet-endpointslice=false",
		"--localhost=127.0.0.1",
		"--prometheus-config-reloader=quay.io/prometheus-operator/prometheus-config-reloader:v0.93.1",
		"--config-reloader-cpu-request=0",
		"--config-reloader-cpu-limit=0",
		"--config-reloader-memory-request=0",
		"--config-reloader-memory-limit=0",
		"--thanos-default-base-image=quay.io/thanos/thanos:v0.42.4",
		"--secret-field-selector=type!=kubernetes.io/dockercfg,type!=kubernetes.io/service-account-token,type!=helm.sh/release.v1",
		"--web.enable-tls=true",
		"--web.cert-file=" + certFile,
		"--web.key-file=" + keyFile,
		"--web.listen-address=:10250",
		"--web.tls-min-version=VersionTLS13",
	}
}
