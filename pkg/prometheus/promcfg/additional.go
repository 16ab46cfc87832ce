package promcfg

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// parseYAMLList parses user-supplied YAML (additionalScrapeConfigs and friends): a list of
// mappings. The result keeps the user's key order and scalar types.
func parseYAMLList(data []byte, what string) ([]any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: invalid YAML: %w", what, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	if root.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: want a YAML list, got %s", what, kindName(root))
	}
	v, err := fromNode(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	list, _ := v.([]any)
	for i, item := range list {
		if _, ok := item.(M); !ok {
			return nil, fmt.Errorf("%s: item %d is not a mapping", what, i)
		}
	}
	return list, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return "a scalar"
	case yaml.AliasNode:
		return "an alias"
	}
	return "something else"
}

// fromNode converts a yaml.v3 node into the emitter's model.
func fromNode(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return fromNode(n.Alias)
	case yaml.MappingNode:
		return fromMapping(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := fromNode(c)
			if err != nil {
				return nil, err
			}
			if inner, ok := v.([]any); ok {
				// A list inside a list: emit it in flow style (JSON is valid YAML).
				b, err := json.Marshal(toPlain(inner))
				if err != nil {
					return nil, err
				}
				v = rawScalar(b)
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!str", "":
			return n.Value, nil
		case "!!int", "!!float", "!!bool":
			return rawScalar(n.Value), nil
		case "!!null":
			return rawScalar("null"), nil
		default:
			return nil, fmt.Errorf("line %d: unsupported YAML tag %s", n.Line, n.Tag)
		}
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

// toPlain converts the model back to plain Go values for JSON encoding.
func toPlain(v any) any {
	switch t := v.(type) {
	case M:
		out := map[string]any{}
		for _, kv := range t {
			out[kv.K] = toPlain(kv.V)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i := range t {
			out[i] = toPlain(t[i])
		}
		return out
	case rawScalar:
		var x any
		if err := yaml.Unmarshal([]byte(t), &x); err == nil {
			return x
		}
		return string(t)
	}
	return v
}

// appendRelabelings adds rules to the relabel_configs of a user-supplied job.
func appendRelabelings(job M, rules []M) M {
	if len(rules) == 0 {
		return job
	}
	out := make(M, 0, len(job)+1)
	found := false
	for _, kv := range job {
		if kv.K == "relabel_configs" {
			found = true
			list, _ := kv.V.([]any)
			list = append([]any(nil), list...)
			for _, r := range rules {
				list = append(list, r)
			}
			kv.V = list
		}
		out = append(out, kv)
	}
	if !found {
		list := make([]any, 0, len(rules))
		for _, r := range rules {
			list = append(list, r)
		}
		out = append(out, KV{"relabel_configs", list})
	}
	return out
}

// additionalHashmod reports whether a job of additionalScrapeConfigs has a relabeling with
// action hashmod (spelled exactly so, as prometheus-operator checks): it shards itself and
// gets no hashmod rules of the operator's.
func additionalHashmod(job M) bool {
	v, _ := job.Get("relabel_configs")
	list, _ := v.([]any)
	for _, r := range list {
		if m, ok := r.(M); ok {
			if a, ok := m.Get("action"); ok && a == "hashmod" {
				return true
			}
		}
	}
	return false
}

// fromMapping converts a mapping node, with YAML merge keys ("<<: *base" or
// "<<: [*a, *b]") resolved as YAML 1.1 defines them and prometheus-operator accepts them:
// the merged mappings' keys come in where "<<" stands, a key of the mapping itself wins
// over a merged one, and of several merged mappings the first that has a key gives it.
func fromMapping(n *yaml.Node) (M, error) {
	explicit := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Tag != "!!merge" {
			explicit[k.Value] = true
		}
	}
	m := make(M, 0, len(n.Content)/2)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: mapping keys must be scalars", k.Line)
		}
		if strings.ContainsRune(k.Value, 0) {
			return nil, fmt.Errorf("line %d: mapping keys must not contain NUL", k.Line)
		}
		if k.Tag == "!!merge" {
			merged, err := mergedMappings(n.Content[i+1])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", k.Line, err)
			}
			for _, mm := range merged {
				from, err := fromMapping(mm)
				if err != nil {
					return nil, err
				}
				for _, kv := range from {
					if !explicit[kv.K] && !seen[kv.K] {
						seen[kv.K] = true
						m = append(m, kv)
					}
				}
			}
			continue
		}
		v, err := fromNode(n.Content[i+1])
		if err != nil {
			return nil, err
		}
		seen[k.Value] = true
		m = append(m, KV{k.Value, v})
	}
	return m, nil
}

// mergedMappings are the mappings a merge key's value names: one mapping (or an alias of
// one), or a sequence of them.
func mergedMappings(v *yaml.Node) ([]*yaml.Node, error) {
	deref := func(n *yaml.Node) *yaml.Node {
		for n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		return n
	}
	v = deref(v)
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}, nil
	case yaml.SequenceNode:
		out := make([]*yaml.Node, 0, len(v.Content))
		for _, c := range v.Content {
			if c = deref(c); c.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("a YAML merge key takes mappings, got %s", kindName(c))
			}
			out = append(out, c)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a YAML merge key takes a mapping or a list of mappings, got %s", kindName(v))
}
