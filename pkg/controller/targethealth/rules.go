package targethealth

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/periodic"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/rulehealth"
	"github.com/lookout-operator/lookout/pkg/shardpods"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// RuleAPI is where the rules API of an owner's pods is: a Prometheus's shards, or a
// ThanosRuler's replicas (one shard).
type RuleAPI struct {
	Namespace string
	// UID is the owner's: only pods of StatefulSets it controls are asked.
	UID types.UID
	// Scheme, PortName (the container port, DefaultPort when the pod has none of that
	// name) and Prefix (the route prefix) make the URL.
	Scheme, PortName string
	DefaultPort      int
	Prefix           string
	// LocalOnly: the API listens on the pod's loopback only (spec.listenLocal).
	LocalOnly bool
	// Selector selects the owner's pods.
	Selector string
	// StatefulSets are the owner's StatefulSets, one per shard, in shard order.
	StatefulSets []string
}

// PrometheusRuleAPI is the RuleAPI of a Prometheus.
func PrometheusRuleAPI(p *promserver.Server) (*RuleAPI, error) {
	names, err := promplan.StatefulSetNames(p)
	if err != nil {
		return nil, err
	}
	a := &RuleAPI{Namespace: p.Namespace, UID: p.UID, Selector: promplan.Selector(p), StatefulSets: names}
	a.Scheme, a.PortName, a.DefaultPort, a.Prefix, a.LocalOnly = promplan.WebAPI(p)
	return a, nil
}

// RuleLookup returns the RuleAPI of an owner (a Prometheus or a ThanosRuler), nil when it
// is gone or has no pods to ask.
type RuleLookup func(ctx context.Context, o resourcestatus.Owner) (*RuleAPI, error)

// RuleDeps are what the rule poller works with.
type RuleDeps struct {
	// Store receives the rule health; its owners of PrometheusRules are the objects polled.
	Store *resourcestatus.Store
	// Lookup says where an owner's rules API is.
	Lookup RuleLookup
	// Pods lists the pods and reads the StatefulSets of an owner (the API reader).
	Pods client.Reader
	// HTTP asks the pods; nil: NewHTTPClient.
	HTTP *http.Client
	// Metrics count the polls (nil: not counted).
	Metrics *RuleMetrics
}

// RulePoller is a manager.Runnable that reads, every period while this replica leads,
// GET /api/v1/rules of one ready pod per shard of every Prometheus and ThanosRuler whose
// PrometheusRules have status bindings, and publishes the rule health into the Store: one
// request per shard per period, whatever the number of rules.
type RulePoller struct {
	RuleDeps
	// requests is a target health poller used for its configuration and request code.
	requests *Poller
	owners   *ownerPolls
}

// NewRules returns a rule poller; cfg is the target health poller's (same period,
// timeout, unreachable threshold and parallelism).
func NewRules(d RuleDeps, cfg Config) *RulePoller {
	p := New(Deps{Store: d.Store, Pods: d.Pods, HTTP: d.HTTP}, cfg)
	d.HTTP = p.HTTP
	return &RulePoller{RuleDeps: d, requests: p, owners: newOwnerPolls("rule health", p.cfg)}
}

// NeedLeaderElection: only the leader writes status.
func (p *RulePoller) NeedLeaderElection() bool { return true }

// Start polls every interval until ctx ends, the first time one interval after the start.
func (p *RulePoller) Start(ctx context.Context) error {
	periodic.Every(ctx, p.requests.cfg.Interval, func() { p.PollOnce(ctx) })
	return nil
}

// PollOnce polls every owner of PrometheusRules once and publishes what it found.
func (p *RulePoller) PollOnce(ctx context.Context) {
	p.owners.each(ctx, p.Store.RuleHealthOwners(), p.pollOwner)
}

// pollOwner polls one owner and publishes its snapshot, or, after too many failures in a
// row, its unreachability.
func (p *RulePoller) pollOwner(ctx context.Context, o resourcestatus.Owner) {
	api, err := p.Lookup(ctx, o)
	if err != nil {
		if !apierrors.IsNotFound(err) {
			p.owners.lookupFailed(ctx, o, err)
		}
		return
	}
	if api == nil {
		return
	}
	start := time.Now()
	snap, n, err := p.poll(ctx, api)
	if p.Metrics != nil {
		p.Metrics.Bytes.Add(float64(n))
	}
	if !p.owners.done(ctx, o, start, err, p.Metrics.poll()) {
		return // the last health stands for now
	}
	if err != nil {
		snap = rulehealth.NewSnapshot()
		snap.Unreachable = err.Error()
	}
	p.Store.PublishRuleHealth(o, snap)
}

// poll asks one ready pod of every shard of api's owner for its rules, and returns what
// they said and the bytes read.
func (p *RulePoller) poll(ctx context.Context, api *RuleAPI) (*rulehealth.Snapshot, int64, error) {
	if api.LocalOnly {
		return nil, 0, unreachable{"spec.listenLocal: the web port listens on the pod's loopback only"}
	}
	sel, err := labels.Parse(api.Selector)
	if err != nil {
		return nil, 0, fmt.Errorf("the pod selector: %w", err)
	}
	var pods corev1.PodList
	if err := p.Pods.List(ctx, &pods, client.InNamespace(api.Namespace), client.MatchingLabelsSelector{Selector: sel}); err != nil {
		return nil, 0, unreachable{"listing pods: " + targethealth.Classify(err.Error())}
	}
	owned, err := p.owned(ctx, api)
	if err != nil {
		return nil, 0, unreachable{"reading the StatefulSets: " + targethealth.Classify(err.Error())}
	}
	shards := int32(max(1, len(api.StatefulSets)))
	chosen := choosePods(pods.Items, shards, owned)
	snap := rulehealth.NewSnapshot()
	var read int64
	for shard := int32(0); shard < shards; shard++ {
		pod := chosen[shard]
		if pod == nil {
			return nil, read, unreachable{fmt.Sprintf("shard %d: no ready pod", shard)}
		}
		base := url.URL{Scheme: api.Scheme, Host: net.JoinHostPort(pod.Status.PodIP, strconv.Itoa(shardpods.WebPort(pod, api.PortName, api.DefaultPort)))}
		snap.Shard()
		err := p.requests.get(ctx, base, path.Join("/", api.Prefix, "/api/v1/rules"), "", func(r io.Reader) error {
			cr := &countingReader{r: r}
			defer func() { read += cr.n }()
			return rulehealth.ParseRules(cr, snap.AddGroup)
		})
		if err != nil {
			return nil, read, unreachable{fmt.Sprintf("shard %d (pod %s): %s", shard, pod.Name, targethealth.Classify(err.Error()))}
		}
	}
	return snap, read, nil
}

// owned returns the UIDs of api's StatefulSets that its owner controls: only their pods
// are asked.
func (p *RulePoller) owned(ctx context.Context, api *RuleAPI) (map[types.UID]bool, error) {
	out := map[types.UID]bool{}
	for _, n := range api.StatefulSets {
		sts := &appsv1.StatefulSet{}
		switch err := p.Pods.Get(ctx, types.NamespacedName{Namespace: api.Namespace, Name: n}, sts); {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, err
		}
		if ref := metav1.GetControllerOf(sts); ref != nil && ref.UID == api.UID {
			out[sts.UID] = true
		}
	}
	return out, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
