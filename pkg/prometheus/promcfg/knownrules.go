package promcfg

import (
	"bytes"
	"crypto/sha256"
)

// A relabel rule's verdict does not depend on the job it is in. Prometheus's loader
// unmarshals each item of relabel_configs and metric_relabel_configs on its own
// (relabel.Config.UnmarshalYAML), and the job then checks that no item is null and
// validates each one against the job's name validation scheme (ScrapeConfig.Validate);
// the one check that reads the list as a whole, of static targets written as URLs, runs
// only when relabel_configs is empty. So a job loads exactly when the job without some of
// its rules loads and each rule left out loads, under the same global section, provided
// that every list keeps at least one item and the job sets no scheme of its own.
//
// Most rules of a monitor's jobs are the same for every monitor (the job, namespace,
// service, pod and container labels); a few carry the monitor's own values. A batch load
// (fileCheck.jobs with elision) therefore leaves out every rule this loader has already
// seen load under the same global section, except the first of each list, and learns the
// rules of every batch that loads. At 20,000 ServiceMonitors this takes three quarters of
// the text out of the loads (ADR 37). As with the elided regexes, only an acceptance is
// taken from such a load: a refusal loads each monitor again as written.

// ruleKey identifies a relabel rule's text as written under one global section.
type ruleKey [16]byte

// maxRememberedRules bounds the rules a loader remembers (16 bytes each, about 1.5 MB
// with the map's overhead); it forgets them all when full and learns the common ones
// again from the next batch.
const maxRememberedRules = 1 << 15

func newRuleKey(global [32]byte, rule []byte) ruleKey {
	h := sha256.New()
	h.Write(global[:])
	h.Write(rule)
	var k ruleKey
	copy(k[:], h.Sum(nil))
	return k
}

// ruleKnown reports whether the rule k was seen load.
func (l *loader) ruleKnown(k ruleKey) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.rules[k]
	return ok
}

// learnRules records rules that loaded.
func (l *loader) learnRules(ks []ruleKey) {
	if len(ks) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rememberAll(l.rules, ks, maxRememberedRules)
}

// schemeKey is a job's own name validation scheme, which rules are validated against
// instead of the global section's: a job that sets it keeps all its rules.
var schemeKey = []byte("\n  metric_name_validation_scheme:")

// elideKnownRules returns doc, monitors' jobs under scrape_configs as the generator
// writes them (every scalar on one line: a rule is an item at column 2 below its list's
// key, its other lines at column 4 or deeper), without the rules the loader knows, and
// the keys of the rules it kept, which the caller learns when the text loads. doc itself
// is left as it is.
func (c *fileCheck) elideKnownRules(doc []byte) ([]byte, []ruleKey) {
	out := make([]byte, 0, len(doc))
	var kept []ruleKey
	for len(doc) > 0 {
		// The next job: from a line starting with "- " to the next one.
		start := 0
		if !bytes.HasPrefix(doc, []byte("- ")) {
			start = bytes.Index(doc, []byte("\n- "))
			if start < 0 {
				return append(out, doc...), kept
			}
			start++
			out = append(out, doc[:start]...)
			doc = doc[start:]
		}
		end := jobLen(doc)
		job := doc[:end]
		doc = doc[end:]
		if bytes.Contains(job, schemeKey) {
			out = append(out, job...)
			continue
		}
		out, kept = c.elideJobRules(out, job, kept)
	}
	return out, kept
}

// jobLen is the length of the job doc starts with ("- " at column 0): up to the next line
// that starts another, or all of doc.
func jobLen(doc []byte) int {
	if i := bytes.Index(doc, []byte("\n- ")); i >= 0 {
		return i + 1
	}
	return len(doc)
}

// elideJobRules appends job to out without its known rules but the first of each list.
func (c *fileCheck) elideJobRules(out, job []byte, kept []ruleKey) ([]byte, []ruleKey) {
	inRules := false
	items := 0      // rules of the current list read so far
	var item []byte // the rule being read (a slice of job), nil outside one
	flush := func() {
		if item == nil {
			return
		}
		k := newRuleKey(c.globalSum, item)
		known := c.loader.ruleKnown(k)
		if items == 0 || !known {
			out = append(out, item...)
			if !known {
				kept = append(kept, k)
			}
		}
		item = nil
		items++
	}
	for len(job) > 0 {
		end := len(job)
		if i := bytes.IndexByte(job, '\n'); i >= 0 {
			end = i + 1
		}
		line := job[:end]
		job = job[end:]
		switch {
		case inRules && bytes.HasPrefix(line, []byte("  - ")):
			flush()
			item = line
			continue
		case inRules && item != nil && bytes.HasPrefix(line, []byte("    ")):
			item = item[:len(item)+len(line)] // the next line of the same text
			continue
		}
		flush()
		trimmed := bytes.TrimSuffix(line, []byte("\n"))
		inRules = bytes.Equal(trimmed, relabelListKeys[0]) || bytes.Equal(trimmed, relabelListKeys[1])
		items = 0
		out = append(out, line...)
	}
	flush()
	return out, kept
}
