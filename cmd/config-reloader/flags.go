package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/apiwatch"
)

// Defaults of the Prometheus endpoints, for Prometheus in the same pod.
const (
	defaultReloadURL      = "http://127.0.0.1:9090/-/reload"
	defaultRuntimeInfoURL = "http://127.0.0.1:9090/api/v1/status/runtimeinfo"
)

// config is the parsed command line.
type config struct {
	configFile     string
	configOutFile  string
	watchedDirs    []string
	watchInterval  time.Duration
	delayInterval  time.Duration
	retryInterval  time.Duration
	reloadTimeout  time.Duration
	reloadURL      string
	runtimeInfoURL string
	reloadMethod   string
	processName    string
	listenAddress  string
	logLevel       string
	logFormat      string
	targets        []apiwatch.Target
	kubeconfig     string
	version        bool
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// targetList is a repeatable NAMESPACE/NAME=DIR flag of one kind.
type targetList struct {
	kind    apiwatch.Kind
	targets *[]apiwatch.Target
}

func (t targetList) String() string { return "" }
func (t targetList) Set(v string) error {
	tg, err := apiwatch.ParseTarget(t.kind, v)
	if err != nil {
		return err
	}
	*t.targets = append(*t.targets, tg)
	return nil
}

// parseFlags parses args; usage and errors go to out.
func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("config-reloader", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.configFile, "config-file", "", "config file to watch, gzipped or plain")
	fs.StringVar(&c.configOutFile, "config-envsubst-file", "", "output file for the config after gunzip and $(VAR) expansion")
	fs.Var((*stringList)(&c.watchedDirs), "watched-dir", "directory whose files trigger a reload when they change (repeatable)")
	fs.DurationVar(&c.watchInterval, "watch-interval", reloader.DefaultWatchInterval, "interval of the periodic full check; 0 renders the config once and exits")
	fs.DurationVar(&c.delayInterval, "delay-interval", reloader.DefaultDelayInterval, "delay between the first file event and the check (debounce)")
	fs.DurationVar(&c.retryInterval, "retry-interval", reloader.DefaultRetryInterval, "delay before retrying a failed reload; doubles per failure up to 8x")
	fs.DurationVar(&c.reloadTimeout, "reload-timeout", reloader.DefaultReloadTimeout, "timeout of one reload, confirmation included")
	fs.StringVar(&c.reloadURL, "reload-url", defaultReloadURL, "URL that triggers a reload (http method)")
	fs.StringVar(&c.runtimeInfoURL, "runtimeinfo-url", defaultRuntimeInfoURL, "Prometheus runtimeinfo URL used to confirm reloads; empty skips the confirmation")
	fs.StringVar(&c.reloadMethod, "reload-method", "http", "how to reload: http (POST to --reload-url) or signal (SIGHUP to --process-name)")
	fs.StringVar(&c.processName, "process-name", "prometheus", "name of the process to signal (signal method)")
	fs.StringVar(&c.processName, "process-executable-name", "prometheus", "alias of --process-name (prometheus-config-reloader's name)")
	fs.StringVar(&c.listenAddress, "listen-address", ":8080", "address serving /metrics and /healthz; empty disables")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.StringVar(&c.logFormat, "log-format", "logfmt", "log format: logfmt or json")
	fs.Var(targetList{apiwatch.KindSecret, &c.targets}, "watch-secret", "NAMESPACE/NAME=DIR: mirror that Secret's keys into DIR through the API (repeatable)")
	fs.Var(targetList{apiwatch.KindConfigMap, &c.targets}, "watch-configmap", "NAMESPACE/NAME=DIR: mirror that ConfigMap's keys into DIR through the API (repeatable)")
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "kubeconfig for the API watches; empty uses the in-cluster config")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return c, c.validate()
}

// validate checks the combinations flag parsing cannot.
func (c config) validate() error {
	if c.version {
		return nil
	}
	if c.configFile == "" && len(c.watchedDirs) == 0 {
		return errors.New("nothing to do: set --config-file and/or --watched-dir")
	}
	if c.configOutFile != "" && c.configFile == "" {
		return errors.New("--config-envsubst-file needs --config-file")
	}
	for name, d := range map[string]time.Duration{"watch-interval": c.watchInterval, "delay-interval": c.delayInterval,
		"retry-interval": c.retryInterval, "reload-timeout": c.reloadTimeout} {
		if d < 0 {
			return fmt.Errorf("--%s must not be negative", name)
		}
	}
	if c.retryInterval == 0 || c.reloadTimeout == 0 {
		return errors.New("--retry-interval and --reload-timeout must be positive")
	}
	switch c.reloadMethod {
	case "http":
		if c.reloadURL == "" {
			return errors.New("--reload-method=http needs --reload-url")
		}
	case "signal":
		if c.processName == "" {
			return errors.New("--reload-method=signal needs --process-name")
		}
	default:
		return fmt.Errorf("unknown --reload-method %q (http, signal)", c.reloadMethod)
	}
	return nil
}
