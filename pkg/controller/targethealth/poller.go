package targethealth

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	"github.com/lookout-operator/lookout/pkg/periodic"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/shardpods"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// Defaults of Config.
const (
	DefaultInterval = time.Minute
	// maxTimeout bounds one request; a period shorter than twice it uses half the period.
	maxTimeout = 30 * time.Second
	// defaultUnreachableAfter: one failed poll is not reported (a rolling pod, a slow
	// answer); the second one in a row is.
	defaultUnreachableAfter = 2
	// defaultParallel Prometheus objects are polled at once.
	defaultParallel = 4
)

// Lookup returns the Prometheus (or PrometheusAgent view) an owner names, nil when it is
// gone or has no pods to ask (a PrometheusAgent in DaemonSet mode).
type Lookup func(ctx context.Context, o resourcestatus.Owner) (*promserver.Server, error)

// Deps are what the poller works with.
type Deps struct {
	// Store receives the health; its owners are the objects polled.
	Store *resourcestatus.Store
	// Lookup reads the Prometheus of an owner.
	Lookup Lookup
	// Pods lists the pods of a Prometheus (the API reader: pods are not cached).
	Pods client.Reader
	// HTTP asks the pods; nil: a client of this package (see NewHTTPClient).
	HTTP *http.Client
	// Metrics count the polls (nil: not counted).
	Metrics *Metrics
	// Cost, when set, also measures each monitor's sample cost (cost.go).
	Cost *Cost
}

// Config tunes the poller.
type Config struct {
	// Interval is the period; it must be positive (zero turns the feature off before the
	// poller is built).
	Interval time.Duration
	// Timeout bounds each request (0: half the interval, at most 30 s).
	Timeout time.Duration
	// UnreachableAfter failed polls in a row turn the conditions Unknown
	// (PrometheusUnreachable); before that, the last health stands (0: 2).
	UnreachableAfter int
	// Parallel is how many Prometheus objects are polled at once (0: 4).
	Parallel int
}

// Poller is a manager.Runnable that polls on every period while this replica leads.
type Poller struct {
	Deps
	cfg    Config
	owners *ownerPolls
}

// New returns a poller.
func New(d Deps, cfg Config) *Poller {
	if cfg.Timeout <= 0 {
		cfg.Timeout = min(cfg.Interval/2, maxTimeout)
	}
	if cfg.UnreachableAfter <= 0 {
		cfg.UnreachableAfter = defaultUnreachableAfter
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = defaultParallel
	}
	if d.HTTP == nil {
		d.HTTP = NewHTTPClient(cfg.Timeout)
	}
	return &Poller{Deps: d, cfg: cfg, owners: newOwnerPolls("target health", cfg)}
}

// NewHTTPClient is the client the poller asks pods with. An HTTPS Prometheus
// (spec.web.tlsConfig) serves a certificate for names the operator does not know: the
// certificate is not verified, as the kubelet's HTTPS probes of the same port do not verify
// it. Nothing secret is sent; the answer only feeds status. A Prometheus that requires
// client certificates or basic auth answers with an error and its monitors are reported
// PrometheusUnreachable.
func NewHTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		// A redirect is not followed: a pod could send the poller anywhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			Proxy:                 nil, // pod addresses are never reached through a proxy
			DialContext:           (&net.Dialer{Timeout: timeout}).DialContext,
			TLSClientConfig:       &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // see above
			MaxIdleConnsPerHost:   1,
			IdleConnTimeout:       90 * time.Second,
			ResponseHeaderTimeout: timeout,
		},
	}
}

// NeedLeaderElection: only the leader writes status.
func (p *Poller) NeedLeaderElection() bool { return true }

// Start polls every interval until ctx ends, the first time one interval after the
// start (the verdicts are published by then).
func (p *Poller) Start(ctx context.Context) error {
	periodic.Every(ctx, p.cfg.Interval, func() { p.PollOnce(ctx) })
	return nil
}

// PollOnce polls every owner once and publishes what it found.
func (p *Poller) PollOnce(ctx context.Context) {
	p.owners.each(ctx, p.Store.HealthOwners(), p.pollOwner)
}

// pollOwner polls one Prometheus and publishes its snapshot, or, after too many failures
// in a row, its unreachability.
func (p *Poller) pollOwner(ctx context.Context, o resourcestatus.Owner) {
	prom, err := p.Lookup(ctx, o)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			p.owners.lookupFailed(ctx, o, err)
		}
		return
	}
	if prom == nil {
		return
	}
	start := time.Now()
	cost := p.startCost(prom)
	snap, err := p.poll(ctx, prom, cost)
	if !p.owners.done(ctx, o, start, err, p.Metrics.poll()) {
		return // the last health stands for now
	}
	if err != nil {
		snap = targethealth.NewSnapshot()
		snap.Unreachable = err.Error()
	}
	p.Store.PublishHealth(o, snap)
	if err == nil {
		p.finishCost(ctx, o, prom, cost)
	}
}

