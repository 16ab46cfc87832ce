package operator

import (
	"fmt"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// statusWriter is the client of the status controllers: it reads from the manager's cache
// like every controller, but writes through its own HTTP client and so its own client-side
// rate limiter (same --kube-api-qps and --kube-api-burst budget, separate bucket). Writes
// of generated objects (config Secret, rule ConfigMaps, StatefulSets) never wait behind
// the thousands of status writes of a start-up (ADR 0014).
func statusWriter(mgr manager.Manager) (client.Client, error) {
	cfg := rest.CopyConfig(mgr.GetConfig())
	cfg.RateLimiter = nil // a new limiter, not the manager client's
	c, err := client.New(cfg, client.Options{
		Scheme: mgr.GetScheme(),
		Mapper: mgr.GetRESTMapper(),
		Cache:  &client.CacheOptions{Reader: mgr.GetCache()},
	})
	if err != nil {
		return nil, fmt.Errorf("creating the status client: %w", err)
	}
	return c, nil
}
