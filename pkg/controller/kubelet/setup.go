package kubelet

import (
	"context"
	"errors"
	"fmt"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/kubelet"
)

// batchDelay folds a burst of changes (a node pool scaling, the initial list of a large
// cluster, our own writes coming back) into one reconcile.
const batchDelay = time.Second

// SetupWithManager registers the controller and its watches:
//   - the selected Nodes (server-side label selection, trimmed by kubelet.TrimNode);
//     only a change of addresses, of whether readiness is known, or a node joining or
//     leaving triggers a reconcile;
//   - the Service, Endpoints and EndpointSlices it writes (metadata only), when the
//     operator may list and watch them in the Service's namespace. prometheus-operator's
//     own ClusterRole grants only get/create/update/delete on Services and Endpoints, so
//     with it the objects are not watched: a change someone else makes is then repaired
//     at the next periodic sync;
//   - one request at start, and one every Config.SyncPeriod (the result of Reconcile).
//
// Unless Deps gave a Client, it creates this controller's own cache (the selected nodes,
// the kubelet objects of one namespace), added to the manager, and a client reading the
// nodes from it and everything else from the API server. Before that it checks the
// operator's permissions: listing and watching nodes is required; without the right to
// get, list, create, update and delete EndpointSlices in the namespace,
// Config.EndpointSlices is turned off with a warning, as upstream does.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	if err := r.cfg.Validate(); err != nil {
		return err
	}
	logger := mgr.GetLogger().WithName("kubelet")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	can := func(group, resource, namespace string, verbs ...string) (bool, error) {
		return allowed(ctx, mgr.GetClient(), group, resource, namespace, verbs...)
	}
	ns := r.cfg.Namespace
	ok, err := can("", "nodes", "", "list", "watch")
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("the kubelet controller needs to list and watch nodes")
	}
	if r.cfg.EndpointSlices {
		ok, err := can(discoveryv1.GroupName, "endpointslices", ns, "get", "list", "create", "update", "delete")
		if err != nil {
			return err
		}
		if !ok {
			logger.Info("not managing the kubelet EndpointSlices: the operator may not get, list, create, update and delete endpointslices", "namespace", ns)
			r.cfg.EndpointSlices = false
			r.Metrics.managed(r.cfg)
			if !r.cfg.Endpoints {
				return errors.New("the kubelet controller has nothing to write: Endpoints are disabled and EndpointSlices not permitted")
			}
		}
	}
	watched := []schema.GroupVersionKind{apply.ServiceGVK}
	if r.cfg.Endpoints {
		watched = append(watched, apply.EndpointsGVK)
	}
	if r.cfg.EndpointSlices {
		watched = append(watched, apply.EndpointSliceGVK)
	}
	var watch []schema.GroupVersionKind
	for _, gvk := range watched {
		resource := map[string]string{"Service": "services", "Endpoints": "endpoints", "EndpointSlice": "endpointslices"}[gvk.Kind]
		ok, err := can(gvk.Group, resource, ns, "list", "watch")
		if err != nil {
			return err
		}
		if ok {
			watch = append(watch, gvk)
		} else {
			logger.Info("not watching the kubelet "+resource+": the operator may not list and watch them; changes others make are repaired at every sync", "namespace", ns, "syncPeriod", r.cfg.SyncPeriod)
		}
	}

	src := r.Cache
	if r.Client == nil {
		c, cl, err := r.newCache(mgr)
		if err != nil {
			return err
		}
		if err := mgr.Add(ownCache{c}); err != nil {
			return err
		}
		r.Client, src = cl, c
		if r.Applier == nil {
			r.Applier = apply.New(cl, r.WriteMetrics, r.Clock)
		}
	} else if src == nil {
		src = mgr.GetCache()
	}

	key := reconcile.Request{NamespacedName: r.ServiceKey()}
	b := ctrl.NewControllerManagedBy(mgr).
		Named("kubelet").
		WithOptions(controller.Options{MaxConcurrentReconciles: 1}).
		WatchesRawSource(source.Kind(src, &corev1.Node{}, nodeEvents(key))).
		WatchesRawSource(source.Func(func(_ context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
			q.Add(key)
			return nil
		}))
	for _, gvk := range watch {
		obj := &metav1.PartialObjectMetadata{}
		obj.SetGroupVersionKind(gvk)
		b = b.WatchesRawSource(source.Kind[client.Object](src, obj, r.ownEvents(key)))
	}
	return b.Complete(r)
}

