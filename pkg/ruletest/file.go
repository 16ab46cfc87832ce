package ruletest

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"go.yaml.in/yaml/v2"
)

// testFile is a unit test file, in the format of `promtool test rules`.
type testFile struct {
	RuleFiles          []string       `yaml:"rule_files"`
	EvaluationInterval model.Duration `yaml:"evaluation_interval,omitempty"`
	GroupEvalOrder     []string       `yaml:"group_eval_order"`
	Tests              []testGroup    `yaml:"tests"`
	FuzzyCompare       bool           `yaml:"fuzzy_compare,omitempty"`
}

// testGroup is one entry of tests: input series and the tests run on them.
type testGroup struct {
	Interval        model.Duration `yaml:"interval"`
	InputSeries     []inputSeries  `yaml:"input_series"`
	AlertRuleTests  []alertTest    `yaml:"alert_rule_test,omitempty"`
	PromqlExprTests []exprTest     `yaml:"promql_expr_test,omitempty"`
	ExternalLabels  labels.Labels  `yaml:"external_labels,omitempty"`
	ExternalURL     string         `yaml:"external_url,omitempty"`
	Name            string         `yaml:"name,omitempty"`
	StartTimestamp  startTimestamp `yaml:"start_timestamp,omitempty"`
}

type inputSeries struct {
	Series string `yaml:"series"`
	Values string `yaml:"values"`
}

type alertTest struct {
	EvalTime  model.Duration `yaml:"eval_time"`
	Alertname string         `yaml:"alertname"`
	ExpAlerts []expAlert     `yaml:"exp_alerts"`
}

type expAlert struct {
	ExpLabels      map[string]string `yaml:"exp_labels"`
	ExpAnnotations map[string]string `yaml:"exp_annotations"`
}

type exprTest struct {
	Expr       string         `yaml:"expr"`
	EvalTime   model.Duration `yaml:"eval_time"`
	ExpSamples []expSample    `yaml:"exp_samples"`
}

type expSample struct {
	Labels string  `yaml:"labels"`
	Value  float64 `yaml:"value"`
	// Histogram, when not empty, is the expected native histogram in the series
	// notation ({{schema:0 sum:5 count:4 buckets:[1 2 1]}}); Value is then ignored.
	Histogram string `yaml:"histogram"`
}

// startTimestamp is the time a test group starts at: RFC 3339 or Unix seconds.
type startTimestamp struct{ time.Time }

func (t *startTimestamp) UnmarshalYAML(unmarshal func(any) error) error {
	var s string
	if err := unmarshal(&s); err != nil {
		return err
	}
	if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
		t.Time = ts.UTC()
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("cannot parse %q as a start_timestamp: want RFC 3339 or Unix seconds", s)
	}
	sec, frac := math.Modf(f)
	t.Time = time.Unix(int64(sec), int64(math.Round(frac*1e9))).UTC()
	return nil
}

// readTestFile reads and strictly decodes a test file: an unknown field is an error, as
// in promtool.
func readTestFile(name string) (*testFile, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var tf testFile
	if err := yaml.UnmarshalStrict(b, &tf); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s: empty test file", name)
	}
	if tf.EvaluationInterval == 0 {
		tf.EvaluationInterval = model.Duration(time.Minute)
	}
	for i := range tf.Tests {
		if tf.Tests[i].Interval == 0 {
			tf.Tests[i].Interval = tf.EvaluationInterval
		}
	}
	return &tf, nil
}

// testName is the name of the i-th test group: its name, or unnamed#i as in promtool.
func (tg *testGroup) testName(i int) string {
	if tg.Name != "" {
		return tg.Name
	}
	return fmt.Sprintf("unnamed#%d", i)
}

// maxEvalTime is the latest eval_time of the group's tests.
func (tg *testGroup) maxEvalTime() time.Duration {
	var m model.Duration
	for _, a := range tg.AlertRuleTests {
		m = max(m, a.EvalTime)
	}
	for _, e := range tg.PromqlExprTests {
		m = max(m, e.EvalTime)
	}
	return time.Duration(m)
}
