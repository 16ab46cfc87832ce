package promcfg

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"

	"github.com/prometheus/prometheus/config"
	// Register the service discoveries Lookout generates so config.Load understands and
	// validates them: the configuration of one not registered is refused as an unknown
	// field. These are the discoveries a ScrapeConfig can use (see scrapeconfig_sd.go).
	_ "github.com/prometheus/prometheus/discovery/aws"          // ec2, lightsail
	_ "github.com/prometheus/prometheus/discovery/azure"        // azure
	_ "github.com/prometheus/prometheus/discovery/consul"       // consul
	_ "github.com/prometheus/prometheus/discovery/digitalocean" // digitalocean
	_ "github.com/prometheus/prometheus/discovery/dns"          // dns
	_ "github.com/prometheus/prometheus/discovery/eureka"       // eureka
	_ "github.com/prometheus/prometheus/discovery/file"         // file
	_ "github.com/prometheus/prometheus/discovery/gce"          // gce
	_ "github.com/prometheus/prometheus/discovery/hetzner"      // hetzner
	_ "github.com/prometheus/prometheus/discovery/http"         // http
	_ "github.com/prometheus/prometheus/discovery/ionos"        // ionos
	_ "github.com/prometheus/prometheus/discovery/kubernetes"   // kubernetes
	_ "github.com/prometheus/prometheus/discovery/linode"       // linode
	_ "github.com/prometheus/prometheus/discovery/moby"         // docker, dockerswarm
	_ "github.com/prometheus/prometheus/discovery/nomad"        // nomad
	_ "github.com/prometheus/prometheus/discovery/openstack"    // openstack
	_ "github.com/prometheus/prometheus/discovery/ovhcloud"     // ovhcloud
	_ "github.com/prometheus/prometheus/discovery/puppetdb"     // puppetdb
	_ "github.com/prometheus/prometheus/discovery/scaleway"     // scaleway
	_ "github.com/prometheus/prometheus/discovery/xds"          // kuma
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

// Load is Validate returning what Prometheus's loader built (explain drives discovery
// and relabeling with it).
func Load(cfg []byte) (*config.Config, error) {
	return load(alertmanagerV1ToV2(cfg))
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
