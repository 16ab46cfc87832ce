package rulehealth

import (
	"encoding/json"
	"fmt"
	"io"
)

// Group is what is kept of one rule group of /api/v1/rules.
type Group struct {
	Name string `json:"name"`
	// File is the path of the rule file the group comes from.
	File string `json:"file"`
	// Interval and EvaluationTime are in seconds: the group's evaluation interval and how
	// long its last evaluation took.
	Interval       float64 `json:"interval"`
	EvaluationTime float64 `json:"evaluationTime"`
	Rules          []Rule  `json:"rules"`
}

// Rule is what is kept of one rule of a group.
type Rule struct {
	Name string `json:"name"`
	// Health is "ok", "err" or "unknown" (not evaluated yet).
	Health    string `json:"health"`
	LastError string `json:"lastError"`
	// Alerts are the active alerts of an alerting rule; only their state is kept.
	Alerts []Alert `json:"alerts"`
}

// Alert is the state of one active alert: "pending" or "firing".
type Alert struct {
	State string `json:"state"`
}

// Firing is the number of firing alerts of the rule.
func (r Rule) Firing() int {
	n := 0
	for _, a := range r.Alerts {
		if a.State == "firing" {
			n++
		}
	}
	return n
}

// ParseRules reads an answer of /api/v1/rules and calls fn for every rule group, one at
// a time: the answer, megabytes with thousands of rules, their queries, labels,
// annotations and active alerts, is never held whole. Of a group only its name, file,
// interval, evaluation time and rules (name, health, last error, alert states) are kept.
// A Prometheus error answer ("status":"error") is an error.
func ParseRules(r io.Reader, fn func(Group)) error {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	var status, apiErr string
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		switch key {
		case "status":
			err = decode(dec, &status, "status")
		case "error":
			err = decode(dec, &apiErr, "error")
		case "data":
			err = parseData(dec, fn)
		default:
			err = skip(dec)
		}
		if err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return fmt.Errorf("decoding the rules answer: %w", err)
	}
	if status != "success" {
		return fmt.Errorf("the rules API answered %q: %s", status, apiErr)
	}
	return nil
}

// parseData walks the "data" object and decodes its groups one by one.
func parseData(dec *json.Decoder, fn func(Group)) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("decoding the rules answer: data: %w", err)
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("decoding the rules answer: data: want an object, got %v", tok)
	}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return err
		}
		if key != "groups" {
			if err := skip(dec); err != nil {
				return err
			}
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("decoding the rules answer: groups: %w", err)
		}
		if tok == nil { // null
			continue
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			return fmt.Errorf("decoding the rules answer: groups: want an array, got %v", tok)
		}
		for dec.More() {
			var g Group
			if err := dec.Decode(&g); err != nil {
				return fmt.Errorf("decoding a rule group: %w", err)
			}
			fn(g)
		}
		if _, err := dec.Token(); err != nil { // ]
			return fmt.Errorf("decoding the rules answer: groups: %w", err)
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return fmt.Errorf("decoding the rules answer: data: %w", err)
	}
	return nil
}

func decode(dec *json.Decoder, v any, what string) error {
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("decoding the rules answer: %s: %w", what, err)
	}
	return nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("decoding the rules answer: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("decoding the rules answer: want %q, got %v", want, tok)
	}
	return nil
}

func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", fmt.Errorf("decoding the rules answer: %w", err)
	}
	k, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("decoding the rules answer: want a key, got %v", tok)
	}
	return k, nil
}

// skip discards the next value, however deep.
func skip(dec *json.Decoder) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("decoding the rules answer: %w", err)
	}
	return nil
}
