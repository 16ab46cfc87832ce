package explain

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	promconfig "github.com/prometheus/common/config"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/discovery"
	"github.com/prometheus/prometheus/discovery/kubernetes"
	"github.com/prometheus/prometheus/discovery/targetgroup"
)

// primary is, per role, the resource of which Prometheus makes one target group per
// object, and the prefix of the group's source.
var primary = map[kubernetes.Role]struct{ resource, source string }{
	kubernetes.RoleEndpoint:      {"endpoints", "endpoints/"},
	kubernetes.RoleEndpointSlice: {"endpointslices", "endpointslice/"},
	kubernetes.RolePod:           {"pods", "pod/"},
	kubernetes.RoleService:       {"services", "svc/"},
	kubernetes.RoleNode:          {"nodes", "node/"},
	kubernetes.RoleIngress:       {"ingresses", "ingress/"},
}

// DefaultDiscoveryTimeout bounds one discovery run.
const DefaultDiscoveryTimeout = 60 * time.Second

// discover runs Prometheus's Kubernetes discovery for one kubernetes_sd_configs entry,
// reading api, and returns the target groups of the initial synchronisation. The entry's
// API server and client settings are replaced by api's. Discovery is complete when every
// namespace's list of the role's resource has arrived and every object listed has its
// group (Prometheus builds an object's first group once all its informers have synced);
// a list the API server refuses ends the run with the API server's message.
func discover(ctx context.Context, api http.Handler, sd *kubernetes.SDConfig, timeout time.Duration) ([]*targetgroup.Group, error) {
	pr, ok := primary[sd.Role]
	if !ok {
		return nil, fmt.Errorf("role %q is not explained", sd.Role)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	obs := newObserver(api)
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	base, err := serve(ctx, func(host string) http.Handler { return &gate{token: token, host: host, next: obs} })
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(base)
	conf := *sd
	conf.APIServer = promconfig.URL{URL: u}
	conf.KubeConfig = ""
	conf.HTTPClientConfig = promconfig.DefaultHTTPClientConfig
	conf.HTTPClientConfig.BearerToken = promconfig.Secret(token)
	conf.NamespaceDiscovery.IncludeOwnNamespace = false

	reg := prometheus.NewRegistry()
	metrics := conf.NewDiscovererMetrics(reg, discovery.NewRefreshMetrics(reg))
	if err := metrics.Register(); err != nil {
		return nil, err
	}
	defer metrics.Unregister()
	d, err := conf.NewDiscoverer(discovery.DiscovererOptions{Logger: promslog.NewNopLogger(), Metrics: metrics})
	if err != nil {
		return nil, err
	}
	wantLists := max(len(conf.NamespaceDiscovery.Names), 1)
	ch := make(chan []*targetgroup.Group)
	go d.Run(ctx, ch)
	groups := map[string]*targetgroup.Group{}
	done := func() (bool, error) {
		obs.mu.Lock()
		defer obs.mu.Unlock()
		if obs.refused != nil {
			return false, obs.refused
		}
		if obs.lists[pr.resource] < wantLists {
			return false, nil
		}
		for _, n := range obs.served[pr.resource] {
			if groups[pr.source+n] == nil {
				return false, nil
			}
		}
		return true, nil
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := done()
		if err != nil {
			return nil, err
		}
		if ok {
			break
		}
		select {
		case tgs := <-ch:
			for _, g := range tgs {
				if g != nil {
					groups[g.Source] = g
				}
			}
		case <-tick.C:
		case <-deadline.C:
			obs.mu.Lock()
			lists := fmt.Sprint(obs.lists)
			obs.mu.Unlock()
			return nil, fmt.Errorf("discovery did not finish its initial lists within %s (complete lists so far: %s)", timeout, lists)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	out := make([]*targetgroup.Group, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out, nil
}
