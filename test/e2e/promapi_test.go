//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// A small client of the Prometheus HTTP API (/api/v1) and Alertmanager's (/api/v2).

// promAPI reaches one Prometheus at base (http://<pod ip>:9090).
type promAPI struct {
	base   string
	client *http.Client // nil: httpc
}

// get decodes the data of a Prometheus API answer.
func (a promAPI) get(path string, query url.Values, data any) error {
	u := a.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var body struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := getJSONWith(a.client, u, &body); err != nil {
		return err
	}
	if body.Status != "success" {
		return fmt.Errorf("GET %s: status %q: %s", u, body.Status, body.Error)
	}
	return json.Unmarshal(body.Data, data)
}

func getJSON(u string, into any) error { return getJSONWith(nil, u, into) }

func getJSONWith(c *http.Client, u string, into any) error {
	if c == nil {
		c = httpc
	}
	resp, err := c.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("GET %s: %s: %s", u, resp.Status, strings.TrimSpace(string(b)))
	}
	if err := json.Unmarshal(b, into); err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	return nil
}

type target struct {
	Labels     map[string]string `json:"labels"`
	ScrapePool string            `json:"scrapePool"`
	ScrapeURL  string            `json:"scrapeUrl"`
	Health     string            `json:"health"`
	LastError  string            `json:"lastError"`
}

// activeTargets lists the active targets, of one scrape pool when pool is not empty.
func (a promAPI) activeTargets(pool string) ([]target, error) {
	q := url.Values{"state": {"active"}}
	if pool != "" {
		q.Set("scrapePool", pool)
	}
	var data struct {
		Active []target `json:"activeTargets"`
	}
	if err := a.get("/api/v1/targets", q, &data); err != nil {
		return nil, err
	}
	return data.Active, nil
}

type rule struct {
	Name      string            `json:"name"`
	Query     string            `json:"query"`
	Health    string            `json:"health"`
	LastError string            `json:"lastError"`
	Type      string            `json:"type"`
	State     string            `json:"state"`
	Labels    map[string]string `json:"labels"`
}

type ruleGroup struct {
	Name  string `json:"name"`
	File  string `json:"file"`
	Rules []rule `json:"rules"`
}

func (a promAPI) ruleGroups() ([]ruleGroup, error) {
	var data struct {
		Groups []ruleGroup `json:"groups"`
	}
	err := a.get("/api/v1/rules", nil, &data)
	return data.Groups, err
}

// findRule returns the rule of that name and the file that holds it.
func (a promAPI) findRule(name string) (*rule, string, error) {
	groups, err := a.ruleGroups()
	if err != nil {
		return nil, "", err
	}
	for _, g := range groups {
		for i := range g.Rules {
			if g.Rules[i].Name == name {
				return &g.Rules[i], g.File, nil
			}
		}
	}
	return nil, "", fmt.Errorf("no rule %s loaded (%d groups)", name, len(groups))
}

// config is the configuration Prometheus runs with, as YAML.
func (a promAPI) config() (string, error) {
	var data struct {
		YAML string `json:"yaml"`
	}
	err := a.get("/api/v1/status/config", nil, &data)
	return data.YAML, err
}

type sample struct {
	Metric map[string]string `json:"metric"`
}

// query runs an instant query and returns the series of its vector result.
func (a promAPI) query(expr string) ([]sample, error) {
	var data struct {
		ResultType string   `json:"resultType"`
		Result     []sample `json:"result"`
	}
	if err := a.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" {
		return nil, fmt.Errorf("query %s: result type %s", expr, data.ResultType)
	}
	return data.Result, nil
}

type amAlert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	Status      struct {
		State string `json:"state"`
	} `json:"status"`
}

// alertmanagerAlerts lists the alerts Alertmanager holds that match every label given.
func alertmanagerAlerts(base string, match map[string]string) ([]amAlert, error) {
	q := url.Values{}
	for k, v := range match {
		q.Add("filter", fmt.Sprintf("%s=%q", k, v))
	}
	var out []amAlert
	err := getJSON(base+"/api/v2/alerts?"+q.Encode(), &out)
	return out, err
}

// scrapeMetrics reads a /metrics endpoint: the value of each series, keyed by its name
// for series without labels and name{label="value",...} otherwise (labels sorted).
func scrapeMetrics(u string) (map[string]float64, error) {
	resp, err := httpc.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	out := map[string]float64{}
	for name, f := range families {
		for _, m := range f.Metric {
			key := name
			if len(m.Label) > 0 {
				var ls []string
				for _, l := range m.Label {
					ls = append(ls, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
				}
				sort.Strings(ls)
				key += "{" + strings.Join(ls, ",") + "}"
			}
			switch {
			case m.Counter != nil:
				out[key] = m.Counter.GetValue()
			case m.Gauge != nil:
				out[key] = m.Gauge.GetValue()
			case m.Untyped != nil:
				out[key] = m.Untyped.GetValue()
			}
		}
	}
	return out, nil
}
