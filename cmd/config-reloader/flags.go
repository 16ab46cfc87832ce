package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader"
	"github.com/lookout-operator/lookout/pkg/reloader/apiwatch"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
)

// Defaults of the Prometheus endpoints, for Prometheus in the same pod.
const (
	defaultReloadURL      = "http://127.0.0.1:9090/-/reload"
	defaultRuntimeInfoURL = "http://127.0.0.1:9090/api/v1/status/runtimeinfo"
)

// ordinalEnv is the variable prometheus-config-reloader derives from
// --statefulset-ordinal-from-envvar; $(STATEFULSET_ORDINAL_NUMBER) expands to it.
const ordinalEnv = "STATEFULSET_ORDINAL_NUMBER"

// config is the parsed command line.
type config struct {
	configFile     string
	configParts    []string
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
	webConfigFile  string
	ordinalFrom    string
	memlimitRatio  float64
	logLevel       string
	logFormat      string
	targets        []apiwatch.Target
	kubeconfig     string
	// reportPod is NAMESPACE/NAME of the pod whose status receives the loaded
	// configuration's hash (--report-pod); empty: no report.
	reportPod    string
	version      bool
	shortVersion bool
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

// parseFlags parses args; usage and errors go to out. Every flag of prometheus-operator's
// prometheus-config-reloader (v0.93) is accepted with its meaning, so pods generated for
// that image run this one; see Documentation/config-reloader.md for the differences.
func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("config-reloader", flag.ContinueOnError)
	fs.SetOutput(out)
	// The flags of prometheus-config-reloader.
	fs.StringVar(&c.configFile, "config-file", "", "config file to watch, gzipped or plain")
	fs.Var((*stringList)(&c.configParts), "config-part-file", "a further part of the config, read after --config-file and the parts before it as one config (repeatable; Lookout only: the operator spreads a config too large for one Secret over several)")
	fs.StringVar(&c.configOutFile, "config-envsubst-file", "", "output file for the config after gunzip and $(VAR) expansion")
	fs.DurationVar(&c.watchInterval, "watch-interval", reloader.DefaultWatchInterval, "interval of the periodic full check; 0 renders the config once and exits")
	fs.DurationVar(&c.delayInterval, "delay-interval", reloader.DefaultDelayInterval, "delay between the first file event and the check (debounce)")
	fs.DurationVar(&c.retryInterval, "retry-interval", reloader.DefaultRetryInterval, "delay before retrying a failed reload; doubles per failure up to 8x")
	fs.DurationVar(&c.reloadTimeout, "reload-timeout", reloader.DefaultReloadTimeout, "how long a reload may go unanswered before it is logged as overdue (once per timeout; the reloader keeps waiting for the answer, up to 15 minutes, rather than requesting another)")
	fs.Float64Var(&c.memlimitRatio, "auto-gomemlimit-ratio", 0, "set GOMEMLIMIT to this share (0 to 1) of the container's memory limit, or of the system's memory without one; 0 disables")
	fs.Var((*stringList)(&c.watchedDirs), "watched-dir", "directory whose files trigger a reload when they change (repeatable)")
	fs.StringVar(&c.reloadMethod, "reload-method", "http", "how to reload: http (POST to --reload-url) or signal (SIGHUP to --process-executable-name)")
	fs.StringVar(&c.processName, "process-executable-name", "prometheus", "name of the process to signal (signal method)")
	fs.StringVar(&c.ordinalFrom, "statefulset-ordinal-from-envvar", "POD_NAME", "environment variable whose trailing digits become $("+ordinalEnv+")")
	fs.StringVar(&c.listenAddress, "listen-address", ":8080", "address serving /metrics and /healthz; empty disables")
	fs.StringVar(&c.webConfigFile, "web-config-file", "", "web configuration file (TLS, basic auth) of the --listen-address server, exporter-toolkit format")
	fs.StringVar(&c.logFormat, "log-format", "logfmt", "log format: logfmt or json")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: all, debug, info, warn, error, none")
	fs.StringVar(&c.reloadURL, "reload-url", defaultReloadURL, "URL that triggers a reload (http method)")
	fs.StringVar(&c.runtimeInfoURL, "runtimeinfo-url", defaultRuntimeInfoURL, "Prometheus runtimeinfo URL that confirms each reload of the signal method (empty: no confirmation); ignored by the http method, whose answer confirms the reload")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.BoolVar(&c.shortVersion, "short-version", false, "print just the version number and exit")
	// Lookout's own.
	fs.StringVar(&c.processName, "process-name", "prometheus", "alias of --process-executable-name")
	fs.Var(targetList{apiwatch.KindSecret, &c.targets}, "watch-secret", "NAMESPACE/NAME=DIR: mirror that Secret's keys into DIR through the API (repeatable)")
	fs.Var(targetList{apiwatch.KindConfigMap, &c.targets}, "watch-configmap", "NAMESPACE/NAME=DIR: mirror that ConfigMap's keys into DIR through the API (repeatable)")
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "kubeconfig for the API watches and --report-pod; empty uses the in-cluster config")
	fs.StringVar(&c.reportPod, "report-pod", "", "NAMESPACE/NAME of the reloader's own pod: after each confirmed reload of a new configuration, write its name (the hex SHA-256 of its chunks' SHA-256, ADR 41; without --config-file, the hash of the watched directories' files, package dirhash) as the pod condition "+podreport.ConditionType+" (needs patch on pods/status)")
	// Spellings prometheus-config-reloader's flag library (kingpin) adds.
	var ignored, helpLong, helpMan bool
	fs.BoolVar(&ignored, "no-version", false, "kingpin spelling of --version=false")
	fs.BoolVar(&ignored, "no-short-version", false, "kingpin spelling of --short-version=false")
	fs.BoolVar(&helpLong, "help-long", false, "same as --help")
	fs.BoolVar(&helpMan, "help-man", false, "same as --help")

	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if helpLong || helpMan {
		fs.Usage()
		return c, flag.ErrHelp
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return c, c.validate()
}

// validate checks the combinations flag parsing cannot.
func (c config) validate() error {
	if c.version || c.shortVersion {
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
		if err := checkURL("reload-url", c.reloadURL); err != nil {
			return err
		}
	case "signal":
		if c.processName == "" {
			return errors.New("--reload-method=signal needs --process-executable-name")
		}
	default:
		return fmt.Errorf("unknown --reload-method %q (http, signal)", c.reloadMethod)
	}
	if c.reportPod != "" {
		if _, _, err := c.reportPodName(); err != nil {
			return err
		}
	}
	if u := c.runtimeInfoURL; u != "" {
		if err := checkURL("runtimeinfo-url", u); err != nil {
			return err
		}
	}
	return nil
}

// confirmURL is the runtimeinfo URL reloads are confirmed against, or empty for none.
// Only the signal method reads it, as in prometheus-config-reloader: with the http method
// Prometheus's answer to the POST is the confirmation (ADR 39), and the flag is accepted
// and ignored.
func (c config) confirmURL() string {
	if c.reloadMethod == "signal" {
		return c.runtimeInfoURL
	}
	return ""
}

// checkURL requires an absolute http or https URL.
func checkURL(flagName, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("--%s: %w", flagName, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--%s=%s: want an http or https URL with a host", flagName, raw)
	}
	return nil
}

// reportPodName splits --report-pod.
func (c config) reportPodName() (namespace, name string, err error) {
	namespace, name, ok := strings.Cut(c.reportPod, "/")
	if !ok || namespace == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("--report-pod=%s: want NAMESPACE/NAME", c.reportPod)
	}
	return namespace, name, nil
}
