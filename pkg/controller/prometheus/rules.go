package prometheus

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

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// ruleResult is the packed rule files of one Prometheus.
type ruleResult struct {
	configMaps []map[string]string
	verdicts   []selection.Verdict
}

// ruleEntry caches one PrometheusRule's validation and rendering.
type ruleEntry struct {
	uid        types.UID
	generation int64
	key        string
	file       []byte
	problem    string
}

// ruleState is the rule-related part of promState.
type ruleState struct {
	validatorKey string
	validator    *rules.Validator
	entries      map[types.UID]*ruleEntry
	// live is the data of the rule ConfigMaps as last written (read from the API server
	// once after a start), in order; it feeds stable packing and last-known-good.
	live       []map[string]string
	liveLoaded bool
}

// reconcileRules selects, validates, enforces, renders and packs the PrometheusRules of p.
// A rule whose new version is invalid keeps being served in its last accepted version,
// read back from the live rule ConfigMaps.
func (r *Reconciler) reconcileRules(ctx context.Context, p *monitoringv1.Prometheus, st *promState, sel *selectors, nsLabels selection.NamespaceLabels) (*ruleResult, error) {
	rs := &st.rules
	opts := rules.OptionsFor(p)
	vkey := fmt.Sprintf("%+v", opts)
	if rs.validator == nil || rs.validatorKey != vkey {
		v, err := rules.NewValidator(opts)
		if err != nil {
			return nil, invalid(fmt.Errorf("spec.version: %w", err))
		}
		rs.validator, rs.validatorKey, rs.entries = v, vkey, map[types.UID]*ruleEntry{}
	}
	if !rs.liveLoaded {
		live, err := r.readRuleConfigMaps(ctx, p)
		if err != nil {
			return nil, applyFailed(err)
		}
		rs.live, rs.liveLoaded = live, true
	}

	var list monitoringv1.PrometheusRuleList
	if err := r.Client.List(ctx, &list, client.UnsafeDisableDeepCopy); err != nil {
		return nil, applyFailed(fmt.Errorf("listing PrometheusRules: %w", err))
	}
	selected, verdicts := selection.Select(sel.rules, pointers(list.Items), r.cfg.Scope, nsLabels)

	files := map[string][]byte{}
	byKey := map[string]*monitoringv1.PrometheusRule{}
	problems := map[string]string{}
	seen := map[types.UID]bool{}
	for _, rule := range selected {
		seen[rule.UID] = true
		e := rs.entries[rule.UID]
		label := rules.EnforcedLabel(p, rule)
		if e == nil || e.generation != rule.Generation || rule.Generation == 0 || e.key != label {
			e = renderRule(rs.validator, rule, label)
			rs.entries[rule.UID] = e
		}
		key := rules.FileName(rule)
		byKey[key] = rule
		if e.problem == "" {
			files[key] = e.file
			continue
		}
		problems[nsName(rule)] = r.lastKnownGood(ctx, rs, rule, label, e.problem, files, key)
	}
	for uid := range rs.entries {
		if !seen[uid] {
			delete(rs.entries, uid)
		}
	}

	packed, tooLarge := rules.PackStable(files, rules.MaxConfigMapDataBytes, rs.live)
	for _, key := range tooLarge {
		rule := byKey[key]
		problems[nsName(rule)] = rules.TooLargeProblem(len(key)+len(files[key]), rules.MaxConfigMapDataBytes).Error()
	}
	for i := range verdicts {
		v := &verdicts[i]
		if msg, bad := problems[v.Namespace+"/"+v.Name]; bad && v.Used() {
			v.Reason, v.Message = selection.InvalidConfiguration, msg
		}
	}
	return &ruleResult{configMaps: packed, verdicts: verdicts}, nil
}

func nsName(o metav1.Object) string { return o.GetNamespace() + "/" + o.GetName() }

// renderRule validates a rule and renders its file (with the namespace label enforced
// when label is set).
func renderRule(v *rules.Validator, rule *monitoringv1.PrometheusRule, label string) *ruleEntry {
	e := &ruleEntry{uid: rule.UID, generation: rule.Generation, key: label}
	e.file, e.problem = rules.Prepare(v, rule, label)
	return e
}

// lastKnownGood puts the last accepted version of an invalid rule into files, when the
// live rule ConfigMaps hold one that satisfies the current namespace enforcement, and
// returns the rejection message saying what is served. A version rendered before
// enforcement was turned on is never served: the tenant would escape enforcement for as
// long as the new version stays invalid.
func (r *Reconciler) lastKnownGood(ctx context.Context, rs *ruleState, rule *monitoringv1.PrometheusRule, label, problem string, files map[string][]byte, key string) string {
	served, h, ok := rules.FindServed(rs.live, rule)
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
	files[key] = served
	return fmt.Sprintf("%s; still serving generation %d, the last accepted version", problem, h.Generation)
}

// readRuleConfigMaps reads the data of p's live rule ConfigMaps, in index order.
func (r *Reconciler) readRuleConfigMaps(ctx context.Context, p *monitoringv1.Prometheus) ([]map[string]string, error) {
	var out []map[string]string
	for i := 0; ; i++ {
		cm := &corev1.ConfigMap{}
		err := r.APIReader.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: layout.RuleConfigMapName(p.Name, i)}, cm)
		if apierrors.IsNotFound(err) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading rule ConfigMap %s: %w", cm.Name, err)
		}
		out = append(out, cm.Data)
	}
}

// applyRuleConfigMaps writes the packed rule ConfigMaps (the caller deletes surplus ones
// after the StatefulSets are updated, so Prometheus never misses rules).
func (r *Reconciler) applyRuleConfigMaps(ctx context.Context, p *monitoringv1.Prometheus, st *promState, res *ruleResult) error {
	for i, data := range res.configMaps {
		bin := make(map[string][]byte, len(data))
		for k, v := range data {
			bin[k] = []byte(v)
		}
		cm := &corev1.ConfigMap{ObjectMeta: r.objectMeta(p, layout.RuleConfigMapName(p.Name, i), dataHash(bin)), Data: data}
		if err := r.ensure(ctx, configMapGVK, cm); err != nil {
			return err
		}
	}
	st.rules.live = res.configMaps
	r.Metrics.ruleConfigMaps.WithLabelValues(p.Namespace, p.Name).Set(float64(len(res.configMaps)))
	return nil
}
