package rulehealth

import (
	"fmt"
	"path"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/rules"
)

// ConditionType is the type of the binding condition this package's health becomes.
const ConditionType monitoringv1.ConditionType = "RulesHealthy"

// Reasons of the RulesHealthy condition.
const (
	// ReasonRulesEvaluating: every rule evaluated without error (True).
	ReasonRulesEvaluating = "RulesEvaluating"
	// ReasonSlowEvaluation: every rule evaluated without error, but a group's last
	// evaluation took longer than its interval, so evaluations are skipped (True).
	ReasonSlowEvaluation = "SlowEvaluation"
	// ReasonRuleErrors: at least one rule failed its last evaluation (False).
	ReasonRuleErrors = "RuleErrors"
	// ReasonNotEvaluatedYet: no rule failed but some were not evaluated yet (Unknown).
	ReasonNotEvaluatedYet = "NotEvaluatedYet"
	// ReasonNotLoaded: the rules API shows no group of the object's rule file (Unknown).
	ReasonNotLoaded = "NotLoaded"
	// ReasonPrometheusUnreachable: the operator could not ask the rules API (Unknown).
	ReasonPrometheusUnreachable = "PrometheusUnreachable"
)

// uidLen is the length of a Kubernetes UID ("01234567-89ab-cdef-0123-456789abcdef").
const uidLen = 36

// FilePrefix is the part of the rule file name Lookout generates for the PrometheusRule
// namespace/name that does not depend on its UID ("<namespace>-<name>", cut short as
// pkg/rules cuts it).
func FilePrefix(namespace, name string) string {
	r := &monitoringv1.PrometheusRule{}
	r.Namespace, r.Name, r.UID = namespace, name, types.UID(strings.Repeat("0", uidLen))
	f := rules.FileName(r)
	return f[:len(f)-len(rules.FileExtension)-uidLen-1]
}

