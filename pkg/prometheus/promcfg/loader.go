package promcfg

import (
	"crypto/sha256"
	"strings"
	"sync"

	"github.com/prometheus/prometheus/config"
	yaml "go.yaml.in/yaml/v2"
)

// loader runs Prometheus's configuration loader (see Validate) and counts the texts it
// loads. It remembers the verdicts of texts loaded with verdict, by their SHA-256, so that
// each distinct header is loaded once. Every Generator owns one: verdicts and counts are
// never shared between generators. It is safe for concurrent use.
type loader struct {
	mu       sync.Mutex
	verdicts map[[32]byte]error
	// regexes holds regex values, as written, that compile as relabel rules' (see
	// regexCompiles).
	regexes map[string]struct{}
	// rules holds relabel rules seen load (see elideKnownRules).
	rules map[ruleKey]struct{}
	// shapes holds the shapes of jobs seen load (see leaveOutKnownShapes).
	shapes map[shapeKey]struct{}
	// shapesLeftOut counts the jobs left out of loads by their shape.
	shapesLeftOut int
	// loads counts the texts actually handed to Prometheus's loader.
	loads int
}

// maxRememberedVerdicts bounds the memory a loader holds; it forgets everything when full.
const maxRememberedVerdicts = 1024

// maxRememberedRegexes bounds the regex values a loader remembers; it forgets them all
// when full: a few MB at most.
const maxRememberedRegexes = 1 << 16

func newLoader() *loader {
	return &loader{verdicts: map[[32]byte]error{}, regexes: map[string]struct{}{}, rules: map[ruleKey]struct{}{}, shapes: map[shapeKey]struct{}{}}
}

// config loads text.
func (l *loader) config(text []byte) (*config.Config, error) {
	l.mu.Lock()
	l.loads++
	l.mu.Unlock()
	return load(text)
}

// verdict returns the verdict of loading text and then running check on what loaded,
// loading it only if this loader has not loaded the same text with verdict before. check
// must depend on nothing but the loaded configuration.
func (l *loader) verdict(text []byte, check func(*config.Config) error) error {
	key := sha256.Sum256(text)
	l.mu.Lock()
	err, ok := l.verdicts[key]
	l.mu.Unlock()
	if ok {
		return err
	}
	cfg, err := l.config(text)
	if err == nil {
		err = check(cfg)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.verdicts) >= maxRememberedVerdicts {
		clear(l.verdicts)
	}
	l.verdicts[key] = err
	return err
}

// regexCompiles reports whether raw, a YAML scalar as written after "regex: ", compiles
// as a relabel rule's regular expression, reading it as Prometheus's loader does. A value
// that compiles is remembered as written, so it is read once per loader; the compile
// itself goes through compileRelabelRegex, which the render-time checks share.
func (l *loader) regexCompiles(raw []byte) bool {
	l.mu.Lock()
	_, ok := l.regexes[string(raw)]
	l.mu.Unlock()
	if ok {
		return true
	}
	value, plain := plainValue(raw)
	if !plain {
		var v struct {
			Regex string `yaml:"regex"`
		}
		if err := yaml.UnmarshalStrict(append([]byte("regex: "), raw...), &v); err != nil {
			return false
		}
		value = v.Regex
	}
	if compileRelabelRegex(value) != nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rememberAll(l.regexes, []string{string(raw)}, maxRememberedRegexes)
	return true
}

// rememberAll adds keys to set, which it empties first when they would take it past max:
// the loader's memories are bounded and relearn what is common.
func rememberAll[K comparable](set map[K]struct{}, keys []K, max int) {
	if len(set)+len(keys) > max {
		clear(set)
	}
	for _, k := range keys {
		set[k] = struct{}{}
	}
}

// plainValue returns the string yaml.v2 reads from raw, a scalar written after a key,
// without running yaml.v2's parser (whose set-up allocates kilobytes) when raw is made
// only of letters, digits and ( ) | ; . * + ? ^ $ _ = - and does not start with - ? * or |:
// such a plain scalar reads as itself, whatever type it resolves to, unless it is a null.
func plainValue(raw []byte) (string, bool) {
	if len(raw) == 0 || strings.IndexByte("-?*|", raw[0]) >= 0 {
		return "", false
	}
	for _, c := range raw {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("()|;.*+?^$_=-", c) >= 0) {
			return "", false
		}
	}
	switch string(raw) {
	case "null", "Null", "NULL":
		return "", false
	}
	return string(raw), true
}
