package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/plan"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// render prints the prometheus.yaml the operator would generate from manifests, offline,
// or with --objects every object the operator would write for each Prometheus,
// Alertmanager and ThanosRuler. Exit code 1 when an instance cannot be rendered or a
// selected monitor, rule or AlertmanagerConfig is rejected.
func renderCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var files stringList
	fs.Var(&files, "f", "manifest file or directory (repeatable; - for standard input)")
	which := fs.String("prometheus", "", "render only this Prometheus (name or namespace/name)")
	whichAM := fs.String("alertmanager", "", "with --objects: render only this Alertmanager (name or namespace/name)")
	whichTR := fs.String("thanos-ruler", "", "with --objects: render only this ThanosRuler (name or namespace/name)")
	ns := fs.String("namespace", "default", "namespace of objects that name none")
	explain := fs.Bool("explain", false, "also list every monitor considered and why it was or was not used (on stderr)")
	kubeVersion := fs.String("kubernetes-version", "", "the Kubernetes version of the cluster rendered for (v1.35.0 and later label pods with their zone, which topology sharding then reads); empty: an older cluster")
	objects := fs.Bool("objects", false, "print every object the operator would write for each Prometheus, Alertmanager and ThanosRuler (Secrets, ConfigMaps, Service, RBAC, StatefulSets) instead of the configuration")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lookout-operator render -f PATH [-f PATH ...] [--prometheus NAME] [--explain] [--objects [--alertmanager NAME] [--thanos-ruler NAME]] [-- OPERATOR-FLAGS]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if len(files) == 0 || (!*objects && (*whichAM != "" || *whichTR != "")) {
		fs.Usage()
		return 2
	}
	// Operator flags after -- shape the output as they shape the operator's.
	op, err := operator.ParseArgs(fs.Args(), stderr)
	if err != nil {
		return 2
	}
	pr := planPrinter{opts: op.Options.WorkloadOptions(), writer: &write.Writer{Labels: op.Options.Labels, Annotations: op.Options.Annotations}}
	objs, err := render.Load(*ns, files...)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	opts := render.Options{Prometheus: *which, Alertmanager: *whichAM, ThanosRuler: *whichTR, Versions: versions.For(op.Options.DefaultVersions),
		NoTopologySharding: !op.Options.FeatureGates.Enabled(operator.GatePrometheusTopologySharding)}
	if *kubeVersion != "" {
		if opts.PodZoneLabels, err = operator.LabelsPodZones(*kubeVersion); err != nil {
			fmt.Fprintln(stderr, "error: --kubernetes-version:", err)
			return 2
		}
	}
	// Without a choice every instance is rendered; a choice renders only the kinds named.
	all := *which == "" && *whichAM == "" && *whichTR == ""
	if !*objects && len(objs.Prometheuses) == 0 {
		fmt.Fprintln(stderr, "error: no Prometheus object in the manifests")
		return 1
	}
	var insts []instance
	for _, k := range []struct {
		on  bool
		run func() ([]instance, error)
	}{
		{!*objects || all || *which != "", func() ([]instance, error) {
			return instancesOf(render.Render, objs, opts, func(o render.Output) instance { return prometheusInstance(o, pr.opts) })
		}},
		{*objects && (all || *whichAM != ""), func() ([]instance, error) {
			return instancesOf(render.RenderAlertmanagers, objs, opts, func(o render.AlertmanagerOutput) instance { return alertmanagerInstance(o, pr.opts) })
		}},
		{*objects && (all || *whichTR != ""), func() ([]instance, error) {
			return instancesOf(render.RenderThanosRulers, objs, opts, func(o render.ThanosRulerOutput) instance { return thanosRulerInstance(o, pr.opts) })
		}},
	} {
		if !k.on {
			continue
		}
		got, err := k.run()
		if err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
		insts = append(insts, got...)
	}
	if len(insts) == 0 {
		fmt.Fprintln(stderr, "error: no Prometheus, Alertmanager or ThanosRuler object in the manifests")
		return 1
	}
	used := "Prometheus, ServiceMonitor, PodMonitor, Probe, ScrapeConfig, PrometheusRule, Secret, ConfigMap and Namespace objects only"
	if *objects {
		used = "Prometheus, Alertmanager, ThanosRuler, ServiceMonitor, PodMonitor, Probe, ScrapeConfig, PrometheusRule, AlertmanagerConfig, Secret, ConfigMap and Namespace objects only"
	}
	for _, ig := range objs.Skipped(*objects) {
		fmt.Fprintf(stderr, "skipped: %s: render uses %s\n", ig, used)
	}
	code := 0
	for i, in := range insts {
		name := in.kind + " " + in.namespace + "/" + in.name
		if in.err != nil {
			fmt.Fprintf(stderr, "error: %s: %v\n", name, in.err)
			code = 1
			continue
		}
		if len(insts) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout, "---")
			}
			fmt.Fprintf(stdout, "# %s\n", name)
		}
		if *objects {
			if err := pr.print(stdout, in.plan); err != nil {
				fmt.Fprintf(stderr, "error: %s: %v\n", name, err)
				code = 1
			}
		} else {
			_, _ = stdout.Write(in.config)
		}
		for _, w := range in.warnings {
			fmt.Fprintf(stderr, "warning: %s: %s\n", name, w)
		}
		for _, v := range in.verdicts {
			switch {
			case v.Reason == selection.InvalidConfiguration:
				fmt.Fprintf(stderr, "error: %s: %s %s/%s rejected: %s\n", name, v.Kind, v.Namespace, v.Name, v.Message)
				code = 1
			case *explain && v.Used():
				fmt.Fprintf(stderr, "explain: %s: %s %s/%s is used\n", name, v.Kind, v.Namespace, v.Name)
			case *explain:
				fmt.Fprintf(stderr, "explain: %s: %s %s/%s is not used: %s: %s\n", name, v.Kind, v.Namespace, v.Name, v.Reason, v.Message)
			}
		}
	}
	return code
}

