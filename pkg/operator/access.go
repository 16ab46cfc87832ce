package operator

import (
	"context"
	"fmt"

	authorizationv1 "k8s.io/api/authorization/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// allowed asks the API server, with one SelfSubjectAccessReview per verb, whether the
// operator may do every verb on group/resource in each namespace ("" is every namespace).
func allowed(ctx context.Context, c client.Client, group, resource string, verbs, namespaces []string) (bool, error) {
	for _, ns := range namespaces {
		for _, verb := range verbs {
			r := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
				ResourceAttributes: &authorizationv1.ResourceAttributes{
					Namespace: ns, Verb: verb, Group: group, Resource: resource,
				},
			}}
			if err := c.Create(ctx, r); err != nil {
				return false, fmt.Errorf("asking whether the operator may %s %s in namespace %q: %w", verb, resource, ns, err)
			}
			if !r.Status.Allowed {
				return false, nil
			}
		}
	}
	return true, nil
}

// mayWatch says whether the operator may list and watch each resource of group in every
// namespace of its cache, which an informer on them needs.
//
// Services: prometheus-operator's RBAC grants only get, create, update and delete on them,
// so after a swap Lookout may not watch them; Lookout's own RBAC grants both.
// Alertmanagers and AlertmanagerConfigs: without them the Alertmanager controller is not
// started (as prometheus-operator does), so an RBAC made for Prometheus alone does not
// keep the informers from ever syncing.
func mayWatch(ctx context.Context, c client.Client, o Options, group string, resources ...string) (bool, error) {
	var namespaces []string
	for ns := range cacheNamespaces(o.WatchScope()) {
		namespaces = append(namespaces, ns) // cache.AllNamespaces is ""
	}
	if len(namespaces) == 0 {
		namespaces = []string{""}
	}
	for _, resource := range resources {
		ok, err := allowed(ctx, c, group, resource, []string{"list", "watch"}, namespaces)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}
