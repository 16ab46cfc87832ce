package ruletest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"

	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// ruleFile is one rule file the rules manager loads: a plain Prometheus rule file (read
// from path id) or a PrometheusRule rendered as the operator renders it (content).
type ruleFile struct {
	// id names the file in the rules manager and in messages: the path of a plain
	// file, "path (PrometheusRule namespace/name)" for a PrometheusRule.
	id      string
	content []byte
}

// resolveRuleFiles turns the rule_files of a test file in dir into the files to load:
// relative paths are taken from dir and globs expanded, as in promtool; a file holding
// Kubernetes manifests gives one rule file per PrometheusRule in it, prepared by
// prepareRule. An entry matching no file may name a PrometheusRule given with -f
// ("namespace/name", or "name" in the default namespace). An entry matching nothing is
// a warning, as in promtool.
func (r *runner) resolveRuleFiles(dir string, entries []string) (files []ruleFile, warnings []string, err error) {
	for _, entry := range entries {
		pattern := entry
		if pattern != "" && !filepath.IsAbs(pattern) {
			pattern = filepath.Join(dir, pattern)
		}
		matches, err := filepath.Glob(pattern)
		if err != nil {
			return nil, warnings, fmt.Errorf("rule_files: %q: %w", entry, err)
		}
		if len(matches) == 0 {
			if obj := r.namedRule(entry); obj != nil {
				f, err := r.prepareRule(obj, "-f")
				if err != nil {
					return nil, warnings, err
				}
				files = append(files, f)
				continue
			}
			warnings = append(warnings, fmt.Sprintf("no file match pattern %s", pattern))
			continue
		}
		for _, m := range matches {
			fs, err := r.loadRuleFile(m)
			if err != nil {
				return nil, warnings, err
			}
			if len(fs) == 0 {
				warnings = append(warnings, fmt.Sprintf("%s: no PrometheusRule in the manifests", m))
			}
			files = append(files, fs...)
		}
	}
	return files, warnings, nil
}

// namedRule returns the PrometheusRule given with -f that entry names, or nil.
func (r *runner) namedRule(entry string) *monitoringv1.PrometheusRule {
	ns, name, ok := strings.Cut(entry, "/")
	if !ok {
		ns, name = r.opts.namespace(), entry
	}
	for _, obj := range r.opts.Rules {
		if obj.Namespace == ns && obj.Name == name {
			return obj
		}
	}
	return nil
}

// loadRuleFile reads the rule file path: a plain rule file is loaded as it is; a file of
// manifests gives its PrometheusRules, each prepared as the operator prepares it. Other
// kinds of objects in it are ignored.
func (r *runner) loadRuleFile(path string) ([]ruleFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !isManifest(b) {
		return []ruleFile{{id: path}}, nil
	}
	objs, err := render.Load(r.opts.namespace(), path)
	if err != nil {
		return nil, err
	}
	var out []ruleFile
	for _, obj := range objs.PrometheusRules {
		f, err := r.prepareRule(obj, path)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// isManifest reports whether a YAML file holds Kubernetes objects (a document with
// apiVersion or kind) rather than a Prometheus rule file.
func isManifest(b []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			// Not a map: let the loader that fits best report it. A rule file is a
			// map too, so this is most likely a broken manifest.
			return bytes.Contains(b, []byte("\nkind:")) || bytes.HasPrefix(b, []byte("kind:")) || bytes.Contains(b, []byte("apiVersion:"))
		}
		if _, ok := doc["apiVersion"]; ok {
			return true
		}
		if _, ok := doc["kind"]; ok {
			return true
		}
	}
}

// prepareRule validates obj for the Prometheus the rules are tested for, applies its
// namespace-label enforcement and renders its rule file: what the operator would put in
// the rule ConfigMap (rules.Prepare). A rule the operator would reject is an error.
func (r *runner) prepareRule(obj *monitoringv1.PrometheusRule, source string) (ruleFile, error) {
	id := fmt.Sprintf("%s (PrometheusRule %s/%s)", source, obj.Namespace, obj.Name)
	label := ""
	if p := r.opts.Prometheus; p != nil {
		label = rules.EnforcementOf(p).LabelFor(obj)
	}
	content, problem := rules.Prepare(r.validator, obj, label)
	if problem != "" {
		return ruleFile{}, fmt.Errorf("%s: rejected as the operator would reject it: %s", id, problem)
	}
	if r.ruleSelector != nil {
		if _, vs := selection.Select(r.ruleSelector, []*monitoringv1.PrometheusRule{obj}, nil, r.namespaceLabels); len(vs) == 1 && !vs[0].Used() {
			p := r.opts.Prometheus
			r.pendingWarnings = append(r.pendingWarnings, fmt.Sprintf("%s: not selected by %s %s/%s (%s: %s); tested anyway", id, p.Kind(), p.Namespace, p.Name, vs[0].Reason, vs[0].Message))
		}
	}
	return ruleFile{id: id, content: content}, nil
}

// namespaceLabels are the labels of namespace ns (Options.NamespaceLabels): the namespace
// of a rule exists, without labels when no Namespace manifest describes it.
func (r *runner) namespaceLabels(ns string) (map[string]string, bool) {
	if r.opts.NamespaceLabels != nil {
		if l, ok := r.opts.NamespaceLabels(ns); ok {
			return l, true
		}
	}
	return map[string]string{}, true
}

// groupLoader serves the rendered PrometheusRules from memory and plain rule files from
// disk to the rules manager.
type groupLoader struct {
	parser parser.Parser
	files  map[string][]byte
	logger *slog.Logger
}

func (l groupLoader) Load(id string, ignoreUnknownFields bool, scheme model.ValidationScheme) (*rulefmt.RuleGroups, []error) {
	content, ok := l.files[id]
	if !ok {
		return rulefmt.ParseFile(id, ignoreUnknownFields, scheme, l.parser, l.logger)
	}
	rgs, errs := rulefmt.Parse(content, ignoreUnknownFields, scheme, l.parser, l.logger)
	for i := range errs {
		errs[i] = fmt.Errorf("%s: %w", id, errs[i])
	}
	return rgs, errs
}

func (l groupLoader) Parse(query string) (parser.Expr, error) { return l.parser.ParseExpr(query) }

func newGroupLoader(p parser.Parser, files []ruleFile) groupLoader {
	l := groupLoader{parser: p, files: map[string][]byte{}, logger: promslog.NewNopLogger()}
	for _, f := range files {
		if f.content != nil {
			l.files[f.id] = f.content
		}
	}
	return l
}
