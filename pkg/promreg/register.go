package promreg

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Register registers every collector on reg, stopping at the first failure, whose error
// says what was being registered ("reloader metrics"). A nil reg registers nothing.
func Register(reg prometheus.Registerer, what string, cs ...prometheus.Collector) error {
	if reg == nil {
		return nil
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("registering %s: %w", what, err)
		}
	}
	return nil
}