// unreachable is a poll failure whose message is already classified (stable while the
// cause is).
type unreachable struct{ msg string }

func (u unreachable) Error() string { return u.msg }

// poll asks one ready pod of every shard of prom.
func (p *Poller) poll(ctx context.Context, prom *promserver.Server, cost *costPoll) (*targethealth.Snapshot, error) {
	scheme, portName, defaultPort, prefix, localOnly := promplan.WebAPI(prom)
	if localOnly {
		return nil, unreachable{"spec.listenLocal: the web port listens on the pod's loopback only"}
	}
	shards, err := promplan.Shards(prom)
	if err != nil {
		return nil, unreachable{err.Error()}
	}
	sel, err := labels.Parse(promplan.Selector(prom))
	if err != nil {
		return nil, fmt.Errorf("the pod selector: %w", err)
	}
	var pods corev1.PodList
	if err := p.Pods.List(ctx, &pods, client.InNamespace(prom.Namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return nil, unreachable{"listing pods: " + targethealth.Classify(err.Error())}
	}
	owned, err := p.ownedStatefulSets(ctx, prom)
	if err != nil {
		return nil, unreachable{"reading the StatefulSets: " + targethealth.Classify(err.Error())}
	}
	chosen := choosePods(pods.Items, shards, owned)
	snap := targethealth.NewSnapshot()
	for shard := int32(0); shard < shards; shard++ {
		pod := chosen[shard]
		if pod == nil {
			return nil, unreachable{fmt.Sprintf("shard %d: no ready pod", shard)}
		}
		base := url.URL{Scheme: scheme, Host: net.JoinHostPort(pod.Status.PodIP, strconv.Itoa(shardpods.WebPort(pod, portName, defaultPort)))}
		fail := func(err error) error {
			return unreachable{fmt.Sprintf("shard %d (pod %s): %s", shard, pod.Name, targethealth.Classify(err.Error()))}
		}
		cost.beginShard()
		if err := p.get(ctx, base, path.Join("/", prefix, "/api/v1/targets"), "state=active", func(r io.Reader) error {
			return targethealth.ParseTargets(r, func(t targethealth.Target) { snap.AddTarget(t); cost.addTarget(t) })
		}); err != nil {
			return nil, fail(err)
		}
		err := p.get(ctx, base, path.Join("/", prefix, "/api/v1/scrape_pools"), "", func(r io.Reader) error {
			pools, err := targethealth.ParseScrapePools(r)
			if err == nil {
				snap.AddPools(pools)
			}
			return err
		})
		switch {
		case errors.Is(err, errNotFound):
			// A Prometheus older than 2.42 has no /api/v1/scrape_pools: monitors without
			// targets are then taken as loaded (NoTargets).
			snap.Loaded = nil
		case err != nil:
			return nil, fail(err)
		}
		p.queryShard(ctx, cost, base, prefix)
	}
	return snap, nil
}

// errNotFound is a 404 answer.
var errNotFound = errors.New("server returned HTTP status 404 Not Found")

// get fetches base+urlPath?query and hands the body to read.
func (p *Poller) get(ctx context.Context, base url.URL, urlPath, query string, read func(io.Reader) error) error {
	u := base
	u.Path, u.RawQuery = urlPath, query
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer func() {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
	}()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return errNotFound
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("server returned HTTP status %s", resp.Status)
	}
	return read(resp.Body)
}

// choosePods picks, for each shard, the first ready pod (by name) with an address.
func choosePods(pods []corev1.Pod, shards int32, owned map[types.UID]bool) map[int32]*corev1.Pod {
	return shardpods.Choose(pods, shards, func(pod *corev1.Pod) bool {
		// A look-alike (not a pod of the operator's StatefulSets) or one without an address is never asked.
		ref := metav1.GetControllerOf(pod)
		return pod.Status.PodIP != "" && ref != nil && ref.Kind == "StatefulSet" && owned[ref.UID]
	})
}

// ownedStatefulSets returns the UIDs of prom's StatefulSets: those of its shards' names
// that prom controls. Only their pods are polled: any pod carrying prom's labels would
// otherwise be asked, and its answer would feed the status.
func (p *Poller) ownedStatefulSets(ctx context.Context, prom *promserver.Server) (map[types.UID]bool, error) {
	names, err := promplan.StatefulSetNames(prom)
	if err != nil {
		return nil, err
	}
	out := map[types.UID]bool{}
	for _, n := range names {
		sts := &appsv1.StatefulSet{}
		switch err := p.Pods.Get(ctx, types.NamespacedName{Namespace: prom.Namespace, Name: n}, sts); {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, err
		}
		if ref := metav1.GetControllerOf(sts); ref != nil && ref.UID == prom.UID {
			out[sts.UID] = true
		}
	}
	return out, nil
}
