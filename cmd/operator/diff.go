package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/lookout-operator/lookout/pkg/confdiff"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/versions"
)

const diffUsage = `usage: lookout-operator diff OLD NEW [flags]
       lookout-operator diff --live TREE [flags]

Renders, offline as "render" does, what the operator would generate for every Prometheus,
PrometheusAgent, Alertmanager and ThanosRuler in OLD and in NEW (each a manifest file or
a directory), compares it as data (the Prometheus configuration, rule files and
Alertmanager configuration; key order and the order of scrape jobs, rule groups and
receivers do not count) and prints a unified diff per instance, each hunk under a
"# caused by:" line naming the monitors, PrometheusRules or AlertmanagerConfigs behind
it. With --live, OLD is the cluster of --kubeconfig, read-only: its objects are read
and rendered the same way.
Exit status: 0 no difference, 1 differences, 2 usage error or bad input (a manifest
that does not decode, an instance that cannot be rendered).

flags (anywhere on the line; operator flags such as --default-versions are accepted as
in its Deployment):
`

// diffCmd runs `lookout-operator diff`.
func diffCmd(args []string, stdout, stderr io.Writer) int {
	cmd := newOpCommand("diff", diffUsage, stderr, "stat", "live", "n", "kubeconfig", "default-versions")
	fs, usage := cmd.fs, cmd.usage
	stat := fs.Bool("stat", false, "print a summary (instances, jobs, rule groups and receivers added, removed, changed) instead of the diff")
	live := fs.Bool("live", false, "compare the cluster of --kubeconfig (OLD, read-only) with the tree given")
	defaultNS := fs.String("n", "default", "namespace of objects in the files that name none")
	pos, parsed, exit := cmd.parse(args)
	if exit >= 0 {
		return exit
	}
	if (*live && len(pos) != 1) || (!*live && len(pos) != 2) {
		usage()
		return 2
	}
	opts := render.Options{Versions: versions.For(parsed.Options.DefaultVersions),
		NoTopologySharding: !parsed.Options.FeatureGates.Enabled(operator.GatePrometheusTopologySharding)}

	var oldObjs *render.Objects
	oldName := "OLD"
	if *live {
		oldName = "the cluster"
		cfg, err := parsed.Options.Client.RESTConfig("lookout-operator-diff")
		if err != nil {
			fmt.Fprintln(stderr, "error: no cluster to read (give --kubeconfig):", err)
			return 2
		}
		klog.SetLogger(logr.Discard())
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		c, err := liveClient(cfg)
		if err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 2
		}
		if oldObjs, err = loadLive(ctx, c); err != nil {
			fmt.Fprintln(stderr, "error: reading the cluster:", err)
			return 2
		}
	} else {
		var err error
		if oldObjs, err = render.Load(*defaultNS, pos[0]); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 2
		}
	}
	newObjs, err := render.Load(*defaultNS, pos[len(pos)-1])
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	oldInsts, err := generated(oldObjs, opts, oldName, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	newInsts, err := generated(newObjs, opts, "NEW", stderr)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	res, err := confdiff.Compare(oldInsts, newInsts)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if *stat {
		err = confdiff.WriteStat(stdout, res)
	} else {
		err = confdiff.WriteUnified(stdout, res)
	}
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if res.Empty() {
		return 0
	}
	return 1
}
