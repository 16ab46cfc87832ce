package rulefiles

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Input is what one owner (a Prometheus or a ThanosRuler) loads rules with.
type Input struct {
	// Options are the validation options of the owner's server (rules.OptionsFor,
	// rules.ThanosOptionsFor).
	Options rules.Options
	// Enforcement is the owner's namespace-label enforcement.
	Enforcement rules.Enforcement
	// Selector is the owner's compiled rule selector, Scope the watched namespaces and
	// NamespaceLabels the labels of every namespace.
	Selector        *selection.Compiled
	Scope           selection.Scope
	NamespaceLabels selection.NamespaceLabels
	// Namespace is the owner's namespace; ConfigMapName(i) is the name of its i-th rule
	// ConfigMap there.
	Namespace     string
	ConfigMapName func(int) string
}

// Result is the packed rule files of one owner.
type Result struct {
	// ConfigMaps are the data of the rule ConfigMaps, in index order.
	ConfigMaps []map[string]string
	// Verdicts say, for every PrometheusRule considered, whether it is served and why not.
	Verdicts []selection.Verdict
}

// entry caches one PrometheusRule's validation and rendering.
type entry struct {
	generation int64
	key        string
	file       []byte
	problem    string
}

// State is what a controller remembers about one owner's rule files between reconciles.
// It is not safe for concurrent use: the controller holds the owner's lock.
type State struct {
	validatorKey string
	validator    *rules.Validator
	entries      map[types.UID]*entry
	// live is the data of the rule ConfigMaps as last written (read from the API server
	// once after a start), in order; it feeds stable packing and last-known-good.
	live       []map[string]string
	liveLoaded bool
}

// Written records the rule ConfigMaps the controller wrote (Result.ConfigMaps).
func (s *State) Written(configMaps []map[string]string) { s.live = configMaps }

// Reconcile selects, validates, enforces, renders and packs the PrometheusRules of one
// owner. Rules are listed through cache; the live rule ConfigMaps are read once through
// api. A rule whose new version is invalid keeps being served in its last accepted
// version, read back from the live rule ConfigMaps. Errors are outcome.Invalid (the
// version cannot be read) or outcome.ApplyFailed (a read failed).
func (s *State) Reconcile(ctx context.Context, cache, api client.Reader, in Input) (*Result, error) {
	vkey := fmt.Sprintf("%+v", in.Options)
	if s.validator == nil || s.validatorKey != vkey {
		v, err := rules.NewValidator(in.Options)
		if err != nil {
			return nil, outcome.Invalid(fmt.Errorf("spec.version: %w", err))
		}
		s.validator, s.validatorKey, s.entries = v, vkey, map[types.UID]*entry{}
	}
	if !s.liveLoaded {
		live, err := readConfigMaps(ctx, api, in.Namespace, in.ConfigMapName)
		if err != nil {
			return nil, outcome.ApplyFailed(err)
		}
		s.live, s.liveLoaded = live, true
	}

	var list monitoringv1.PrometheusRuleList
	if err := cache.List(ctx, &list, client.UnsafeDisableDeepCopy); err != nil {
		return nil, outcome.ApplyFailed(fmt.Errorf("listing PrometheusRules: %w", err))
	}
	items := make([]*monitoringv1.PrometheusRule, len(list.Items))
	for i := range list.Items {
		items[i] = &list.Items[i]
	}
	selected, verdicts := selection.Select(in.Selector, items, in.Scope, in.NamespaceLabels)

	files := map[string][]byte{}
	byKey := map[string]*monitoringv1.PrometheusRule{}
	problems := map[string]string{}
	seen := map[types.UID]bool{}
	for _, rule := range selected {
		seen[rule.UID] = true
		e := s.entries[rule.UID]
		label := in.Enforcement.LabelFor(rule)
		if e == nil || e.generation != rule.Generation || rule.Generation == 0 || e.key != label {
			e = &entry{generation: rule.Generation, key: label}
			e.file, e.problem = rules.Prepare(s.validator, rule, label)
			s.entries[rule.UID] = e
		}
		key := rules.FileName(rule)
		byKey[key] = rule
		if e.problem == "" {
			files[key] = e.file
			continue
		}
		problems[nsName(rule)] = s.lastKnownGood(ctx, rule, label, e.problem, files, key)
	}
	for uid := range s.entries {
		if !seen[uid] {
			delete(s.entries, uid)
		}
	}

	packed, tooLarge := rules.PackStable(files, rules.MaxConfigMapDataBytes, s.live)
	for _, key := range tooLarge {
		rule := byKey[key]
		problems[nsName(rule)] = rules.TooLargeProblem(len(key)+len(files[key]), rules.MaxConfigMapDataBytes).Error()
	}
	selection.MarkInvalid(verdicts, problems)
	return &Result{ConfigMaps: packed, Verdicts: verdicts}, nil
}

func nsName(o metav1.Object) string { return o.GetNamespace() + "/" + o.GetName() }

// lastKnownGood puts the last accepted version of an invalid rule into files, when the
// live rule ConfigMaps hold one that satisfies the current namespace enforcement and
// passes the current validator (version, features, name validation scheme), and
// returns the rejection message saying what is served. A version rendered before
// enforcement was turned on is never served: the tenant would escape enforcement for as
// long as the new version stays invalid.
func (s *State) lastKnownGood(ctx context.Context, rule *monitoringv1.PrometheusRule, label, problem string, files map[string][]byte, key string) string {
	served, h, ok := rules.FindServed(s.live, rule)
	if !ok {
		return problem
	}
	// Status shows at most MaxMessageBytes: cut the problems, not what is served.
	problem = resourcestatus.Truncate(problem, resourcestatus.MaxMessageBytes-256)
	enforced, err := rules.SatisfiesEnforcement(served, label, rule.Namespace)
	if err != nil {
		log.FromContext(ctx).Error(err, "checking the served version of a PrometheusRule", "rule", nsName(rule))
	}
	if !enforced {
		return fmt.Sprintf("%s; its last accepted version (generation %d) is not served either: it does not carry the namespace label enforcement now in place", problem, h.Generation)
	}
	if p := rules.CheckServed(s.validator, served); p != "" {
		return fmt.Sprintf("%s; its last accepted version (generation %d) is not served either: the current version, features or name validation scheme refuse it: %s",
			problem, h.Generation, resourcestatus.Truncate(p, 512))
	}
	files[key] = served
	return fmt.Sprintf("%s; still serving generation %d, the last accepted version", problem, h.Generation)
}

// readConfigMaps reads the data of the live rule ConfigMaps name(0), name(1), ... of
// namespace, in index order, up to the first missing one.
func readConfigMaps(ctx context.Context, api client.Reader, namespace string, name func(int) string) ([]map[string]string, error) {
	var out []map[string]string
	for i := 0; ; i++ {
		cm := &corev1.ConfigMap{}
		err := api.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name(i)}, cm)
		if apierrors.IsNotFound(err) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading rule ConfigMap %s: %w", name(i), err)
		}
		out = append(out, cm.Data)
	}
}
