package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// newLogger builds the structured logger from --log-level and --log-format. The levels
// are prometheus-config-reloader's, matched without regard to case: "all" logs
// everything (as debug does here), "none" nothing.
func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lvl slog.Level
	switch strings.ToLower(level) {
	case "all", "debug":
		lvl = slog.LevelDebug
	case "info", "":
		lvl = slog.LevelInfo
	case "warn":
		lvl = slog.LevelWarn
	case "error":
		lvl = slog.LevelError
	case "none":
		if _, err := newLogger(w, "info", format); err != nil {
			return nil, err
		}
		return slog.New(slog.DiscardHandler), nil
	default:
		return nil, fmt.Errorf("unknown log level %q (all, debug, info, warn, error, none)", level)
	}
	opts := &slog.HandlerOptions{Level: lvl}
	switch format {
	case "logfmt", "":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	default:
		return nil, fmt.Errorf("unknown log format %q (logfmt, json)", format)
	}
}