// instance is one rendered Prometheus, Alertmanager or ThanosRuler: its configuration
// (a Prometheus's, printed without --objects), its plan, and what to report.
type instance struct {
	kind, namespace, name string
	err                   error
	config                []byte
	plan                  func() (*plan.Plan, error)
	warnings              []string
	verdicts              []selection.Verdict
}

// prometheusInstance is the instance of a rendered Prometheus.
// instancesOf renders the instances of one kind with renderKind and describes each.
func instancesOf[O any](renderKind func(*render.Objects, render.Options) ([]O, error), objs *render.Objects, opts render.Options, describe func(O) instance) ([]instance, error) {
	outs, err := renderKind(objs, opts)
	if err != nil {
		return nil, err
	}
	insts := make([]instance, len(outs))
	for i, o := range outs {
		insts[i] = describe(o)
	}
	return insts, nil
}

// alertmanagerInstance describes the output of an Alertmanager.
func alertmanagerInstance(o render.AlertmanagerOutput, opts workload.Options) instance {
	return instance{kind: "Alertmanager", namespace: o.Alertmanager.Namespace, name: o.Alertmanager.Name, err: o.Err, verdicts: o.Verdicts,
		plan: func() (*plan.Plan, error) { return render.AlertmanagerPlan(o, opts) }}
}

// thanosRulerInstance describes the output of a ThanosRuler.
func thanosRulerInstance(o render.ThanosRulerOutput, opts workload.Options) instance {
	in := instance{kind: "ThanosRuler", namespace: o.ThanosRuler.Namespace, name: o.ThanosRuler.Name, err: o.Err, verdicts: o.Verdicts,
		plan: func() (*plan.Plan, error) { return render.ThanosRulerPlan(o, opts) }}
	if o.RemoteWrite != nil {
		in.warnings = o.RemoteWrite.Warnings
	}
	return in
}

func prometheusInstance(o render.Output, opts workload.Options) instance {
	in := instance{kind: "Prometheus", namespace: o.Prometheus.Namespace, name: o.Prometheus.Name, err: o.Err, verdicts: o.Verdicts,
		plan: func() (*plan.Plan, error) { return render.Plan(o, opts) }}
	if o.Result != nil {
		in.config, in.warnings = o.Result.Config, o.Result.Warnings
	}
	return in
}

// planPrinter prints the plan of an instance as YAML documents.
type planPrinter struct {
	opts   workload.Options
	writer *write.Writer
}

func (p planPrinter) print(out io.Writer, build func() (*plan.Plan, error)) error {
	pl, err := build()
	if err != nil {
		return err
	}
	for i, obj := range pl.Objects() {
		p.writer.Decorate(obj)
		b, err := yaml.Marshal(obj)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(out, "---")
		}
		_, _ = out.Write(b)
	}
	return nil
}
