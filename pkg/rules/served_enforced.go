package rules

import (
	"fmt"

	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"
)

// servedFile is the part of a rendered rule file the enforcement check reads.
type servedFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Expr   string            `yaml:"expr"`
			Labels map[string]string `yaml:"labels"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// SatisfiesEnforcement reports whether a rule file rendered earlier (see FindServed)
// already carries the namespace enforcement label=namespace: every rule has the label
// and every selector of every expression matches exactly label="namespace", so enforcing
// again would change nothing. A file rendered before enforcement was turned on, or for
// another label, does not, and must not be served as the last-known-good version. An
// empty label is always satisfied.
func SatisfiesEnforcement(content []byte, label, namespace string) (bool, error) {
	if label == "" {
		return true, nil
	}
	var f servedFile
	if err := yaml.Unmarshal(content, &f); err != nil {
		return false, fmt.Errorf("reading the served rule file: %w", err)
	}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Labels[label] != namespace {
				return false, nil
			}
			root, err := permissiveParser.ParseExpr(r.Expr)
			if err != nil {
				return false, fmt.Errorf("parsing a served expression of group %q: %w", g.Name, err)
			}
			ok := true
			parser.Inspect(root, func(node parser.Node, _ []parser.Node) error {
				vs, isSel := node.(*parser.VectorSelector)
				if !isSel {
					return nil
				}
				n := 0
				for _, m := range vs.LabelMatchers {
					if m.Name == label {
						n++
						if m.Type.String() != "=" || m.Value != namespace {
							ok = false
						}
					}
				}
				if n != 1 {
					ok = false
				}
				return nil
			})
			if !ok {
				return false, nil
			}
		}
	}
	return true, nil
}
