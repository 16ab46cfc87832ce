package rules

import (
	"context"
	"strings"
	"sync"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/template"
)

// templateDefs are the variables Prometheus defines before an alert's label and annotation
// templates, as rulefmt does when it checks them.
const templateDefs = "{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}"

var templateData = template.AlertTemplateData(map[string]string{}, map[string]string{}, "", promql.Sample{})

// checkTemplate parses text as a label or annotation template of alert alert, exactly as
// Prometheus's rulefmt does when it loads a rule file. Parsing a template costs tens of
// microseconds, mostly in building its function table, so texts without an action are
// not parsed and valid texts are remembered in valid.
func checkTemplate(valid *templateSet, alert, text string) error {
	if !strings.Contains(text, "{{") || valid.has(text) {
		return nil
	}
	exp := template.NewTemplateExpander(context.Background(), templateDefs+text, "__alert_"+alert,
		templateData, model.Time(0), nil, nil, nil)
	if err := exp.ParseTest(); err != nil {
		return err
	}
	valid.add(text)
	return nil
}

// templateSet is a bounded set of template texts known to parse. Each Validator owns one.
type templateSet struct {
	mu    sync.RWMutex
	texts map[string]struct{}
}

// maxRememberedTemplates bounds the memory the set holds; it is emptied when full.
const maxRememberedTemplates = 20000

func newTemplateSet() *templateSet { return &templateSet{texts: map[string]struct{}{}} }

func (s *templateSet) has(text string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.texts[text]
	return ok
}

func (s *templateSet) add(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.texts) >= maxRememberedTemplates {
		clear(s.texts)
	}
	s.texts[text] = struct{}{}
}
