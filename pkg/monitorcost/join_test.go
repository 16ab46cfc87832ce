package monitorcost

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// shardTargets is a targets answer of one shard: api's job label is rewritten to the
// Service name (as a ServiceMonitor's is), two monitors' targets have the same job, a
// kubelet target belongs to no monitor.
const shardTargets = `{"status":"success","data":{"activeTargets":[
 {"labels":{"job":"api","instance":"10.0.0.1:8080","namespace":"app","service":"api"},"scrapePool":"serviceMonitor/app/api/0","health":"up"},
 {"labels":{"job":"api","instance":"10.0.0.2:8080","namespace":"app","service":"api"},"scrapePool":"serviceMonitor/app/api/0","health":"up"},
 {"labels":{"job":"api","instance":"10.0.0.1:9090","namespace":"app","service":"api"},"scrapePool":"serviceMonitor/app/api/1","health":"up"},
 {"labels":{"job":"api","instance":"10.0.0.3:8080","namespace":"other","pod":"p"},"scrapePool":"podMonitor/other/pods/0","health":"up"},
 {"labels":{"job":"probe/app/web","instance":"https://example.test"},"scrapePool":"probe/app/web","health":"unknown"},
 {"labels":{"job":"kubelet","instance":"10.0.0.9:10250"},"scrapePool":"kubelet","health":"up"}
]}}`

// shardSeries answers the cost query for the same shard (the probe target was not
// scraped yet: no series).
const shardSeries = `{"status":"success","data":{"resultType":"vector","result":[
 {"metric":{"__name__":"scrape_samples_post_metric_relabeling","instance":"10.0.0.1:8080","job":"api","namespace":"app","service":"api"},"value":[1700000000.1,"1000"]},
 {"metric":{"__name__":"scrape_series_added","instance":"10.0.0.1:8080","job":"api","namespace":"app","service":"api"},"value":[1700000000.1,"3"]},
 {"metric":{"__name__":"scrape_samples_post_metric_relabeling","instance":"10.0.0.2:8080","job":"api","namespace":"app","service":"api"},"value":[1700000000.1,"1200"]},
 {"metric":{"__name__":"scrape_series_added","instance":"10.0.0.2:8080","job":"api","namespace":"app","service":"api"},"value":[1700000000.1,"0"]},
 {"metric":{"__name__":"scrape_samples_post_metric_relabeling","instance":"10.0.0.1:9090","job":"api","namespace":"app","service":"api"},"value":[1700000000.1,"34"]},
 {"metric":{"__name__":"scrape_series_added","instance":"10.0.0.1:9090","job":"api","namespace":"app","service":"api"},"value":[1700000000.1,"34"]},
 {"metric":{"__name__":"scrape_samples_post_metric_relabeling","instance":"10.0.0.3:8080","job":"api","namespace":"other","pod":"p"},"value":[1700000000.1,"7"]},
 {"metric":{"__name__":"scrape_series_added","instance":"10.0.0.3:8080","job":"api","namespace":"other","pod":"p"},"value":[1700000000.1,"NaN"]},
 {"metric":{"__name__":"scrape_samples_post_metric_relabeling","instance":"10.0.0.9:10250","job":"kubelet"},"value":[1700000000.1,"500"]}
]}}`

func joinShard(t *testing.T, s *Snapshot, targets, series string) {
	t.Helper()
	sh := s.Shard()
	if err := targethealth.ParseTargets(strings.NewReader(targets), sh.AddTarget); err != nil {
		t.Fatal(err)
	}
	if err := ParseVector(strings.NewReader(series), sh.AddSample); err != nil {
		t.Fatal(err)
	}
	sh.Done()
}

func key(kind, ns, name string) Key { return Key{Kind: kind, Namespace: ns, Name: name} }

