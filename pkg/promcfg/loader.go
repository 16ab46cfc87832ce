package promcfg

import (
	"crypto/sha256"
	"sync"

	"github.com/prometheus/prometheus/config"
)

// loader runs Prometheus's configuration loader (see Validate) and counts the texts it
// loads. It remembers the verdicts of texts loaded with verdict, by their SHA-256, so that
// each distinct header is loaded once. Every Generator owns one: verdicts and counts are
// never shared between generators. It is safe for concurrent use.
type loader struct {
	mu       sync.Mutex
	verdicts map[[32]byte]error
	// loads counts the texts actually handed to Prometheus's loader.
	loads int
}

// maxRememberedVerdicts bounds the memory a loader holds; it forgets everything when full.
const maxRememberedVerdicts = 1024

func newLoader() *loader { return &loader{verdicts: map[[32]byte]error{}} }

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
