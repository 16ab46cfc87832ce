package main

import (
	"fmt"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// newLogger builds the structured logger from --log-level and --log-format.
func newLogger(level, format string) (logr.Logger, error) {
	var lvl zapcore.Level
	switch level {
	case "debug":
		lvl = zapcore.DebugLevel
	case "info", "":
		lvl = zapcore.InfoLevel
	case "warn":
		lvl = zapcore.WarnLevel
	case "error":
		lvl = zapcore.ErrorLevel
	default:
		return logr.Discard(), fmt.Errorf("unknown log level %q (debug, info, warn, error)", level)
	}
	opts := []zap.Opts{zap.Level(lvl)}
	switch format {
	case "json", "":
		opts = append(opts, zap.JSONEncoder())
	case "logfmt", "console":
		opts = append(opts, zap.ConsoleEncoder())
	default:
		return logr.Discard(), fmt.Errorf("unknown log format %q (json, logfmt)", format)
	}
	return zap.New(opts...), nil
}
