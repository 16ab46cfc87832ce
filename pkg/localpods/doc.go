// Package localpods runs the pods of StatefulSets as plain local processes, without root:
// a kubelet stand-in for a laptop. For every replica of every StatefulSet it
//
//   - projects the pod's Secret, ConfigMap and projected volumes into a per-pod directory
//     the way the kubelet does (atomic "..data" symlink swap, pkg/reloader/atomicdir) and
//     keeps them in sync with the API, and gives emptyDir and claim volumes a directory;
//   - starts the init containers to completion, then the containers, with the binary the
//     image maps to, the container's environment (values and field references) and its
//     args with $(VAR) expanded;
//   - since every process shares the host's loopback and file system, rewrites what a
//     container would see: mount paths (/etc/prometheus/...) become the per-pod
//     directories, every container port becomes a free port on 127.0.0.1, and a Prometheus
//     configuration read from a volume reaches the API server through a kubeconfig and
//     scrapes the local address that stands for each discovered address;
//   - runs the HTTP readiness probes, restarts a container that exits, recreates the pod
//     when the pod template changes or its Pod object is deleted, and reports the replicas
//     in the StatefulSet's status;
//   - with a pod subnet (Options.PodSubnet), gives each pod an address, a Pod object, and
//     EndpointSlices for the Services selecting it, the address mapped to loopback.
//
// It backs lookout-local's pods (`make run`). The end-to-end suite's kubelet helper
// (test/e2e/kubelet_test.go) runs the same pod templates as root, each pod in its own
// network and mount namespaces at its real paths and addresses; it shares this package's
// $(VAR) expansion (Expand), volume files (VolumeFiles), environment (ContainerEnv),
// readiness probe (ProbeReadiness) and processes (Process). What is still its own is
// listed in Documentation/local-run.md.
package localpods
