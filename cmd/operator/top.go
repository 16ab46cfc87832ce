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
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/costtop"
)

const topUsage = `usage: lookout-operator top [flags]

Shows, for each Prometheus of the cluster of --kubeconfig, the monitors (ServiceMonitors,
PodMonitors, Probes, ScrapeConfigs) and namespaces whose scrapes cost it most: samples
kept and series added per scrape, summed over their targets and the shards. It asks one
ready pod per shard, through the API server's pod proxy, for its active targets and
scrape_samples_post_metric_relabeling and scrape_series_added, as the operator's poll
does (read-only, with your permissions: list Prometheuses and pods, get pods/proxy).
Exit status: 0 when every Prometheus was measured, 1 when one could not be (or nothing
could be read), 2 for a usage error.

flags:
`

// topCmd runs `lookout-operator top` against the cluster of --kubeconfig.
func topCmd(args []string, stdout, stderr io.Writer) int {
	return runTop(args, stdout, stderr, nil)
}

// topCluster is what top reads the cluster with.
type topCluster struct {
	reader client.Reader
	get    costtop.Getter
}

// runTop runs top with cluster as the cluster access (nil: the cluster of --kubeconfig;
// tests give a fake one).
func runTop(args []string, stdout, stderr io.Writer, cluster *topCluster) int {
	cmd := newOpCommand("top", topUsage, stderr, "n", "prometheus", "top", "o", "timeout", "kubeconfig")
	fs, usage := cmd.fs, cmd.usage
	ns := fs.String("n", "", "namespace of the Prometheus objects (default: every namespace)")
	which := fs.String("prometheus", "", "measure only this Prometheus (NAMESPACE/NAME, or NAME with -n)")
	n := fs.Int("top", 10, "monitors and namespaces listed per Prometheus (0: all)")
	output := fs.String("o", "text", "output: text or json")
	timeout := fs.Duration("timeout", time.Minute, "bound on the whole run")
	pos, parsed, exit := cmd.parse(args)
	if exit >= 0 {
		return exit
	}
	if len(pos) != 0 || (*output != "text" && *output != "json") || *n < 0 || *timeout <= 0 {
		usage()
		return 2
	}
	opts := costtop.Options{Namespace: *ns, Prometheus: *which, N: *n}
	if pns, name, ok := strings.Cut(*which, "/"); ok {
		opts.Namespace, opts.Prometheus = pns, name
	}
	if opts.Prometheus != "" && opts.Namespace == "" {
		fmt.Fprintln(stderr, "error: --prometheus NAME needs -n NAMESPACE (or give NAMESPACE/NAME)")
		return 2
	}
	klog.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if cluster == nil {
		cfg, err := parsed.Options.Client.RESTConfig("lookout-operator-top")
		if err != nil {
			fmt.Fprintln(stderr, "error: no cluster to read (give --kubeconfig):", err)
			return 1
		}
		c, err := client.New(cfg, client.Options{Scheme: costtop.Scheme()})
		if err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
		get, err := costtop.ProxyGetter(cfg)
		if err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
		cluster = &topCluster{reader: c, get: get}
	}
	rep, err := costtop.Measure(ctx, cluster.reader, cluster.get, opts)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	if *output == "json" {
		if err := costtop.WriteJSON(stdout, rep); err != nil {
			fmt.Fprintln(stderr, "error:", err)
			return 1
		}
	} else {
		costtop.WriteText(stdout, rep)
	}
	if rep.Failed() {
		return 1
	}
	return 0
}
