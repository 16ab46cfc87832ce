package main

import (
	"bytes"
	"fmt"
	"strconv"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/rules"
)

// The answers of the fake Prometheus API (promapi.go), generated once per run. They are
// pure functions of the scenario (and of the PrometheusRules' UIDs), so the unit tests run
// them through the operator's own parsers.

// answerTime is the evaluation and scrape time the answers carry.
const answerTime = "2026-12-02T21:00:00.123456789Z"

// fakeTarget is what the answers say about target t of monitor i.
type fakeTarget struct {
	addr, namespace, service, job string
}

func (s scenario) target(i, t int) fakeTarget {
	return fakeTarget{addr: fmt.Sprintf("10.%d.%d.%d:8080", i/256%256, i%256, t), namespace: s.namespace(i), service: monitorName(i), job: s.job(i)}
}

// labels is the target's label set after relabeling, as a JSON object with sorted keys;
// extra comes first (e.g. the __name__ of a series).
func (t fakeTarget) labels(extra string) string {
	return fmt.Sprintf(`{%s"endpoint":"web","instance":%q,"job":%q,"namespace":%q,"service":%q}`, extra, t.addr, t.service, t.namespace, t.service)
}

// targetsAnswer is /api/v1/targets?state=active: targetsPerMonitor targets per monitor,
// all up, with discovered labels as Prometheus reports them.
func targetsAnswer(s scenario) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"success","data":{"activeTargets":[`)
	for i := 0; i < s.items; i++ {
		for t := 0; t < targetsPerMonitor; t++ {
			if i+t > 0 {
				b.WriteByte(',')
			}
			tg := s.target(i, t)
			fmt.Fprintf(&b, `{"discoveredLabels":{"__address__":%[1]q,"__meta_kubernetes_namespace":%[2]q,"__meta_kubernetes_service_name":%[3]q,`+
				`"__meta_kubernetes_endpointslice_port_name":"web","__scheme__":"http","__metrics_path__":"/metrics","job":%[4]q},`+
				`"labels":%[5]s,"scrapePool":%[4]q,"scrapeUrl":"http://%[1]s/metrics","globalUrl":"http://%[1]s/metrics","lastError":"",`+
				`"lastScrape":%[6]q,"lastScrapeDuration":0.00123,"health":"up","scrapeInterval":"30s","scrapeTimeout":"10s"}`,
				tg.addr, tg.namespace, tg.service, tg.job, tg.labels(""), answerTime)
		}
	}
	b.WriteString(`],"droppedTargets":[],"droppedTargetCounts":{}}}`)
	return b.Bytes()
}

// poolsAnswer is /api/v1/scrape_pools: one pool per monitor.
func poolsAnswer(s scenario) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"success","data":{"scrapePools":[`)
	for i := 0; i < s.items; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(s.job(i)))
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}

// costSamples is the samples each scrape of target t of monitor i keeps: the series
// added are a tenth of it.
func costSamples(i, t int) int { return 100 + i%900 + 10*t }

// queryAnswer answers the cost query (monitorcost.Query): both series of every target,
// with the target's labels, so that the join attributes every series.
func queryAnswer(s scenario) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"success","data":{"resultType":"vector","result":[`)
	first := true
	for i := 0; i < s.items; i++ {
		for t := 0; t < targetsPerMonitor; t++ {
			tg := s.target(i, t)
			for _, m := range []struct {
				name  string
				value int
			}{{monitorcost.SamplesMetric, costSamples(i, t)}, {monitorcost.SeriesAddedMetric, costSamples(i, t) / 10}} {
				if !first {
					b.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&b, `{"metric":%s,"value":[1764709200.123,"%d"]}`, tg.labels(`"__name__":`+strconv.Quote(m.name)+`,`), m.value)
			}
		}
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}

// ruleObject is a PrometheusRule as the rules answer names it.
type ruleObject struct {
	namespace, name, uid string
	// rules is how many rules its one group holds.
	rules int
}

// firingRule says whether rule r of a group is an alerting rule with a firing alert:
// every fourth rule (an alerting rule: they are the even ones).
func firingRule(r int) bool { return r%4 == 0 }

// ruleName is rule r of PrometheusRule j: alerting rules every other rule, the others
// recording rules.
func ruleName(r int) string {
	if r%2 == 0 {
		return fmt.Sprintf("BenchAlert%d", r)
	}
	return fmt.Sprintf("bench:record%d:sum", r)
}

// recordExpr and alertExpr are the expressions of the recording and alerting rules of
// a PrometheusRule in namespace ns.
func recordExpr(ns string) string { return fmt.Sprintf("sum(up{namespace=%q})", ns) }
func alertExpr(ns string) string  { return fmt.Sprintf("up{namespace=%q} == 0", ns) }

// ruleFile is the path Prometheus shows for the rule file Lookout generates for o (the
// ConfigMap slot does not matter to the matching, which reads the file name).
func ruleFile(o ruleObject) string {
	r := &monitoringv1.PrometheusRule{}
	r.Namespace, r.Name, r.UID = o.namespace, o.name, types.UID(o.uid)
	name := rules.FileName(r)
	return layout.RulesDir + "/" + layout.Prometheus(promName).RuleConfigMap(0) + "/" + name
}

// rulesAnswer is /api/v1/rules: one group per PrometheusRule from its rule file, every
// rule healthy, every fourth rule firing one alert.
func rulesAnswer(objs []ruleObject) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"success","data":{"groups":[`)
	for j, o := range objs {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"bench","file":%q,"rules":[`, ruleFile(o))
		for r := 0; r < o.rules; r++ {
			if r > 0 {
				b.WriteByte(',')
			}
			if r%2 == 1 {
				fmt.Fprintf(&b, `{"name":%q,"query":%q,"labels":{"team":"bench"},"health":"ok",`+
					`"evaluationTime":0.000312,"lastEvaluation":%q,"type":"recording"}`, ruleName(r), recordExpr(o.namespace), answerTime)
				continue
			}
			alerts, state := "[]", "inactive"
			if firingRule(r) {
				state = "firing"
				alerts = fmt.Sprintf(`[{"labels":{"alertname":%q,"namespace":%q,"severity":"warning"},"annotations":{"summary":"bench alert"},`+
					`"state":"firing","activeAt":%q,"value":"1e+00"}]`, ruleName(r), o.namespace, answerTime)
			}
			fmt.Fprintf(&b, `{"state":%q,"name":%q,"query":%q,"duration":300,"keepFiringFor":0,`+
				`"labels":{"severity":"warning"},"annotations":{"summary":"bench alert"},"alerts":%s,"health":"ok",`+
				`"evaluationTime":0.000417,"lastEvaluation":%q,"type":"alerting"}`, state, ruleName(r), alertExpr(o.namespace), alerts, answerTime)
		}
		fmt.Fprintf(&b, `],"interval":30,"limit":0,"evaluationTime":0.0042,"lastEvaluation":%q}`, answerTime)
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}