// newCache makes the controller's cache: selected nodes, trimmed; the Service and
// Endpoints of the kubelet name and the EndpointSlices of the Service, in its namespace.
// Its client reads only nodes from it.
func (r *Reconciler) newCache(mgr ctrl.Manager) (cache.Cache, client.Client, error) {
	byName := fields.OneTermEqualSelector("metadata.name", r.cfg.Name)
	c, err := cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient:        mgr.GetHTTPClient(),
		Scheme:            mgr.GetScheme(),
		Mapper:            mgr.GetRESTMapper(),
		DefaultNamespaces: map[string]cache.Config{r.cfg.Namespace: {}},
		DefaultTransform:  cache.TransformStripManagedFields(),
		ByObject: map[client.Object]cache.ByObject{
			&corev1.Node{}:               {Label: r.cfg.Selector, Transform: kubelet.TrimNode},
			&corev1.Service{}:            {Field: byName},
			&corev1.Endpoints{}:          {Field: byName}, //lint:ignore SA1019 the Endpoints upstream writes
			&discoveryv1.EndpointSlice{}: {Label: labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: r.cfg.Name})},
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("creating the kubelet controller's cache: %w", err)
	}
	restCfg := rest.CopyConfig(mgr.GetConfig())
	if restCfg.WarningHandler == nil && restCfg.WarningHandlerWithContext == nil {
		// Every Endpoints request is answered with the same deprecation warning: log it once.
		restCfg.WarningHandlerWithContext = log.NewKubeAPIWarningLogger(log.KubeAPIWarningLoggerOptions{Deduplicate: true})
	}
	cl, err := client.New(restCfg, client.Options{
		HTTPClient: mgr.GetHTTPClient(),
		Scheme:     mgr.GetScheme(),
		Mapper:     mgr.GetRESTMapper(),
		Cache: &client.CacheOptions{
			Reader: c,
			// Read where they are written: no cache lag, and no list/watch permission
			// needed (upstream's ClusterRole has none on Services and Endpoints).
			DisableFor: []client.Object{&corev1.Service{}, &corev1.Endpoints{}, &discoveryv1.EndpointSlice{}}, //lint:ignore SA1019 the Endpoints upstream writes
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("creating the kubelet controller's client: %w", err)
	}
	return c, cl, nil
}

// ownCache runs the controller's cache with the manager's caches (before leader
// election, synced before any controller starts).
type ownCache struct{ cache.Cache }

func (c ownCache) GetCache() cache.Cache { return c.Cache }

// nodeEvents enqueues the one request, after batchDelay, when a node joins, leaves or
// changes in a way that matters (kubelet.NodeChanged).
func nodeEvents(key reconcile.Request) handler.TypedEventHandler[*corev1.Node, reconcile.Request] {
	return handler.TypedFuncs[*corev1.Node, reconcile.Request]{
		CreateFunc: func(_ context.Context, _ event.TypedCreateEvent[*corev1.Node], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			q.AddAfter(key, batchDelay)
		},
		UpdateFunc: func(_ context.Context, e event.TypedUpdateEvent[*corev1.Node], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			if kubelet.NodeChanged(e.ObjectOld, e.ObjectNew) {
				q.AddAfter(key, batchDelay)
			}
		},
		DeleteFunc: func(_ context.Context, _ event.TypedDeleteEvent[*corev1.Node], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			q.AddAfter(key, batchDelay)
		},
	}
}

// ownEvents enqueues the one request when one of the objects the controller writes is
// created, changed or deleted by anyone.
func (r *Reconciler) ownEvents(key reconcile.Request) handler.TypedEventHandler[client.Object, reconcile.Request] {
	mine := func(o client.Object) bool {
		return o.GetNamespace() == r.cfg.Namespace &&
			(o.GetName() == r.cfg.Name || o.GetLabels()[discoveryv1.LabelServiceName] == r.cfg.Name)
	}
	return handler.TypedFuncs[client.Object, reconcile.Request]{
		CreateFunc: func(_ context.Context, e event.TypedCreateEvent[client.Object], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			if mine(e.Object) {
				q.AddAfter(key, batchDelay)
			}
		},
		UpdateFunc: func(_ context.Context, e event.TypedUpdateEvent[client.Object], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			if mine(e.ObjectNew) && e.ObjectNew.GetResourceVersion() != e.ObjectOld.GetResourceVersion() {
				q.AddAfter(key, batchDelay)
			}
		},
		DeleteFunc: func(_ context.Context, e event.TypedDeleteEvent[client.Object], q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			if mine(e.Object) {
				q.AddAfter(key, batchDelay)
			}
		},
	}
}

// allowed asks the API server whether the operator may do every one of verbs on
// resource (namespace "" for cluster-scoped resources or all namespaces).
func allowed(ctx context.Context, c client.Client, group, resource, namespace string, verbs ...string) (bool, error) {
	for _, verb := range verbs {
		review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: namespace, Verb: verb, Group: group, Resource: resource},
		}}
		if err := c.Create(ctx, review); err != nil {
			return false, fmt.Errorf("checking whether the operator may %s %s: %w", verb, resource, err)
		}
		if !review.Status.Allowed {
			return false, nil
		}
	}
	return true, nil
}
