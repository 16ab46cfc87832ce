package amcfg

import (
	"fmt"

	yaml "go.yaml.in/yaml/v2"
	yaml3 "gopkg.in/yaml.v3"
)

// parseBase reads the user's alertmanager.yaml as the ordered document the generator
// extends, with YAML merge keys ("<<: *defaults") resolved as Alertmanager's own loader
// resolves them: yaml.v2 decoding into MapSlice leaves the merged keys out, so a route
// that inherits group_wait from an anchor silently lost it.
func parseBase(raw []byte) (yaml.MapSlice, error) {
	var doc yaml3.Node
	if err := yaml3.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	v, err := fromNode3(doc.Content[0], 0)
	if err != nil {
		return nil, err
	}
	ms, ok := v.(yaml.MapSlice)
	if !ok {
		return nil, fmt.Errorf("the configuration is not a mapping")
	}
	return ms, nil
}

// maxAliasDepth bounds alias resolution (a document of nested aliases can otherwise
// expand exponentially).
const maxAliasDepth = 64

func fromNode3(n *yaml3.Node, depth int) (any, error) {
	if depth > maxAliasDepth {
		return nil, fmt.Errorf("line %d: nested too deep", n.Line)
	}
	switch n.Kind {
	case yaml3.AliasNode:
		return fromNode3(n.Alias, depth+1)
	case yaml3.MappingNode:
		return mappingOf(n, depth)
	case yaml3.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := fromNode3(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml3.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// mappingOf converts a mapping: the keys of merged mappings come in where "<<" stands,
// a key of the mapping itself wins over a merged one, and of several merged mappings the
// first that has a key gives it.
func mappingOf(n *yaml3.Node, depth int) (yaml.MapSlice, error) {
	explicit := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Tag != "!!merge" {
			explicit[k.Value] = true
		}
	}
	out := make(yaml.MapSlice, 0, len(n.Content)/2)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag != "!!merge" {
			val, err := fromNode3(v, depth+1)
			if err != nil {
				return nil, err
			}
			seen[k.Value] = true
			out = append(out, yaml.MapItem{Key: k.Value, Value: val})
			continue
		}
		for v.Kind == yaml3.AliasNode {
			v = v.Alias
		}
		merged := []*yaml3.Node{v}
		if v.Kind == yaml3.SequenceNode {
			merged = v.Content
		}
		for _, m := range merged {
			for m.Kind == yaml3.AliasNode {
				m = m.Alias
			}
			if m.Kind != yaml3.MappingNode {
				return nil, fmt.Errorf("line %d: a YAML merge key takes a mapping or a list of mappings", k.Line)
			}
			ms, err := mappingOf(m, depth+1)
			if err != nil {
				return nil, err
			}
			for _, it := range ms {
				key, _ := it.Key.(string)
				if !explicit[key] && !seen[key] {
					seen[key] = true
					out = append(out, it)
				}
			}
		}
	}
	return out, nil
}
