package confdiff

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Keyed lists: the top-level lists whose order means nothing, with the field that names
// each element, by file kind.
var keyedSections = map[FileKind]map[string]string{
	PrometheusConfig:   {"scrape_configs": "job_name"},
	RuleFile:           {"groups": "name"},
	AlertmanagerConfig: {"receivers": "name", "time_intervals": "name", "mute_time_intervals": "name"},
}

// firstKeys are written before the other keys of a mapping, in this order, so that an
// element starts with what names it; the other keys follow in sorted order.
var firstKeys = map[string]int{"job_name": 1, "name": 2, "alert": 3, "record": 4, "expr": 5}

// Owner is what a line of a canonical file belongs to: a top-level key (Section) and,
// in a keyed list, the element's name (Key).
type Owner struct {
	Section, Key string
}

// canonical is a file put in canonical form: its lines, the owner of each, and the
// canonical text of each element of its keyed lists (to count added, removed and
// changed elements).
type canonical struct {
	lines  []string
	owners []Owner
	items  map[Owner]string
}

// canonicalize parses data as YAML and writes it back in canonical form: mapping keys
// sorted (firstKeys first), keyed lists sorted by key, scalar styles and comments
// dropped, two-space indentation. Empty data is an empty file.
func canonicalize(kind FileKind, data []byte) (*canonical, error) {
	c := &canonical{items: map[Owner]string{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	root := doc.Content[0]
	normalize(root)
	if root.Kind != yaml.MappingNode {
		return c, c.add(Owner{}, root, "")
	}
	keyed := keyedSections[kind]
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		field := keyed[key.Value]
		if field == "" || val.Kind != yaml.SequenceNode || len(val.Content) == 0 {
			m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, val}}
			if err := c.add(Owner{Section: key.Value}, m, ""); err != nil {
				return nil, err
			}
			continue
		}
		sortKeyed(val, field)
		c.lines, c.owners = append(c.lines, key.Value+":"), append(c.owners, Owner{Section: key.Value})
		seen := map[string]int{}
		for _, el := range val.Content {
			name := keyOf(el, field)
			if seen[name]++; seen[name] > 1 {
				name = fmt.Sprintf("%s#%d", name, seen[name])
			}
			seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{el}}
			o := Owner{Section: key.Value, Key: name}
			if err := c.add(o, seq, "  "); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// add appends n written out, each line indented, owned by o.
func (c *canonical) add(o Owner, n *yaml.Node, indent string) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	text := strings.TrimSuffix(buf.String(), "\n")
	if o.Key != "" {
		c.items[o] = text
	}
	for _, l := range strings.Split(text, "\n") {
		c.lines, c.owners = append(c.lines, indent+l), append(c.owners, o)
	}
	return nil
}

// normalize drops comments and styles, resolves aliases, and sorts mapping keys, all the
// way down.
func normalize(n *yaml.Node) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		*n = *n.Alias
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	n.Style = 0
	if n.Kind == yaml.ScalarNode {
		n.Tag = n.ShortTag()
	}
	for _, c := range n.Content {
		normalize(c)
	}
	if n.Kind == yaml.MappingNode {
		type pair struct{ k, v *yaml.Node }
		pairs := make([]pair, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			pairs = append(pairs, pair{n.Content[i], n.Content[i+1]})
		}
		sort.SliceStable(pairs, func(i, j int) bool { return keyLess(pairs[i].k.Value, pairs[j].k.Value) })
		for i, p := range pairs {
			n.Content[2*i], n.Content[2*i+1] = p.k, p.v
		}
	}
}

// keyLess orders mapping keys: firstKeys, then the others sorted.
func keyLess(a, b string) bool {
	ra, rb := firstKeys[a], firstKeys[b]
	switch {
	case ra != 0 && rb != 0:
		return ra < rb
	case ra != 0 || rb != 0:
		return ra != 0
	}
	return a < b
}

// sortKeyed sorts the elements of a keyed list by their key field.
func sortKeyed(seq *yaml.Node, field string) {
	sort.SliceStable(seq.Content, func(i, j int) bool { return keyOf(seq.Content[i], field) < keyOf(seq.Content[j], field) })
}

// keyOf is the value of field in the mapping el ("" when it has none).
func keyOf(el *yaml.Node, field string) string {
	if el.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(el.Content); i += 2 {
		if el.Content[i].Value == field {
			return el.Content[i+1].Value
		}
	}
	return ""
}
