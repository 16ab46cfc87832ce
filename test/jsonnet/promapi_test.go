package jsonnet

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
)

// promAPI is the part of Prometheus's HTTP API the live tests use.
type promAPI struct{ base string }

type promSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

type promResponse struct {
	Status    string          `json:"status"`
	Data      json.RawMessage `json:"data"`
	ErrorType string          `json:"errorType"`
	Error     string          `json:"error"`
}

func (p promAPI) call(ctx context.Context, path string, params url.Values, into any) error {
	b, err := get(ctx, p.base+path+"?"+params.Encode())
	if err != nil {
		return err
	}
	var r promResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if r.Status != "success" {
		return fmt.Errorf("%s: %s: %s", path, r.ErrorType, r.Error)
	}
	return json.Unmarshal(r.Data, into)
}

// query evaluates an instant query and returns the vector (or scalar as one sample).
func (p promAPI) query(ctx context.Context, expr string) ([]promSample, error) {
	var data struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	if err := p.call(ctx, "/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return nil, fmt.Errorf("query %q: %w", expr, err)
	}
	switch data.ResultType {
	case "vector":
		var v []promSample
		return v, json.Unmarshal(data.Result, &v)
	case "scalar":
		var s [2]any
		return []promSample{{Value: s}}, json.Unmarshal(data.Result, &s)
	default:
		return nil, fmt.Errorf("query %q: result type %s", expr, data.ResultType)
	}
}

// series returns the label sets of the series a selector matches.
func (p promAPI) series(ctx context.Context, selector string) ([]map[string]string, error) {
	var out []map[string]string
	err := p.call(ctx, "/api/v1/series", url.Values{"match[]": {selector}}, &out)
	return out, err
}

type promRuleGroup struct {
	Name  string `json:"name"`
	Rules []struct {
		Name      string `json:"name"`
		Health    string `json:"health"`
		LastError string `json:"lastError"`
		Type      string `json:"type"`
	} `json:"rules"`
}

// rules returns the loaded rule groups.
func (p promAPI) rules(ctx context.Context) ([]promRuleGroup, error) {
	var data struct {
		Groups []promRuleGroup `json:"groups"`
	}
	err := p.call(ctx, "/api/v1/rules", url.Values{}, &data)
	return data.Groups, err
}
