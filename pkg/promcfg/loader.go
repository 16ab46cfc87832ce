package promcfg

import (
	"crypto/sha256"
	"sync"
)

// loader runs Prometheus's configuration loader (Validate) and remembers its verdicts by
// the SHA-256 of the text loaded, so that each distinct text is loaded once. Every
// Generator owns one: verdicts and counts are never shared between generators. It is safe
// for concurrent use.
type loader struct {
	mu       sync.Mutex
	verdicts map[[32]byte]error
	// loads counts the texts actually handed to Prometheus's loader.
	loads int
}

// maxRememberedVerdicts bounds the memory a loader holds; it forgets everything when full.
const maxRememberedVerdicts = 8192

func newLoader() *loader { return &loader{verdicts: map[[32]byte]error{}} }

// load returns the verdict of Validate on text, loading it only if this loader has not
// loaded the same text before.
func (l *loader) load(text []byte) error {
	key := sha256.Sum256(text)
	l.mu.Lock()
	err, ok := l.verdicts[key]
	l.mu.Unlock()
	if ok {
		return err
	}
	err = Validate(text)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loads++
	if len(l.verdicts) >= maxRememberedVerdicts {
		clear(l.verdicts)
	}
	l.verdicts[key] = err
	return err
}
