package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/lookout-operator/lookout/pkg/explain"
	"github.com/lookout-operator/lookout/pkg/render"
)

// explainKinds maps the subject words explain accepts to kinds.
var explainKinds = map[string]string{
	"servicemonitor": explain.KindServiceMonitor, "servicemonitors": explain.KindServiceMonitor, "smon": explain.KindServiceMonitor,
	"podmonitor": explain.KindPodMonitor, "podmonitors": explain.KindPodMonitor, "pmon": explain.KindPodMonitor,
	"service": explain.KindService, "services": explain.KindService, "svc": explain.KindService,
	"pod": explain.KindPod, "pods": explain.KindPod, "po": explain.KindPod,
	"probe": explain.KindProbe, "probes": explain.KindProbe, "prb": explain.KindProbe,
	"scrapeconfig": explain.KindScrapeConfig, "scrapeconfigs": explain.KindScrapeConfig, "scfg": explain.KindScrapeConfig,
}

const explainUsage = `usage: lookout-operator explain servicemonitor|podmonitor|probe|scrapeconfig|service|pod [NAMESPACE/]NAME [flags]

Follows the object through the chain each Prometheus and PrometheusAgent follows to scrape
it: the operator's instance selection, the monitor and namespace selectors, the monitor's
verdict, then for each endpoint (a Probe's or ScrapeConfig's job) what Prometheus's own
discovery finds and what its relabeling keeps or drops (and by which rule). Against the
cluster of --kubeconfig (read-only, with your permissions), or offline with -f (Services,
Endpoints, EndpointSlices, Pods, Nodes and Ingresses in the files stand for the cluster).
Static targets and file_sd files on this machine are read as written; other discoveries
(HTTP, DNS, Consul, ...) are run from this machine.
Exit status: 0 when every endpoint has a kept target, 1 when the chain breaks, 2 for a
usage error, 3 when the chain holds except for endpoints the -f files cannot answer for
(UNKNOWN: a selected Service without Endpoints, EndpointSlices or Pods in the files, a
file_sd file that is only in the Prometheus pod).

flags (anywhere on the line; the operator's selection flags such as --namespaces,
--prometheus-instance-selector and --controller-id are accepted as in its Deployment):
`

// explainUnknown is explain's exit status when the only endpoints without a kept target
// are ones the files cannot answer for: not a failure, not a pass.
const explainUnknown = 3

// explainCmd runs `lookout-operator explain`.
func explainCmd(args []string, stdout, stderr io.Writer) int {
	cmd := newOpCommand("explain", explainUsage, stderr, "f", "n", "o", "prometheus", "kubeconfig", "color", "discovery-timeout")
	fs, usage := cmd.fs, cmd.usage
	var files stringList
	fs.Var(&files, "f", "explain offline from this manifest file or directory (repeatable; - for standard input)")
	which := fs.String("prometheus", "", "explain only for this Prometheus or PrometheusAgent (NAMESPACE/NAME or NAME)")
	output := fs.String("o", "text", "output: text or json")
	defaultNS := fs.String("n", "default", "namespace of a subject given without one (and of objects in -f files that name none)")
	timeout := fs.Duration("discovery-timeout", explain.DefaultDiscoveryTimeout, "bound on each discovery run")
	color := fs.String("color", "auto", "colour the text output: auto (when a terminal), always, never")
	pos, parsed, exit := cmd.parse(args)
	if exit >= 0 {
		return exit
	}
	if len(pos) != 2 || explainKinds[strings.ToLower(pos[0])] == "" || (*output != "text" && *output != "json") {
		usage()
		return 2
	}
	subject := explain.Subject{Kind: explainKinds[strings.ToLower(pos[0])], Namespace: *defaultNS, Name: pos[1]}
	if ns, name, ok := strings.Cut(pos[1], "/"); ok {
		subject.Namespace, subject.Name = ns, name
	}
	o := parsed.Options
	opts := explain.Options{
		MonitorScope: o.MonitorScope(), PrometheusScope: o.PrometheusScope(), ControllerID: o.ControllerID,
		Prometheus: *which, Timeout: *timeout,
	}
	if o.PrometheusInstanceSelector != nil && !o.PrometheusInstanceSelector.Empty() {
		opts.InstanceSelector, opts.InstanceSelectorText = o.PrometheusInstanceSelector, o.PrometheusInstanceSelector.String()
	}
	// client-go reports the informers' ends (and retries) through klog: explain reports
	// what matters itself.
	klog.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var in explain.Input
	if len(files) > 0 {
		objs, err := render.Load(*defaultNS, files...)
		if err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
		if in, err = explain.Offline(objs, subject); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
	} else {
		cfg, err := o.Client.RESTConfig("lookout-operator-explain")
		if err != nil {
			fmt.Fprintln(stderr, "error: no cluster to read (give --kubeconfig, or -f for offline):", err)
			return 1
		}
		if in, err = explain.Live(ctx, cfg, subject, opts); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
	}
	start := time.Now()
	rep, err := explain.Explain(ctx, in, subject, opts)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	if *output == "json" {
		if err := explain.WriteJSON(stdout, rep); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
	} else {
		st := explain.Style{}
		if *color == "always" || (*color == "auto" && isTerminal(stdout) && os.Getenv("NO_COLOR") == "") {
			st = explain.Colour
		}
		explain.WriteText(stdout, rep, st)
		fmt.Fprintf(stdout, "(explained in %.2fs)\n", time.Since(start).Seconds())
	}
	switch {
	case rep.OK:
		return 0
	case rep.Unknown:
		return explainUnknown
	}
	return 1
}

// isTerminal reports whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
