package promcfg

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"regexp"
	"slices"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery"
	"github.com/prometheus/prometheus/model/labels"
)

// The configuration Generate returns is loaded by Prometheus's own loader, after the
// config-reloader's substitutions, before it is returned: nothing the operator builds is
// taken on trust. Loading the whole file at once costs about 1 ms per monitor on every
// change (10 s and 1.9 GB of allocations for 10,000 ServiceMonitors), so the file is loaded
// in pieces whose verdicts together are the verdict on the whole file:
//
//   - the header (every section but the monitors' jobs) with the jobs of
//     additionalScrapeConfigs, once per distinct content;
//   - each monitor's jobs, byte for byte as they are written, under the header's global
//     section, once per rendering (a changed global section re-renders every monitor);
//   - the job names, unique across the file.
//
// A relabel rule's regex weighs on the loader's verdict in two ways only: it compiles or
// not, and it is set or left to the default (Config.Validate compares it with the default
// and nothing else). Compiling the same few expressions for every monitor was a fifth of
// a cold start's CPU, so a batch of monitors is first loaded with each regex value the
// loader has already seen compile replaced by the empty expression, which compiles too
// (elideKnownRegexes). Only an acceptance is taken from that load: when it refuses, each
// monitor is loaded again as written, for its own verdict and message.
//
// Rules already seen load are left out of batch loads too (knownrules.go, ADR 37), and so
// are whole jobs whose shape, their text but for the job name and the namespaces their
// Kubernetes discovery lists, was seen load (knownshapes.go, ADR 40).
//
// Prometheus's Config.UnmarshalYAML checks each scrape config against the global section
// alone (ScrapeConfig.Validate) and the job names for duplicates across scrape configs;
// every other check concerns the header. Each monitor's piece must be list items of
// scrape_configs and nothing else (no line starts in column 0 except "- "), and must load
// as exactly the jobs it names, so concatenating the pieces cannot change what they mean.
//
// The loader Lookout links is Prometheus 3's. For a 2.x Prometheus that allows only legacy
// names, the checked text sets metric_name_validation_scheme: legacy in the global section
// (2.x judges relabel rules that way) and the label names of static configurations and
// external labels, which Prometheus 3 judges as UTF-8 whatever the scheme, are checked
// with the legacy rules after loading.

// fileCheck loads the pieces of one generated configuration.
type fileCheck struct {
	loader *loader
	env    map[string]string
	// legacy is set when the Prometheus is a 2.x release allowing only legacy names.
	legacy bool
	// v2 is set when the Prometheus is a 2.x release, which still speaks Alertmanager
	// API v1: the header is checked with api_version v2 in its place.
	v2 bool
	// global is the global section as the reloader writes it; globalSum its SHA-256,
	// which every monitor's rendering records as what its jobs were loaded with.
	global    []byte
	globalSum [32]byte
	// elide is set when no value the reloader substitutes can change the lines of a text
	// (see elideKnownRegexes).
	elide bool
}

func newFileCheck(l *loader, env map[string]string, legacy bool, globalOnly []byte) *fileCheck {
	c := &fileCheck{loader: l, env: env, legacy: legacy, elide: true}
	for _, v := range env {
		c.elide = c.elide && lineSafe(v)
	}
	c.global = c.prepare(globalOnly)
	c.globalSum = sha256.Sum256(c.global)
	return c
}

// legacyScheme is set in the global section of the text checked for a 2.x Prometheus
// that allows only legacy names.
const legacyScheme = "  metric_name_validation_scheme: legacy\n"

// prepare turns generated text, which begins with the global section when it is the
// header, into the text that is loaded: the reloader's substitutions are made and, for a
// legacy-names 2.x Prometheus, the name validation scheme is set.
func (c *fileCheck) prepare(text []byte) []byte {
	text = expandAsReloader(text, c.env)
	if c.legacy && bytes.HasPrefix(text, []byte("global:\n")) {
		n := len("global:\n")
		out := make([]byte, 0, len(text)+len(legacyScheme))
		out = append(append(append(out, text[:n]...), legacyScheme...), text[n:]...)
		return out
	}
	return text
}

