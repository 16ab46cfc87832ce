package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// render prints the prometheus.yaml the operator would generate from manifests, offline.
// Exit code 1 when a Prometheus cannot be rendered or a selected monitor is rejected.
func renderCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var files stringList
	fs.Var(&files, "f", "manifest file or directory (repeatable; - for standard input)")
	which := fs.String("prometheus", "", "render only this Prometheus (name or namespace/name)")
	ns := fs.String("namespace", "default", "namespace of objects that name none")
	explain := fs.Bool("explain", false, "also list every monitor considered and why it was or was not used (on stderr)")
	objects := fs.Bool("objects", false, "print every object the operator would write for each Prometheus (Secrets, ConfigMaps, Service, RBAC, StatefulSets) instead of the configuration")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: lookout-operator render -f PATH [-f PATH ...] [--prometheus NAME] [--explain] [--objects] [-- OPERATOR-FLAGS]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if len(files) == 0 {
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
	if len(objs.Prometheuses) == 0 {
		fmt.Fprintln(stderr, "error: no Prometheus object in the manifests")
		return 1
	}
	outs, err := render.Render(objs, render.Options{Prometheus: *which, Versions: versions.For(op.Options.DefaultVersions)})
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	for _, ig := range objs.Ignored {
		fmt.Fprintf(stderr, "skipped: %s: render uses Prometheus, ServiceMonitor, PodMonitor, Probe, ScrapeConfig, PrometheusRule, Secret, ConfigMap and Namespace objects only\n", ig)
	}
	code := 0
	for i, o := range outs {
		name := o.Prometheus.Namespace + "/" + o.Prometheus.Name
		if o.Err != nil {
			fmt.Fprintf(stderr, "error: Prometheus %s: %v\n", name, o.Err)
			code = 1
			continue
		}
		if len(outs) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout, "---")
			}
			fmt.Fprintf(stdout, "# Prometheus %s\n", name)
		}
		if *objects {
			if err := pr.print(stdout, o); err != nil {
				fmt.Fprintf(stderr, "error: Prometheus %s: %v\n", name, err)
				code = 1
			}
		} else {
			_, _ = stdout.Write(o.Result.Config)
		}
		for _, w := range o.Result.Warnings {
			fmt.Fprintf(stderr, "warning: Prometheus %s: %s\n", name, w)
		}
		for _, v := range o.Verdicts {
			switch {
			case v.Reason == selection.InvalidConfiguration:
				fmt.Fprintf(stderr, "error: Prometheus %s: %s %s/%s rejected: %s\n", name, v.Kind, v.Namespace, v.Name, v.Message)
				code = 1
			case *explain && v.Used():
				fmt.Fprintf(stderr, "explain: Prometheus %s: %s %s/%s is used\n", name, v.Kind, v.Namespace, v.Name)
			case *explain:
				fmt.Fprintf(stderr, "explain: Prometheus %s: %s %s/%s is not used: %s: %s\n", name, v.Kind, v.Namespace, v.Name, v.Reason, v.Message)
			}
		}
	}
	return code
}

// planPrinter prints the plan of each Prometheus as YAML documents.
type planPrinter struct {
	opts   workload.Options
	writer *write.Writer
}

func (p planPrinter) print(out io.Writer, o render.Output) error {
	pl, err := render.Plan(o, p.opts)
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
