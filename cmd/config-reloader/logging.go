package main

import (
	"io"
	"log/slog"

	"github.com/lookout-operator/lookout/pkg/logflags"
)

// newLogger builds the structured logger from --log-level and --log-format. The levels
// are prometheus-config-reloader's, matched without regard to case: "all" logs
// everything (as debug does here), "none" nothing.
func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	h, err := logflags.Levels{All: slog.LevelDebug, IgnoreCase: true}.Handler(w, level, format)
	if err != nil {
		return nil, err
	}
	return slog.New(h), nil
}