// afterLoad checks what Prometheus 3's loader judges differently from a legacy-names 2.x
// Prometheus: the label names of static configurations and external labels.
func (c *fileCheck) afterLoad(cfg *config.Config) error {
	if !c.legacy {
		return nil
	}
	var bad []string
	cfg.GlobalConfig.ExternalLabels.Range(func(l labels.Label) {
		if !model.LegacyValidation.IsValidLabelName(l.Name) {
			bad = append(bad, l.Name)
		}
	})
	groups := func(sds discovery.Configs) {
		for _, sd := range sds {
			static, ok := sd.(discovery.StaticConfig)
			if !ok {
				continue
			}
			for _, g := range static {
				for name := range g.Labels {
					if !model.LegacyValidation.IsValidLabelName(string(name)) {
						bad = append(bad, string(name))
					}
				}
			}
		}
	}
	for _, job := range cfg.ScrapeConfigs {
		groups(job.ServiceDiscoveryConfigs)
	}
	for _, am := range cfg.AlertingConfig.AlertmanagerConfigs {
		groups(am.ServiceDiscoveryConfigs)
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return fmt.Errorf("label names %q are not valid for a Prometheus that allows only legacy names", slices.Compact(bad))
	}
	return nil
}

// header loads the header with the jobs of additionalScrapeConfigs under scrape_configs.
// The header must begin with the global section monitors are loaded with.
func (c *fileCheck) header(header, globalOnly []byte, extraJobs []any) error {
	if !bytes.HasPrefix(header, globalOnly) {
		return fmt.Errorf("internal error: the header does not begin with the global section monitors are checked with")
	}
	var b bytes.Buffer
	b.Write(header)
	b.WriteString("scrape_configs:\n")
	for _, j := range extraJobs {
		b.Write(EncodeListItem(j.(M)))
	}
	text := c.prepare(b.Bytes())
	if c.v2 {
		text = alertmanagerV1ToV2(text)
	}
	return c.loader.verdict(text, c.afterLoad)
}

// apiVersionV1RE finds the Alertmanager API version v1, which Prometheus 2.x accepts and
// the loader Lookout links (Prometheus 3's) no longer does. api_version is a key of
// alertmanager configurations only.
var apiVersionV1RE = regexp.MustCompile(`(?m)^(\s*(?:- )?)api_version: v1$`)

// alertmanagerV1ToV2 maps api_version v1 to v2 for the loader: the two differ in nothing
// else the loader checks.
func alertmanagerV1ToV2(text []byte) []byte {
	if !bytes.Contains(text, []byte("api_version: v1")) {
		return text
	}
	return apiVersionV1RE.ReplaceAll(text, []byte("${1}api_version: v2"))
}

// jobs loads the jobs of one or more monitors, each text as written under scrape_configs
// and the texts one after the other, with the global section, and checks that they are
// exactly the jobs names (names[i] for texts[i]). With elide, the jobs of a shape known
// to load are left out (leaveOutKnownShapes), then the rules known to load
// (elideKnownRules), and the regex values known to compile are replaced
// (elideKnownRegexes): only a nil error is then a verdict.
func (c *fileCheck) jobs(texts [][]byte, names [][]string, elide bool) error {
	size := len(c.global) + 32
	for _, t := range texts {
		size += len(t)
	}
	doc := make([]byte, 0, size)
	doc = append(doc, c.global...)
	doc = append(doc, "scrape_configs:\n"...)
	var want []string
	for i, t := range texts {
		t = expandAsReloader(t, c.env)
		if !listItemsOnly(t) {
			return fmt.Errorf("internal error: the text of the jobs is not a list of scrape configs")
		}
		doc = append(doc, t...)
		for _, n := range names[i] {
			want = append(want, string(expandAsReloader([]byte(n), c.env)))
		}
	}
	var learned []ruleKey
	var shapes []shapeKey
	if elide && c.elide {
		jobsAt := len(c.global) + len("scrape_configs:\n")
		doc, want, shapes = c.leaveOutKnownShapes(doc, jobsAt, want)
		if len(want) == 0 {
			return nil
		}
		var jobs []byte
		jobs, learned = c.elideKnownRules(doc[jobsAt:])
		doc = c.elideKnownRegexes(append(doc[:jobsAt:jobsAt], jobs...))
	}
	cfg, err := c.loader.config(doc)
	if err != nil {
		return err
	}
	if err := c.afterLoad(cfg); err != nil {
		return err
	}
	if len(cfg.ScrapeConfigs) != len(want) {
		return fmt.Errorf("internal error: %d jobs rendered, %d loaded", len(want), len(cfg.ScrapeConfigs))
	}
	for i, job := range cfg.ScrapeConfigs {
		if job.JobName != want[i] {
			return fmt.Errorf("internal error: job %q rendered, %q loaded", want[i], job.JobName)
		}
	}
	c.loader.learnRules(learned)
	c.loader.learnShapes(shapes)
	return nil
}

