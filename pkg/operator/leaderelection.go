package operator

import (
	"context"
	"os"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// leaseVerbs are what controller-runtime's leader election does with its Lease.
var leaseVerbs = []string{"get", "create", "update"}

// mayUseLeases asks the API server whether the operator may get, create and update
// Leases in ns.
func mayUseLeases(ctx context.Context, c client.Client, ns string) (bool, error) {
	return allowed(ctx, c, "coordination.k8s.io", "leases", leaseVerbs, []string{ns})
}

// leaderElectionNamespace picks the lease namespace: the flag, then $POD_NAMESPACE, then
// the in-cluster service account's namespace, then "default" for out-of-cluster runs.
func leaderElectionNamespace(opts Options, _ *rest.Config) string {
	if opts.LeaderElectionNamespace != "" {
		return opts.LeaderElectionNamespace
	}
	if ns := os.Getenv("POD_NAMESPACE"); ns != "" {
		return ns
	}
	if data, err := os.ReadFile("/var/run/secrets/kubernetes.io/serviceaccount/namespace"); err == nil && len(data) > 0 {
		return string(data)
	}
	return "default"
}
