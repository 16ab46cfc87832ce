package rulehealth

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func readGolden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseRules: a real-shaped answer keeps only the fields the health needs.
func TestParseRules(t *testing.T) {
	var got []Group
	if err := ParseRules(strings.NewReader(string(readGolden(t, "rules.json"))), func(g Group) { got = append(got, g) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("got %d groups, want 4", len(got))
	}
	want0 := Group{
		Name: "latency", File: "/etc/prometheus/rules/prometheus-k8s-rulefiles-0/app-latency-rules-0b0e1d5c-3a7f-4c3e-9a59-2f1f8c0f5c11.yaml",
		Interval: 30, EvaluationTime: 0.0016,
		Rules: []Rule{
			{Name: "HighLatency", Health: "ok", Alerts: []Alert{{State: "firing"}, {State: "pending"}}},
			{Name: "Broken", Health: "err", Alerts: []Alert{}, LastError: `found duplicate series for the match group {} on the right hand-side of the operation: [{__name__="y", a="1"}, {__name__="y", a="2"}];many-to-many matching not allowed: matching labels must be unique on one side`},
			{Name: "job:x:rate5m", Health: "ok"},
		},
	}
	if !reflect.DeepEqual(got[0], want0) {
		t.Errorf("group 0:\ngot  %+v\nwant %+v", got[0], want0)
	}
	if got[1].Interval != 1 || got[1].EvaluationTime != 1.5 || got[1].Rules[0].Health != "unknown" {
		t.Errorf("group 1: %+v", got[1])
	}
	if n := got[2].Rules[0].Firing(); n != 3 {
		t.Errorf("NodeDown firing = %d, want 3", n)
	}
}

func TestParseRulesErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"status":"error","errorType":"internal","error":"boom"}`, `prometheus answered error: boom`},
		{`{"data":{"groups":[]}}`, `the rules answer has no status`},
		{`[]`, `decoding the rules answer: want "{", got [`},
		{`{"status":"success","data":{"groups":{}}}`, `decoding the rules answer: data: groups: want an array, got {`},
		{`{"status":"success","data":[]}`, `decoding the rules answer: data: want an object, got [`},
		{`{"status":"success","data":{"groups":[{"name":`, `decoding the rules answer: data: groups: unexpected EOF`},
		{`{"status":"success","data":{"groups":[{"name":"g","rules":"x"}]}}`, `decoding the rules answer: data: groups: json: cannot unmarshal string into Go struct field Group.rules of type []rulehealth.Rule`},
		{`{"status":"success","data":{"groups":[]}`, `decoding the rules answer: EOF`},
		{``, `decoding the rules answer: EOF`},
	} {
		err := ParseRules(strings.NewReader(tc.in), func(Group) {})
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseRules(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	for _, in := range []string{
		`{"status":"success","data":{"groups":null}}`,
		`{"status":"success","data":null}`,
		`{"status":"success","data":{"groups":[]},"warnings":["x"]}`,
	} {
		if err := ParseRules(strings.NewReader(in), func(Group) { t.Error("group") }); err != nil {
			t.Errorf("ParseRules(%q) = %v", in, err)
		}
	}
}
