package watch

import (
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// AfterInitialList drops the create events of an informer's initial list. It is for the
// watches that map an object to the workloads it concerns (monitors, rules, Secrets,
// Namespaces): every workload is reconciled at start by its own initial create event,
// after every cache has synced, so mapping each of 20,000 monitors to its Prometheus as
// the caches fill only delays the start. Later creates, updates and deletes pass.
var AfterInitialList = predicate.Funcs{
	CreateFunc: func(e event.CreateEvent) bool { return !e.IsInInitialList },
}
