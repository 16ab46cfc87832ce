package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/go-logr/logr"
)

// newLogger builds the structured logger from --log-level and --log-format, with
// prometheus-operator's values: levels all, debug, info, warn, error, none; formats
// logfmt (the default) and json.
func newLogger(w io.Writer, level, format string) (logr.Logger, error) {
	var lvl slog.Level
	switch level {
	case "all":
		lvl = slog.Level(-128) // every V-level controller-runtime and client-go use
	case "debug":
		lvl = slog.LevelDebug
	case "info", "":
		lvl = slog.LevelInfo
	case "warn":
		lvl = slog.LevelWarn
	case "error":
		lvl = slog.LevelError
	case "none":
		return logr.Discard(), nil
	default:
		return logr.Discard(), fmt.Errorf("unknown log level %q (all, debug, info, warn, error, none)", level)
	}
	opts := &slog.HandlerOptions{Level: lvl}
	switch format {
	case "logfmt", "":
		return logr.FromSlogHandler(slog.NewTextHandler(w, opts)), nil
	case "json":
		return logr.FromSlogHandler(slog.NewJSONHandler(w, opts)), nil
	default:
		return logr.Discard(), fmt.Errorf("unknown log format %q (logfmt, json)", format)
	}
}
