package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/exporter-toolkit/web"
)

// healthBody is what /healthz answers, prometheus-config-reloader's body.
const healthBody = `{"status":"up"}`

// serve starts the /metrics and /healthz server on l and stops it when ctx is done.
// webConfigFile (--web-config-file, exporter-toolkit's format, read again on every TLS
// connection) adds TLS and basic authentication; empty serves plain HTTP.
func serve(ctx context.Context, l net.Listener, webConfigFile string, reg *prometheus.Registry, log *slog.Logger) <-chan error {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(healthBody))
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() {
		err := web.Serve(l, srv, &web.FlagConfig{WebConfigFile: &webConfigFile}, log.With("component", "web"))
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		if err != nil {
			err = fmt.Errorf("serving metrics: %w", err)
		}
		done <- err
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			log.Warn("stopping the metrics server", "err", err)
		}
	}()
	return done
}

// buildInfo is prometheus-config-reloader's build information metric.
func buildInfo() prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "prometheus_config_reloader_build_info",
		Help:        "A metric with a constant '1' value labeled by version and goversion from which prometheus_config_reloader was built.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version()},
	}, func() float64 { return 1 })
}
