package lint

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/kubelet"
)

// kubeletServices returns the Services the operator keeps for the kubelets
// (--kubelet-service=NAMESPACE/NAME in the arguments of a container of pods): they are
// in no manifest, yet the kubelet ServiceMonitors select them. They are built as the
// operator builds them (pkg/kubelet), with http-metrics unless --kubelet-http-metrics=false.
func kubeletServices(pods []Pod) []corev1.Service {
	var out []corev1.Service
	seen := map[string]bool{}
	for _, p := range pods {
		for _, c := range p.Containers {
			args := append(append([]string(nil), c.Command...), c.Args...)
			ref, http := "", true
			for i, a := range args {
				a = strings.TrimPrefix(a, "-")
				switch {
				case strings.HasPrefix(a, "-kubelet-service="):
					ref = strings.TrimPrefix(a, "-kubelet-service=")
				case a == "-kubelet-service" && i+1 < len(args):
					ref = args[i+1]
				case a == "-kubelet-http-metrics=false":
					http = false
				}
			}
			ns, name, ok := strings.Cut(ref, "/")
			if !ok || ns == "" || name == "" || seen[ref] {
				continue
			}
			seen[ref] = true
			out = append(out, *kubelet.Service(kubelet.Options{Namespace: ns, Name: name, HTTPMetrics: http}))
		}
	}
	return out
}
