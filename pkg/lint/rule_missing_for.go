package lint

import (
	"regexp"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"
)

func init() {
	register(&Check{
		Name:     "rule-missing-for",
		Severity: Warning,
		Summary:  "an alert compares a rate or a raw gauge with a threshold and has no `for`: one noisy evaluation fires it",
		Run:      ruleMissingFor,
	})
}

func ruleMissingFor(in *Inputs) []Finding {
	var out []Finding
	eachRule(in, func(r ruleRef) {
		if !r.Alert() || (r.Rule.For != nil && !zeroDuration(string(*r.Rule.For))) {
			return
		}
		e := r.expr()
		if e == nil {
			return
		}
		if why := noisy(e); why != "" {
			out = append(out, r.finding("fires on one evaluation of %s: add `for:` (for example `for: 5m`) so a brief spike does not page", why))
		}
	})
	return out
}

func zeroDuration(s string) bool {
	d, err := parseDuration(s)
	return err == nil && d == 0
}

// rateFuncs are the functions whose result moves with every scrape.
var rateFuncs = map[string]bool{"rate": true, "irate": true, "increase": true, "delta": true, "idelta": true, "deriv": true}

// noisy says why e is noisy, or "" when it is not. Noisy is a threshold comparison
// (>, >=, <, <=) of a number with an expression that reads a rate (rate, irate,
// increase, delta, idelta, deriv) or a raw series (a selector outside any function:
// a gauge as scraped). Not noisy: an expression that already smooths over time
// (*_over_time, predict_linear, holt_winters/double_exponential_smoothing, changes,
// resets), tests presence (absent) or computes an age (time(), timestamp()); a raw
// series holding a time (timeLike: a TTL, a timestamp); "> 0", which asks whether
// anything happened at all; equality tests (up == 0), which test a state. In `a and b`
// and `a unless b` the left side is judged, in `a or b` each side.
func noisy(e parser.Expr) string {
	switch n := e.(type) {
	case *parser.ParenExpr:
		return noisy(n.Expr)
	case *parser.BinaryExpr:
		switch n.Op {
		case parser.LAND, parser.LOR, parser.LUNLESS:
			if w := noisy(n.LHS); w != "" {
				return w
			}
			if n.Op == parser.LOR {
				return noisy(n.RHS)
			}
			return ""
		case parser.GTR, parser.GTE, parser.LSS, parser.LTE:
			side := n.LHS
			if !isNumber(n.RHS) {
				if !isNumber(n.LHS) {
					return ""
				}
				side = n.RHS
			}
			if n.Op == parser.GTR && isZero(n.RHS) || n.Op == parser.LSS && isZero(n.LHS) {
				return "" // "anything at all": an event or a state, not a threshold
			}
			return moving(side)
		}
	}
	return ""
}

// isZero reports whether e is the number literal 0.
func isZero(e parser.Expr) bool {
	switch n := e.(type) {
	case *parser.NumberLiteral:
		return n.Val == 0
	case *parser.ParenExpr:
		return isZero(n.Expr)
	}
	return false
}

// timeLike are names of series holding a time, a deadline or a time to live: they move
// with the clock, not with noise.
var timeLike = regexp.MustCompile(`(_timestamp|_timestamp_seconds|_time|_time_seconds|_ttl_seconds|_expiry_seconds|_expiration_seconds|_not_after|_not_before)$`)

// isNumber reports whether e is a number literal (possibly negated or parenthesised).
func isNumber(e parser.Expr) bool {
	switch n := e.(type) {
	case *parser.NumberLiteral:
		return true
	case *parser.ParenExpr:
		return isNumber(n.Expr)
	case *parser.UnaryExpr:
		return isNumber(n.Expr)
	}
	return false
}

// moving describes what makes e move with every scrape ("rate(...) compared with a
// threshold"), or "" when e smooths over time or has no series.
func moving(e parser.Expr) string {
	var rate, raw, smooth string
	var walk func(n parser.Node, inCall bool)
	walk = func(n parser.Node, inCall bool) {
		switch x := n.(type) {
		case *parser.Call:
			name := x.Func.Name
			switch {
			case strings.HasSuffix(name, "_over_time"), strings.HasPrefix(name, "absent"), name == "predict_linear",
				name == "holt_winters", name == "double_exponential_smoothing", name == "changes", name == "resets",
				name == "time", name == "timestamp":
				smooth = name
				return
			case rateFuncs[name]:
				rate = name
			}
			for _, a := range x.Args {
				walk(a, true)
			}
			return
		case *parser.VectorSelector:
			if !inCall && raw == "" && !timeLike.MatchString(x.Name) {
				raw = x.String()
			}
			return
		case *parser.SubqueryExpr:
			walk(x.Expr, inCall)
			return
		}
		for _, c := range parser.Children(n) {
			walk(c, inCall)
		}
	}
	walk(e, false)
	switch {
	case smooth != "":
		return ""
	case rate != "":
		return "a " + rate + "() compared with a threshold"
	case raw != "":
		return "the raw series " + raw + " compared with a threshold"
	}
	return ""
}
