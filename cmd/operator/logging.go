package main

import (
	"io"
	"log/slog"

	"github.com/go-logr/logr"

	"github.com/lookout-operator/lookout/pkg/logflags"
)

// newLogger builds the structured logger from --log-level and --log-format, with
// prometheus-operator's values (logflags). Level none logs nothing, whatever the format.
func newLogger(w io.Writer, level, format string) (logr.Logger, error) {
	if level == "none" {
		return logr.Discard(), nil
	}
	// all: every V-level controller-runtime and client-go use.
	h, err := logflags.Levels{All: slog.Level(-128)}.Handler(w, level, format)
	if err != nil {
		return logr.Discard(), err
	}
	return logr.FromSlogHandler(h), nil
}
