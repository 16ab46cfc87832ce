package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/lookout-operator/lookout/pkg/operator"
)

// runOperator parses the run flags and runs the manager until SIGINT/SIGTERM. It takes
// prometheus-operator's command line too: every flag of its operator binary, and an
// optional command after the flags (start, crds, full-crds).
func runOperator(args []string) int {
	p, code, done := parseRun(args, os.Stdout, os.Stderr)
	if done {
		return code
	}
	log, err := newLogger(os.Stderr, p.Options.Log.Level, p.Options.Log.Format)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lookout-operator:", err)
		return 2
	}
	ctrl.SetLogger(log)
	klog.SetLogger(log.WithName("client-go"))
	return start(ctrl.SetupSignalHandler(), p)
}

// parseRun parses the command line; done reports that the process should exit with
// code (help, version, crds, or a bad command line).
func parseRun(args []string, stdout, stderr io.Writer) (p *operator.Parsed, code int, done bool) {
	p, err := operator.ParseArgs(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage(stderr)
		return nil, 0, true
	case err != nil:
		fmt.Fprintln(stderr, `run "lookout-operator --help" for the commands and flags`)
		return nil, 2, true
	}
	switch {
	case p.PrintShortVersion:
		fmt.Fprintln(stdout, version)
		return nil, 0, true
	case p.PrintVersion:
		fmt.Fprintln(stdout, versionFlagLine())
		return nil, 0, true
	}
	if len(p.Args) > 0 {
		fmt.Fprintf(stderr, "lookout-operator: unexpected arguments after %q: %q\n", p.Command, p.Args)
		return nil, 2, true
	}
	switch p.Command {
	case "", "run", "start":
		return p, 0, false
	case "crds", "full-crds":
		return nil, printCRDs(stdout), true
	default:
		fmt.Fprintf(stderr, "lookout-operator: unknown command %q after the flags (start, run, crds, full-crds)\n", p.Command)
		return nil, 2, true
	}
}

// start runs the operator with parsed options until ctx ends.
func start(ctx context.Context, p *operator.Parsed) int {
	setup := ctrl.Log.WithName("setup")
	o := p.Options
	reportNotApplied(setup, p)
	if pct := setGCPercent(defaultGCPercent); pct > 0 {
		setup.V(1).Info("GOGC set", "percent", pct)
		o.AfterStartupGeneration = func() {
			if pct := setGCPercent(steadyGCPercent); pct > 0 {
				setup.V(1).Info("GOGC set for the steady state", "percent", pct)
			}
		}
	}
	if limit, err := setGoMemLimit(o.GoMemLimitRatio); err != nil {
		setup.Error(err, "cannot set GOMEMLIMIT from --auto-gomemlimit-ratio")
	} else if limit > 0 {
		setup.Info("GOMEMLIMIT set", "bytes", limit)
	}

	cfg, err := o.Client.RESTConfig("lookout-operator/" + version)
	if err != nil {
		setup.Error(err, "cannot build a Kubernetes client configuration")
		return 1
	}
	mgr, err := operator.New(ctx, cfg, o)
	if err != nil {
		setup.Error(err, "cannot set up the operator")
		return 1
	}
	setup.Info("starting operator", "version", version,
		"prometheusNamespaces", o.PrometheusScope().String(), "monitorNamespaces", o.MonitorScope().String(),
		"leaderElection", o.LeaderElection, "featureGates", o.FeatureGates.String())
	if err := mgr.Start(ctx); err != nil {
		setup.Error(err, "operator stopped with an error")
		return 1
	}
	setup.Info("operator stopped")
	return 0
}

// reportNotApplied logs, once, the flags Lookout accepted but does not act on.
func reportNotApplied(log logr.Logger, p *operator.Parsed) {
	if notApplied := p.NotApplied(); len(notApplied) > 0 {
		log.Info("accepted flags Lookout does not act on yet", "flags", notApplied)
	}
}
