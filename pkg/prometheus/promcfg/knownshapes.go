package promcfg

import (
	"bytes"
	"crypto/sha256"
)

// A job's verdict does not depend on its name or on the namespaces its Kubernetes
// discovery lists, as long as each is a non-empty string. Prometheus's loader reads
// job_name into a string, refuses it only when empty and checks names for duplicates
// across jobs (which the generator checks on its own, claimJobNames); it reads
// kubernetes_sd_configs' namespaces.names into strings and checks nothing about them
// (kubernetes.SDConfig.Validate reads only own_namespace beside the API server settings).
// Nor does it depend on a relabel rule's regex beyond whether it compiles and whether it
// is set (ADR 25): an expression of literals, alternations, anchors and balanced groups
// always compiles and is never the default.
//
// Most jobs of a cluster differ only there: monitors made from one template, each in its
// team's namespace, selecting its own Service. A batch load therefore leaves out every
// job whose shape, its text with the name, the namespace names and the simple regexes
// replaced by a placeholder, loaded before under the same global section (ADR 40). A
// value is replaced only when it is a plain scalar that yaml.v2 reads as itself whatever
// it resolves to (shapeToken, plainValue), so that two jobs of one shape are the same
// YAML structure with other strings in those places. The name of a job left out is
// compared with the rendered one as text, as the load would have compared it.

// shapeKey identifies a job's shape under one global section.
type shapeKey [32]byte

// maxRememberedShapes bounds the shapes a loader remembers (32 bytes each); it forgets
// them all when full.
const maxRememberedShapes = 1 << 14

// shapeKnown reports whether a job of shape k was part of a load that succeeded, and
// counts the jobs it lets be left out.
func (l *loader) shapeKnown(k shapeKey) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.shapes[k]
	if ok {
		l.shapesLeftOut++
	}
	return ok
}

// learnShapes records shapes of jobs that loaded.
func (l *loader) learnShapes(ks []shapeKey) {
	if len(ks) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rememberAll(l.shapes, ks, maxRememberedShapes)
}

var (
	jobNameLine    = []byte("- job_name: ")
	k8sSDKey       = []byte("  kubernetes_sd_configs:")
	namespacesKey  = []byte("    namespaces:")
	namesKey       = []byte("      names:")
	namesItem      = []byte("      - ")
	shapeHoleValue = []byte{0} // never in generated YAML text
)

// jobShape returns the shape of job, one job as the generator writes it (every scalar on
// one line, "- job_name: " first), and the name it was written with. ok is false when
// the name is not a plain token: such a job is always loaded.
func (c *fileCheck) jobShape(job []byte) (k shapeKey, name string, ok bool) {
	first, _, _ := bytes.Cut(job, []byte("\n"))
	raw, found := bytes.CutPrefix(first, jobNameLine)
	if !found || !shapeToken(raw) {
		return k, "", false
	}
	h := sha256.New()
	h.Write(c.globalSum[:])
	h.Write(jobNameLine)
	h.Write(shapeHoleValue)
	var inSD, inNamespaces, inNames bool
	var rules ruleLines
	rest := job[len(first):]
	for len(rest) > 0 {
		end := len(rest)
		if i := bytes.IndexByte(rest[1:], '\n'); i >= 0 {
			end = i + 1
		}
		line := rest[:end] // with the newline in front of it
		rest = rest[end:]
		text := line[1:]
		if rules.rule(text) {
			if key, v, ok := cutRegexKey(text); ok && simpleRegexValue(v) {
				h.Write(line[:1+len(key)])
				h.Write(shapeHoleValue)
				continue
			}
		}
		// Where the line is: under kubernetes_sd_configs (its items at "  - ", their keys
		// at column 4), under an item's namespaces (keys at column 6), under its names.
		switch {
		case bytes.Equal(text, k8sSDKey):
			inSD, inNamespaces, inNames = true, false, false
		case inSD && !bytes.HasPrefix(text, []byte("  - ")) && !bytes.HasPrefix(text, []byte("    ")):
			inSD, inNamespaces, inNames = false, false, false
		case inSD && bytes.Equal(text, namespacesKey):
			inNamespaces, inNames = true, false
		case inNamespaces && !bytes.HasPrefix(text, []byte("      ")):
			inNamespaces, inNames = false, false
		case inNamespaces && bytes.Equal(text, namesKey):
			inNames = true
		case inNames && bytes.HasPrefix(text, namesItem):
			if v := text[len(namesItem):]; shapeToken(v) {
				h.Write(line[:1+len(namesItem)])
				h.Write(shapeHoleValue)
				continue
			}
		case inNames:
			inNames = false
		}
		h.Write(line)
	}
	copy(k[:], h.Sum(nil))
	return k, string(raw), true
}

// simpleRegexValue reports whether raw, a regex value as written, is a plain scalar that
// yaml.v2 reads as itself and whose expression always compiles (simpleRegex): only
// whether it compiles and whether it is set weigh on the loader's verdict (ADR 25), and
// a simple expression compiles and is never the default, (.*).
func simpleRegexValue(raw []byte) bool {
	v, ok := plainValue(raw)
	return ok && simpleRegex(v)
}

// shapeToken reports whether raw, a scalar written after "key: " or "- ", is a plain
// token that yaml.v2 reads into a string as itself: letters, digits and . _ / -, not
// starting with - or ., and not a null.
func shapeToken(raw []byte) bool {
	if len(raw) == 0 || raw[0] == '-' || raw[0] == '.' {
		return false
	}
	for _, c := range raw {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '/' || c == '-') {
			return false
		}
	}
	switch string(raw) {
	case "null", "Null", "NULL":
		return false
	}
	return true
}

// leaveOutKnownShapes returns doc, the global section and scrape_configs whose jobs
// start at jobsAt, without the jobs whose shape is known and whose name is the one
// rendered (want, one per job in order), the names of the jobs kept and their shapes,
// which the caller learns when the text loads. When the jobs cannot be matched with want
// one to one, doc is returned whole with no shapes.
func (c *fileCheck) leaveOutKnownShapes(doc []byte, jobsAt int, want []string) ([]byte, []string, []shapeKey) {
	var jobs [][]byte
	for rest := doc[jobsAt:]; len(rest) > 0; {
		if !bytes.HasPrefix(rest, []byte("- ")) {
			return doc, want, nil
		}
		end := jobLen(rest)
		jobs, rest = append(jobs, rest[:end]), rest[end:]
	}
	if len(jobs) != len(want) {
		return doc, want, nil
	}
	out := doc[:jobsAt:jobsAt]
	var keptNames []string
	var shapes []shapeKey
	left := false
	for i, job := range jobs {
		k, name, ok := c.jobShape(job)
		if ok && name == want[i] && c.loader.shapeKnown(k) {
			left = true
			continue
		}
		out = append(out, job...)
		keptNames = append(keptNames, want[i])
		if ok {
			shapes = append(shapes, k)
		}
	}
	if !left {
		return doc, want, shapes
	}
	return out, keptNames, shapes
}