// listItemsOnly reports whether every line of text is part of a top-level list item:
// it starts with "- " or a space, and text ends with a newline.
func listItemsOnly(text []byte) bool {
	if len(text) > 0 && text[len(text)-1] != '\n' {
		return false
	}
	for len(text) > 0 {
		if text[0] != ' ' && !bytes.HasPrefix(text, []byte("- ")) {
			return false
		}
		text = text[bytes.IndexByte(text, '\n')+1:]
	}
	return true
}

// lineSafe reports whether a value the reloader substitutes is made of characters that
// cannot change the lines of YAML text it lands in: no line breaks, quotes, escapes, or
// indicators that open a block or flow collection spanning lines.
func lineSafe(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Keys under which a job lists its relabel rules, as written at a job's indent (jobs are
// items of the top-level list, their keys at column 2) with nothing after the colon.
var relabelListKeys = [][]byte{[]byte("  relabel_configs:"), []byte("  metric_relabel_configs:")}

// ruleLines follows a job's text line by line and tells the lines of its relabel rules:
// the items at column 2 below relabel_configs or metric_relabel_configs, their other keys
// at column 4 (the generator writes every scalar on one line).
type ruleLines struct{ in bool }

// rule reports whether line, the next line without its newline, belongs to a rule.
func (r *ruleLines) rule(line []byte) bool {
	switch {
	case bytes.Equal(line, relabelListKeys[0]) || bytes.Equal(line, relabelListKeys[1]):
		r.in = true
		return false
	case !bytes.HasPrefix(line, []byte("  - ")) && !bytes.HasPrefix(line, []byte("    ")):
		r.in = false
	}
	return r.in
}

// cutRegexKey splits a rule's line that sets its regex into the key, as written with
// its indent ("  - regex: " or "    regex: "), and the value.
func cutRegexKey(line []byte) (key, value []byte, ok bool) {
	for _, k := range [][]byte{[]byte("  - regex: "), []byte("    regex: ")} {
		if v, found := bytes.CutPrefix(line, k); found {
			return k, v, true
		}
	}
	return nil, nil, false
}

// elideKnownRegexes returns doc, monitors' jobs under scrape_configs as the generator
// writes them, with the value of every relabel rule's regex that the loader has seen
// compile replaced by "". The generator writes every scalar on one line, so the rules of
// a job's relabel_configs and metric_relabel_configs are the items at column 2 below the
// key, their keys at column 4: a regex key is "  - regex: " or "    regex: " there. doc
// itself is left as it is.
func (c *fileCheck) elideKnownRegexes(doc []byte) []byte {
	var out []byte // nil until the first change
	var rules ruleLines
	for start := 0; start < len(doc); {
		end := len(doc)
		if i := bytes.IndexByte(doc[start:], '\n'); i >= 0 {
			end = start + i
		}
		line := doc[start:end]
		var value []byte
		if rules.rule(line) {
			_, value, _ = cutRegexKey(line)
		}
		if value != nil && string(value) != `""` && c.loader.regexCompiles(value) {
			if out == nil {
				out = append(make([]byte, 0, len(doc)), doc[:start]...)
			}
			out = append(append(out, line[:len(line)-len(value)]...), `""`...)
		} else if out != nil {
			out = append(out, line...)
		}
		if out != nil && end < len(doc) {
			out = append(out, '\n')
		}
		start = end + 1
	}
	if out == nil {
		return doc
	}
	return out
}