// prefixOfFile returns the "<namespace>-<name>" part of a rule file path the rules API
// shows ("/etc/prometheus/rules/prometheus-k8s-rulefiles-0/<ns>-<name>-<uid>.yaml"),
// false for a file Lookout did not name.
func prefixOfFile(file string) (string, bool) {
	base, ok := strings.CutSuffix(path.Base(file), rules.FileExtension)
	if !ok || len(base) < uidLen+2 || base[len(base)-uidLen-1] != '-' {
		return "", false
	}
	uid := base[len(base)-uidLen:]
	for i := 0; i < len(uid); i++ {
		c := uid[i]
		isDash := i == 8 || i == 13 || i == 18 || i == 23
		if isDash != (c == '-') || (!isDash && !isHex(c)) {
			return "", false
		}
	}
	return base[:len(base)-uidLen-1], true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// failure is one rule that failed its last evaluation.
type failure struct {
	Rule, Group, Class string
}

// less orders failures by group, rule and class, so the one shown does not depend on
// the order of the answer.
func (f failure) less(g failure) bool {
	if f.Group != g.Group {
		return f.Group < g.Group
	}
	if f.Rule != g.Rule {
		return f.Rule < g.Rule
	}
	return f.Class < g.Class
}

// counts are the rules of one object in one shard.
type counts struct {
	Total, OK, Failing, Firing int
	First                      *failure // the first failing rule (see failure.less)
	Slow                       string   // the first group (by name) slower than its interval
	SlowInterval               float64
}

func (c *counts) addGroup(g Group) {
	for _, r := range g.Rules {
		c.Total++
		c.Firing += r.Firing()
		switch r.Health {
		case "ok":
			c.OK++
		case "err":
			c.Failing++
			class := Classify(r.LastError)
			if class == "" {
				class = "evaluation failed"
			}
			f := failure{Rule: r.Name, Group: g.Name, Class: class}
			if c.First == nil || f.less(*c.First) {
				c.First = &f
			}
		}
	}
	if g.Interval > 0 && g.EvaluationTime > g.Interval && (c.Slow == "" || g.Name < c.Slow) {
		c.Slow, c.SlowInterval = g.Name, g.Interval
	}
}

// Snapshot is what one poll of every shard of one Prometheus (or of one Thanos Ruler)
// found.
type Snapshot struct {
	// shards[i] are the counts of shard i by rule file prefix.
	shards []map[string]*counts
	// Unreachable, when set, says why the rules API could not be asked; the counts are
	// then not used.
	Unreachable string
}

// NewSnapshot returns an empty snapshot.
func NewSnapshot() *Snapshot { return &Snapshot{} }

// Shard starts the answer of the next shard: the groups added after it are that shard's.
func (s *Snapshot) Shard() { s.shards = append(s.shards, map[string]*counts{}) }

// AddGroup counts one group of the current shard; groups of files Lookout did not name
// are ignored.
func (s *Snapshot) AddGroup(g Group) {
	if len(s.shards) == 0 {
		s.Shard()
	}
	prefix, ok := prefixOfFile(g.File)
	if !ok {
		return
	}
	cur := s.shards[len(s.shards)-1]
	c := cur[prefix]
	if c == nil {
		c = &counts{}
		cur[prefix] = c
	}
	c.addGroup(g)
}

// State is the kind of health a PrometheusRule is in.
type State int

const (
	StateEvaluating State = iota
	StateFailing
	StateNotEvaluatedYet
	StateNotLoaded
	StateUnreachable
)

// Health is the health of one PrometheusRule in one Prometheus or Thanos Ruler. It is
// comparable: two equal values give the same condition, so comparing them decides
// whether to write. Evaluation times are not in it (only whether a group is slower than
// its interval), so a poll that sees other timings writes nothing.
type Health struct {
	State     State
	OK, Total int
	Firing    int
	// Rule, Group and Class name one failing rule, or Class says why the rules API is
	// unreachable.
	Rule, Group, Class string
	// SlowGroup is a group whose last evaluation took longer than SlowInterval seconds,
	// its interval.
	SlowGroup    string
	SlowInterval float64
}

// Health returns the health of the PrometheusRule namespace/name. The shards evaluate
// the same rules on different series: a rule counts once, as failing when it fails in
// any shard (the totals are the largest of any shard); firing alerts are summed.
func (s *Snapshot) Health(namespace, name string) Health {
	if s.Unreachable != "" {
		return Health{State: StateUnreachable, Class: s.Unreachable}
	}
	prefix := FilePrefix(namespace, name)
	var h Health
	loaded := false
	failing, unknown := 0, 0
	var first *failure
	for _, shard := range s.shards {
		c := shard[prefix]
		if c == nil {
			continue
		}
		loaded = true
		h.Total = max(h.Total, c.Total)
		failing = max(failing, c.Failing)
		unknown = max(unknown, c.Total-c.OK-c.Failing)
		h.Firing += c.Firing
		if c.First != nil && (first == nil || c.First.less(*first)) {
			first = c.First
		}
		if c.Slow != "" && (h.SlowGroup == "" || c.Slow < h.SlowGroup) {
			h.SlowGroup, h.SlowInterval = c.Slow, c.SlowInterval
		}
	}
	if !loaded {
		return Health{State: StateNotLoaded}
	}
	h.OK = max(0, h.Total-failing-unknown)
	switch {
	case first != nil:
		h.State, h.Rule, h.Group, h.Class = StateFailing, first.Rule, first.Group, first.Class
	case unknown > 0:
		h.State = StateNotEvaluatedYet
	default:
		h.State = StateEvaluating
	}
	return h
}

// ConditionType is the type of the condition h becomes: RulesHealthy.
func (Health) ConditionType() monitoringv1.ConditionType { return ConditionType }

// Condition returns the status, reason and message of the RulesHealthy condition.
// Messages start with "<ok>/<total>" when the counts are known, followed by the firing
// alerts ("12/12 rules evaluating, 3 firing"), which is what the Rules column of kubectl
// get shows.
func (h Health) Condition() (status monitoringv1.ConditionStatus, reason, message string) {
	firing := ""
	if h.Firing > 0 {
		firing = fmt.Sprintf(", %d firing", h.Firing)
	}
	slow := ""
	if h.SlowGroup != "" {
		slow = fmt.Sprintf("; warning: group %s takes longer to evaluate than its %s interval (evaluations are skipped)", h.SlowGroup, seconds(h.SlowInterval))
	}
	switch h.State {
	case StateEvaluating:
		reason := ReasonRulesEvaluating
		if h.SlowGroup != "" {
			reason = ReasonSlowEvaluation
		}
		return monitoringv1.ConditionTrue, reason, fmt.Sprintf("%d/%d rules evaluating%s%s", h.OK, h.Total, firing, slow)
	case StateFailing:
		return monitoringv1.ConditionFalse, ReasonRuleErrors, fmt.Sprintf("%d/%d%s: rule %s (group %s): %s%s", h.OK, h.Total, firing, h.Rule, h.Group, h.Class, slow)
	case StateNotEvaluatedYet:
		return monitoringv1.ConditionUnknown, ReasonNotEvaluatedYet, fmt.Sprintf("%d/%d rules evaluating%s: %d not evaluated yet%s", h.OK, h.Total, firing, h.Total-h.OK, slow)
	case StateNotLoaded:
		return monitoringv1.ConditionUnknown, ReasonNotLoaded, "no rule group of this object is loaded yet (the rule file is not in the running configuration, or the object has no groups)"
	}
	return monitoringv1.ConditionUnknown, ReasonPrometheusUnreachable, "the rules API could not be asked: " + h.Class
}

// seconds formats an interval in seconds as Prometheus writes durations ("30s", "1m").
func seconds(s float64) string {
	ms := int64(s*1000 + 0.5)
	switch {
	case ms%60000 == 0:
		return fmt.Sprintf("%dm", ms/60000)
	case ms%1000 == 0:
		return fmt.Sprintf("%ds", ms/1000)
	}
	return fmt.Sprintf("%dms", ms)
}
