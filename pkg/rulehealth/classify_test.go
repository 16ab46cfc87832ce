package rulehealth

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{`found duplicate series for the match group {} on the right hand-side of the operation: [{__name__="y", a="1"}, {__name__="y", a="2"}];many-to-many matching not allowed: matching labels must be unique on one side`,
			"many-to-many matching not allowed: matching labels must be unique on one side"},
		{"multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)", "many-to-one matching must be explicit (group_left/group_right)"},
		{"vector contains metrics with the same labelset after applying alert labels", "vector contains metrics with the same labelset after applying alert labels"},
		{"query timed out in expression evaluation", "query timed out"},
		{"query processing would load too many samples into memory in query execution", "query processing would load too many samples into memory"},
		{"exceeded limit of 10 with 12 alerts", "limit exceeded: too many alerts"},
		{"exceeded limit of 5 with 7 series", "limit exceeded: too many series"},
		// Thanos Ruler: its queries go over the network.
		{`rpc error: code = Unknown desc = Post "http://10.0.0.3:9090/api/v1/query": dial tcp 10.0.0.3:9090: connect: connection refused`, "connection refused"},
		{`query: server returned HTTP status 503 Service Unavailable`, "server returned HTTP status 503"},
		// Unknown: the last part, with label sets, quoted text and addresses removed.
		{`expanding series: bad thing in {a="1", b="2"} at 10.1.2.3:80`, `bad thing in {…} at <address>`},
	} {
		if got := Classify(tc.in); got != tc.want {
			t.Errorf("Classify(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
