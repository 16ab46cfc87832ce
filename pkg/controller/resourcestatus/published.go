package resourcestatus

import (
	"cmp"
	"slices"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
)

// monitorKinds are the monitor kinds' names (target health and sample cost);
// ruleKinds the PrometheusRule's (rule health).
var (
	monitorKinds = func() []string {
		var out []string
		for _, k := range monitorkind.All {
			out = append(out, k.Name)
		}
		return out
	}()
	ruleKinds = []string{monitoringv1.PrometheusRuleKind}
)

// enqueueChangedLocked queues the objects of kinds that owner uses (an accepted verdict)
// whose published figure changed by changed's judgement: the pollers' results (target
// health, rule health, sample cost) write only the bindings they change. The caller
// holds s.mu.
func (s *Store) enqueueChangedLocked(owner Owner, kinds []string, changed func(kind string, nn types.NamespacedName) bool) {
	for _, kind := range kinds {
		for nn, owners := range s.verdicts[kind] {
			if v, ok := owners.get(owner); ok && v.Used() && changed(kind, nn) {
				s.enqueueLocked(kind, nn)
			}
		}
	}
}

// ownersOf are the owners that published verdicts of one of kinds (the objects a
// poller asks), sorted by resource, namespace and name.
func (s *Store) ownersOf(kinds []string) []Owner {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Owner
	for o, published := range s.published {
		if slices.ContainsFunc(kinds, func(k string) bool { return published[k] }) {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b Owner) int {
		return cmp.Or(cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}
