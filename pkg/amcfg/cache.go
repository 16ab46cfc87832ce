package amcfg

import (
	"crypto/sha256"
	"errors"
	"sync"

	"github.com/prometheus/alertmanager/config"
)

// Generator remembers which configurations Alertmanager's loader accepted or refused in
// its last run, keyed by a hash of the exact bytes (resolved Secret values included), so
// an unchanged object is not loaded again. Safe for concurrent use; one per Alertmanager.
type Generator struct {
	mu        sync.Mutex
	prev, cur map[[sha256.Size]byte]string // "" = loaded fine, else the error
}

// NewGenerator returns a Generator with an empty cache.
func NewGenerator() *Generator {
	return &Generator{prev: map[[sha256.Size]byte]string{}, cur: map[[sha256.Size]byte]string{}}
}

func loadConfig(b []byte) error {
	_, err := config.Load(string(b))
	return err
}

// load is loadConfig through the cache.
func (g *Generator) load(b []byte) error {
	k := sha256.Sum256(b)
	msg, ok := g.cur[k]
	if !ok {
		msg, ok = g.prev[k]
	}
	if !ok {
		if err := loadConfig(b); err != nil {
			msg = err.Error()
		}
	}
	g.cur[k] = msg
	if msg != "" {
		return errors.New(msg)
	}
	return nil
}

// rotate keeps only what the run just finished used, so the cache does not grow.
func (g *Generator) rotate() {
	g.prev, g.cur = g.cur, make(map[[sha256.Size]byte]string, len(g.cur))
}
