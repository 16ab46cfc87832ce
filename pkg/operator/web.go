package operator

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/pprof"
	"os"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/lookout-operator/lookout/pkg/periodic"
	"github.com/lookout-operator/lookout/pkg/webhook"
)

// webServer builds the options of the metrics listener, which plays the part of
// prometheus-operator's web server: /metrics, /healthz and, when it serves TLS
// (--web.enable-tls with a certificate), the admission and conversion webhook paths. The
// API server calls webhooks over HTTPS only, so on a plain-HTTP listener those paths
// would serve nobody but other processes of the network (ADR 27). The runnables
// (certificate watchers) must be added to the manager.
func webServer(o Options, log logr.Logger) (metricsserver.Options, []manager.Runnable, error) {
	mo := metricsserver.Options{BindAddress: o.MetricsAddr}
	if o.MetricsAddr == "0" {
		return mo, nil, nil
	}
	mo.ExtraHandlers = map[string]http.Handler{
		"/healthz": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }),
	}
	if o.Web.Pprof {
		// prometheus-operator's paths on its web listener.
		mo.ExtraHandlers["/debug/pprof/"] = http.HandlerFunc(pprof.Index)
		mo.ExtraHandlers["/debug/pprof/cmdline"] = http.HandlerFunc(pprof.Cmdline)
		mo.ExtraHandlers["/debug/pprof/profile"] = http.HandlerFunc(pprof.Profile)
		mo.ExtraHandlers["/debug/pprof/symbol"] = http.HandlerFunc(pprof.Symbol)
		mo.ExtraHandlers["/debug/pprof/trace"] = http.HandlerFunc(pprof.Trace)
	}
	if !o.Web.TLS {
		return mo, nil, nil
	}
	if o.Web.CertFile == "" && o.Web.KeyFile == "" {
		log.Info("--web.enable-tls without a certificate and key: serving plain HTTP, as prometheus-operator does (without the webhook paths)")
		return mo, nil, nil
	}
	if err := addWebhooks(mo.ExtraHandlers); err != nil {
		return mo, nil, err
	}
	cw, err := certwatcher.New(o.Web.CertFile, o.Web.KeyFile)
	if err != nil {
		return mo, nil, fmt.Errorf("loading the web listener's certificate: %w", err)
	}
	cw = cw.WithWatchInterval(o.Web.ReloadInterval)
	runnables := []manager.Runnable{cw}
	var clientCA *caFile
	if o.Web.ClientCAFile != "" {
		switch info, err := os.Stat(o.Web.ClientCAFile); {
		case err != nil:
			log.Info("web listener: client certificates are not verified", "clientCAFile", o.Web.ClientCAFile, "reason", err.Error())
		case !info.Mode().IsRegular():
			log.Info("web listener: client certificates are not verified", "clientCAFile", o.Web.ClientCAFile, "reason", "not a regular file")
		default:
			if clientCA, err = newCAFile(o.Web.ClientCAFile, o.Web.ReloadInterval); err != nil {
				return mo, nil, err
			}
			runnables = append(runnables, clientCA)
			log.Info("web listener: client certificates required", "clientCAFile", o.Web.ClientCAFile)
		}
	}
	mo.SecureServing = true
	mo.TLSOpts = []func(*tls.Config){func(c *tls.Config) {
		c.GetCertificate = cw.GetCertificate
		c.MinVersion = o.Web.MinVersion
		c.CipherSuites = o.Web.CipherSuites
		c.CurvePreferences = o.Web.Curves
		if !o.Web.HTTP2 {
			c.NextProtos = []string{"http/1.1"}
		}
		if clientCA != nil {
			c.ClientAuth = tls.RequireAndVerifyClientCert
			base := c.Clone()
			c.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
				cc := base.Clone()
				cc.ClientCAs = clientCA.pool()
				return cc, nil
			}
		}
	}}
	return mo, runnables, nil
}

// caFile is a client CA bundle re-read when the file changes.
type caFile struct {
	path     string
	interval time.Duration

	mu      sync.RWMutex
	current *x509.CertPool
	modTime time.Time
}

func newCAFile(path string, interval time.Duration) (*caFile, error) {
	c := &caFile{path: path, interval: interval}
	if err := c.load(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *caFile) load() error {
	info, err := os.Stat(c.path)
	if err != nil {
		return fmt.Errorf("client CA %s: %w", c.path, err)
	}
	c.mu.RLock()
	same := info.ModTime().Equal(c.modTime) && c.current != nil
	c.mu.RUnlock()
	if same {
		return nil
	}
	data, err := os.ReadFile(c.path)
	if err != nil {
		return fmt.Errorf("client CA %s: %w", c.path, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return fmt.Errorf("client CA %s holds no PEM certificate", c.path)
	}
	c.mu.Lock()
	c.current, c.modTime = pool, info.ModTime()
	c.mu.Unlock()
	return nil
}

func (c *caFile) pool() *x509.CertPool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.current
}

// Start re-reads the file every interval until ctx ends; a bad new file keeps the old
// bundle.
func (c *caFile) Start(ctx context.Context) error {
	if c.interval <= 0 {
		c.interval = time.Minute
	}
	periodic.Every(ctx, c.interval, func() {
		if err := c.load(); err != nil {
			logr.FromContextOrDiscard(ctx).Error(err, "keeping the previous client CA")
		}
	})
	return nil
}

// NeedLeaderElection: every replica serves its listener.
func (c *caFile) NeedLeaderElection() bool { return false }

// addWebhooks adds the admission and conversion webhook paths prometheus-operator serves
// on its web listener, each with its body bounded (webhook.Limit).
func addWebhooks(h map[string]http.Handler) error {
	validator, err := webhook.NewValidator(webhook.Options{})
	if err != nil {
		return err
	}
	convert, err := webhook.NewConversionHandler()
	if err != nil {
		return err
	}
	// The AlertmanagerConfig webhook runs the Alertmanager controller's own check
	// (amcfg.Check); it reads no Secret, so a reference it cannot resolve is not held
	// against the object (the controller reports it).
	h[webhook.ValidatePath] = webhook.Limit(&admission.Webhook{Handler: validator})
	h[webhook.MutatePath] = webhook.Limit(&admission.Webhook{Handler: webhook.Mutator{}})
	h[webhook.AlertmanagerConfigValidatePath] = webhook.Limit(&admission.Webhook{Handler: &webhook.AlertmanagerConfigValidator{}})
	h[webhook.ConvertPath] = webhook.Limit(convert)
	return nil
}
