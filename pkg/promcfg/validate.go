package promcfg

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"

	"github.com/prometheus/prometheus/config"
	// Register the service discoveries Lookout generates so config.Load understands them.
	_ "github.com/prometheus/prometheus/discovery/dns"
	_ "github.com/prometheus/prometheus/discovery/file"
	_ "github.com/prometheus/prometheus/discovery/http"
	_ "github.com/prometheus/prometheus/discovery/kubernetes"
)

var discardLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// renamedKeyRE finds keys that older releases spell differently (see renamedForValidation).
var renamedKeyRE = regexp.MustCompile(`(?m)^(\s*)scrape_classic_histograms:`)

// Validate loads a complete configuration with Prometheus's own loader, the same code path
// Prometheus runs on reload. Tests and the render command use it on whole files. What
// Prometheus 2.x spells differently (scrape_classic_histograms, Alertmanager
// api_version v1) is mapped to the current spelling first; Generate does this only for
// a 2.x Prometheus.
func Validate(cfg []byte) error {
	_, err := load(alertmanagerV1ToV2(cfg))
	return err
}

// load is Validate returning what the loader built.
func load(cfg []byte) (*config.Config, error) {
	if bytes.Contains(cfg, []byte("scrape_classic_histograms:")) {
		cfg = renamedKeyRE.ReplaceAll(cfg, []byte("${1}always_scrape_classic_histograms:"))
	}
	c, err := config.Load(string(cfg), discardLogger)
	if err != nil {
		return nil, cleanLoadError(err)
	}
	return c, nil
}

// cleanLoadError shortens yaml's multi-line errors into one line for status messages.
func cleanLoadError(err error) error {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	return fmt.Errorf("rejected by Prometheus's config loader: %s", msg)
}