// TestJoin: each series goes to the monitor whose target has its labels, whatever its
// job label says; both endpoints of a ServiceMonitor and every shard are summed.
func TestJoin(t *testing.T) {
	s := NewSnapshot(Limits{})
	joinShard(t, s, shardTargets, shardSeries)
	want := map[Key]Cost{
		key("ServiceMonitor", "app", "api"): {Samples: 2234, SeriesAdded: 37, MaxTargetSamples: 1200, Targets: 3, Scraped: 3},
		key("PodMonitor", "other", "pods"):  {Samples: 7, SeriesAdded: 0, MaxTargetSamples: 7, Targets: 1, Scraped: 1},
		key("Probe", "app", "web"):          {Targets: 1},
	}
	check := func(want map[Key]Cost) {
		t.Helper()
		if len(s.Monitors) != len(want) {
			t.Errorf("%d monitors, want %d: %+v", len(s.Monitors), len(want), s.Monitors)
		}
		for k, w := range want {
			if got := s.Monitors[k]; got == nil || *got != w {
				t.Errorf("%v: %+v, want %+v", k, got, w)
			}
		}
	}
	check(want)
	if s.Unmatched != 1 {
		t.Errorf("unmatched %d, want 1 (the kubelet's series)", s.Unmatched)
	}
	// A second shard with another target of api (same job, other instance).
	joinShard(t, s,
		`{"status":"success","data":{"activeTargets":[{"labels":{"job":"api","instance":"10.0.1.1:8080","namespace":"app","service":"api"},"scrapePool":"serviceMonitor/app/api/0","health":"up"}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[
		 {"metric":{"__name__":"scrape_samples_post_metric_relabeling","instance":"10.0.1.1:8080","job":"api","namespace":"app","service":"api"},"value":[1,"5000"]},
		 {"metric":{"__name__":"scrape_series_added","instance":"10.0.1.1:8080","job":"api","namespace":"app","service":"api"},"value":[1,"1"]}]}}`)
	want[key("ServiceMonitor", "app", "api")] = Cost{Samples: 7234, SeriesAdded: 38, MaxTargetSamples: 5000, Targets: 4, Scraped: 4}
	check(want)
	if got := s.Cost(key("ServiceMonitor", "app", "api")); got != (Cost{Samples: 7200, SeriesAdded: 38, MaxTargetSamples: 5000, Targets: 4, Scraped: 4}) {
		t.Errorf("rounded %+v", got)
	}
	if got := s.Cost(key("ServiceMonitor", "app", "gone")); got != (Cost{}) {
		t.Errorf("unknown monitor %+v", got)
	}
}

// Two monitors' targets with the same labels: their series cannot be told apart and
// count for neither.
func TestJoinAmbiguous(t *testing.T) {
	s := NewSnapshot(Limits{})
	joinShard(t, s, `{"status":"success","data":{"activeTargets":[
	 {"labels":{"job":"x","instance":"a"},"scrapePool":"serviceMonitor/n/one/0"},
	 {"labels":{"job":"x","instance":"a"},"scrapePool":"podMonitor/n/two/0"}]}}`,
		`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"scrape_samples_post_metric_relabeling","job":"x","instance":"a"},"value":[1,"10"]}]}}`)
	if s.Ambiguous != 1 || s.Monitors[key("ServiceMonitor", "n", "one")].Samples != 0 || s.Monitors[key("PodMonitor", "n", "two")].Samples != 0 {
		t.Errorf("ambiguous %d, monitors %+v %+v", s.Ambiguous, s.Monitors[key("ServiceMonitor", "n", "one")], s.Monitors[key("PodMonitor", "n", "two")])
	}
}

func TestParseVectorErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"status":"error","errorType":"bad_data","error":"parse error"}`, "prometheus answered error: parse error"},
		{`[]`, `decoding the query answer: want "{", got [`},
		{`{"status":"success","data":{"resultType":"matrix","result":[]}}`, `decoding the query answer: data: resultType: result type "matrix", want vector`},
		{`{"status":"success","data":{"resultType":"vector","result":{}}}`, `decoding the query answer: data: result: want an array, got {`},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":1},"value":[1,"2"]}]}}`, `decoding the query answer: data: result: decoding a label set: want an object of strings`},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"x"]}]}}`, `decoding the query answer: data: result: a sample value: strconv.ParseFloat: parsing "x": invalid syntax`},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,2]}]}}`, `decoding the query answer: data: result: a sample value: want [<time>, "<value>"], got [1,2]`},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":"3"}]}}`, `decoding the query answer: data: result: a sample value: want [<time>, "<value>"], got "3"`},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":["3"]}]}}`, `decoding the query answer: data: result: a sample value: want [<time>, "<value>"], got ["3"]`},
		{`{"status":"success","data":{"resultType":"vector","result":[`, `decoding the query answer: data: result: EOF`},
		{``, `decoding the query answer: EOF`},
	} {
		err := ParseVector(strings.NewReader(tc.in), func(Sample) {})
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseVector(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	if err := ParseVector(strings.NewReader(`{"status":"success","data":{"resultType":"vector","result":null}}`), func(Sample) { t.Error("sample") }); err != nil {
		t.Error(err)
	}
}
