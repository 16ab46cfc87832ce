// Package logflags reads the --log-level and --log-format flags both commands take, with
// the values of prometheus-operator and prometheus-config-reloader: levels all, debug,
// info, warn, error and none; formats logfmt (the default) and json.
package logflags

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// Levels is how a command reads --log-level.
type Levels struct {
	// All is the level "all" stands for.
	All slog.Level
	// IgnoreCase matches the level names without regard to case.
	IgnoreCase bool
}

// Handler returns the slog handler writing to w that level and format ask for. For
// level none it still checks format and returns slog.DiscardHandler.
func (l Levels) Handler(w io.Writer, level, format string) (slog.Handler, error) {
	name := level
	if l.IgnoreCase {
		name = strings.ToLower(level)
	}
	var lvl slog.Level
	switch name {
	case "all":
		lvl = l.All
	case "debug":
		lvl = slog.LevelDebug
	case "info", "":
		lvl = slog.LevelInfo
	case "warn":
		lvl = slog.LevelWarn
	case "error":
		lvl = slog.LevelError
	case "none":
	default:
		return nil, fmt.Errorf("unknown log level %q (all, debug, info, warn, error, none)", level)
	}
	opts := &slog.HandlerOptions{Level: lvl}
	var h slog.Handler
	switch format {
	case "logfmt", "":
		h = slog.NewTextHandler(w, opts)
	case "json":
		h = slog.NewJSONHandler(w, opts)
	default:
		return nil, fmt.Errorf("unknown log format %q (logfmt, json)", format)
	}
	if name == "none" {
		return slog.DiscardHandler, nil
	}
	return h, nil
}
