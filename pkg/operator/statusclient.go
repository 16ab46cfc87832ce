package operator

import (
	"fmt"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// statusWriter is the client of the status controllers: it reads from the manager's cache
// like every controller, but writes through its own HTTP client and so its own client-side
// rate limiter: --status-api-qps (negative, the default: none, the API server's priority
// and fairness paces the writes; zero: the --kube-api-qps budget in a separate bucket).
// Writes of generated objects (config Secret, rule ConfigMaps, StatefulSets) never wait
// behind the thousands of status writes of a start-up (ADR 0014).
func statusWriter(mgr manager.Manager, qps float32) (client.Client, error) {
	cfg := rest.CopyConfig(mgr.GetConfig())
	cfg.RateLimiter = nil // a new limiter, not the manager client's
	if qps != 0 {
		// Negative: no client-side limiter at all (client-go's convention).
		cfg.QPS, cfg.Burst = qps, max(cfg.Burst, int(2*qps))
	}
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
