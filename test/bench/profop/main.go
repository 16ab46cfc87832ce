// Command profop runs the Lookout operator in-process the way `lookout-operator run`
// does (operator.New with the run command's defaults, leader election off), and profiles
// it: a CPU profile from start to exit, heap profiles at a fixed interval and at exit, and
// net/http/pprof on a loopback address. The released binary has no pprof endpoint; this
// lets the scale benchmark show where time and memory go:
//
//	go build -o /tmp/profop ./test/bench/profop
//	go run ./test/bench -n 5000 -operator "/tmp/profop -out /tmp/prof"
//	go tool pprof -top /tmp/profop /tmp/prof/cpu.pprof
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/lookout-operator/lookout/pkg/operator"
)

func main() {
	// A flag set of its own: controller-runtime registers --kubeconfig on the global one.
	fs := flag.NewFlagSet("profop", flag.ExitOnError)
	kubeconfig := fs.String("kubeconfig", os.Getenv("KUBECONFIG"), "path to a kubeconfig")
	out := fs.String("out", "", "directory for cpu.pprof and heap-*.pprof (required)")
	every := fs.Duration("heap-every", 5*time.Second, "interval of heap profiles (0: only at exit)")
	pprofAddr := fs.String("pprof", "127.0.0.1:0", "loopback listen address of net/http/pprof (empty: off)")
	resourceStatus := fs.Bool("resource-status", true, "as lookout-operator run --resource-status")
	qps := fs.Float64("kube-api-qps", 100, "as lookout-operator run --kube-api-qps")
	burst := fs.Int("kube-api-burst", 200, "as lookout-operator run --kube-api-burst")
	_ = fs.Parse(os.Args[1:])
	if *out == "" {
		fmt.Fprintln(os.Stderr, "profop: -out is required")
		os.Exit(2)
	}
	if err := run(*kubeconfig, *out, *every, *pprofAddr, *resourceStatus, *qps, *burst); err != nil {
		fmt.Fprintln(os.Stderr, "profop:", err)
		os.Exit(1)
	}
}

func run(kubeconfig, out string, every time.Duration, pprofAddr string, resourceStatus bool, qps float64, burst int) error {
	ctrl.SetLogger(zap.New(zap.JSONEncoder()))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	cpu, err := os.Create(filepath.Join(out, "cpu.pprof"))
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return err
	}
	defer func() {
		pprof.StopCPUProfile()
		cpu.Close()
		_ = writeHeap(filepath.Join(out, "heap-exit.pprof"))
	}()
	if pprofAddr != "" {
		l, err := net.Listen("tcp", pprofAddr)
		if err != nil {
			return err
		}
		if ip := l.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
			return fmt.Errorf("-pprof must be a loopback address, not %s", ip)
		}
		fmt.Fprintf(os.Stderr, "profop: pprof on http://%s/debug/pprof/\n", l.Addr())
		go func() { _ = http.Serve(l, nil) }()
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = float32(qps), burst
	cfg.UserAgent = "lookout-operator/profop"
	o := operator.DefaultOptions()
	o.MetricsAddr, o.ProbeAddr = "0", "0"
	o.LeaderElection = false
	o.ResourceStatus = resourceStatus

	ctx := ctrl.SetupSignalHandler()
	if every > 0 {
		go heapLoop(ctx, out, every, start)
	}
	mgr, err := operator.New(ctx, cfg, o)
	if err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// heapLoop writes heap-<seconds since start>.pprof every interval.
func heapLoop(ctx context.Context, out string, every time.Duration, start time.Time) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			_ = writeHeap(filepath.Join(out, fmt.Sprintf("heap-%04.0fs.pprof", now.Sub(start).Seconds())))
		}
	}
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(os.Stderr, "profop: %s: heap in use %d MiB, heap sys %d MiB, total sys %d MiB, GCs %d\n",
		filepath.Base(path), ms.HeapInuse>>20, ms.HeapSys>>20, ms.Sys>>20, ms.NumGC)
	return pprof.Lookup("heap").WriteTo(f, 0)
}
