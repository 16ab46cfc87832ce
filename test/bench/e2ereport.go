package main

import (
	"fmt"
	"strings"
	"time"
)

// e2eRows are the end-to-end table's rows.
func (rep *report) e2eRows() []row {
	e := rep.opts.e2e
	st := func(f func(e2eSteps) []time.Duration) func(*result) string {
		return func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return medWorst(f(steps(r.e2e.edits)))
		}
	}
	end := "ConfigLoaded=True"
	if e.upstream() {
		end = "every replica reloaded it (upstream has no ConfigLoaded)"
	}
	rows := []row{
		{name: "Prometheus pods (shards × replicas)", value: func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return fmt.Sprintf("%d × %d", e.shards, e.replicas)
		}},
		{name: "operator start → every replica loaded the complete config" + map[bool]string{false: " and ConfigLoaded=True", true: ""}[e.upstream()], value: func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return secs(r.e2e.firstLive)
		}},
		{name: "Prometheus's first config load (totalDuration), median / worst replica", value: func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return medWorst(r.e2e.firstLoads)
		}},
		{name: fmt.Sprintf("**edit → %s, median / worst** (%d edits)", end, rep.opts.changes), value: st(func(s e2eSteps) []time.Duration { return s.total }),
			targets: map[int]target{20000: {"≤ 2 s / ≤ 5 s", func(r *result) bool {
				if r.e2e == nil || r.e2e.failed > 0 || len(r.e2e.edits) == 0 {
					return false
				}
				s := steps(r.e2e.edits)
				return percentile(s.total, 0.5) <= 2*time.Second && percentile(s.total, 1) <= 5*time.Second
			}}}},
		{name: "edit → live (every replica of every shard loaded it), median / worst", value: st(func(s e2eSteps) []time.Duration { return s.live })},
		{name: "step 1: operator → config Secret (t1 − t0), median / worst", value: st(func(s e2eSteps) []time.Duration { return s.operator })},
		{name: "step 2: config Secret → reloader input (t2 − t1, per replica), median / worst", value: st(func(s e2eSteps) []time.Duration { return s.toInput })},
		{name: "step 3: reloader input → Prometheus loaded it (t3 − t2, per replica), median / worst", value: st(func(s e2eSteps) []time.Duration { return s.toLoaded })},
	}
	if !e.upstream() {
		rows = append(rows, row{name: "step 4: last replica loaded → ConfigLoaded=True (t4 − max t3), median / worst", value: st(func(s e2eSteps) []time.Duration { return s.toStatus })})
	}
	return append(rows,
		row{name: "Prometheus's reload (totalDuration, per replica), median / worst", value: st(func(s e2eSteps) []time.Duration { return s.reloadTimes })},
		row{name: "edits not live within the timeout", value: func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return fmt.Sprint(r.e2e.failed)
		}},
		row{name: "Prometheus RSS per replica after the edits, MiB (peak)", value: func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return rssList(r.e2e.promRSS)
		}},
		row{name: "reloader RSS per replica after the edits, MiB (peak)", value: func(r *result) string {
			if r.e2e == nil {
				return "–"
			}
			return rssList(r.e2e.reloaderRSS)
		}},
	)
}

// writeE2E renders the end-to-end table and how it is measured.
func (rep *report) writeE2E(b *strings.Builder) {
	e := rep.opts.e2e
	fmt.Fprintf(b, "### End to end: %s\n\n", e.describe())
	input := "the kubelet stand-in (`pkg/localpods`, re-projecting the volumes every " + e.kubeletSync.String() +
		" like the kubelet's `--sync-frequency`) wrote the new Secret content into the pod's config volume, which the reloader watches"
	if e.reloader == reloaderAPI {
		input = "the reloader's API watch wrote the new Secret content into its directory (its `mirrored object updated` log line)"
	}
	fmt.Fprintf(b, "The Prometheus has %d shard(s) × %d replica(s) and `spec.version: v%s`; its StatefulSet pods run as local processes "+
		"(`pkg/localpods`): `%s` plays the Prometheus image and `%s` the reloader's. The harness runs in a mount namespace of its own "+
		"(root) where a service account token, the control plane's CA and the namespace are at `%s`, and every container gets "+
		"`KUBERNETES_SERVICE_HOST`/`PORT`: Prometheus discovers the monitors' EndpointSlices in the harness's API server "+
		"in-cluster style (the targets, made-up addresses, are down) and the reloader reads and reports through it. The configuration "+
		"reaches Prometheus unchanged (no rewriting).\n\n",
		e.shards, e.replicas, e.version, e.prometheus, map[bool]string{false: e.lookoutReloader, true: e.upstreamReloader}[e.upstream()], saDir)
	rep.writeTable(b, rep.e2eRows())
	fmt.Fprintln(b)
	end := "t4 is the harness's watch on the Prometheus delivering `ConfigLoaded=True` naming the new configuration's hash"
	if e.upstream() {
		end = "prometheus-operator has no ConfigLoaded: an edit ends at the last t3"
	}
	spread := ""
	if e.reloader != reloaderAPI {
		spread = fmt.Sprintf(" and after a random wait within the %s sync period (seeded by the edit's number), so that edits fall anywhere in the volume sync's period", e.kubeletSync)
	}
	fmt.Fprintf(b, "How it is measured: each edit is one of the changes above, made when the previous one is live everywhere"+spread+". "+
		"t0 is the return of the harness's update, t1 the harness's watch delivering the config Secret that holds it; per replica, "+
		"t2 is when %s, and t3 the time of Prometheus's `Completed loading of configuration file` log line (its `totalDuration` is the reload "+
		"duration shown); %s. Log times have millisecond precision, and step 2 can be a few milliseconds below zero when the reloader "+
		"received the Secret before the harness's watch did. Per-replica steps are taken over every replica of every edit. The first load "+
		"is timed from the operator's start.\n", input, end)
}
