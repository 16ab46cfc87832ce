package logflags

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestHandler(t *testing.T) {
	var b bytes.Buffer
	h, err := Levels{All: slog.LevelDebug, IgnoreCase: true}.Handler(&b, "WARN", "json")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(h)
	log.Info("hidden")
	log.Warn("shown")
	if out := b.String(); strings.Contains(out, "hidden") || !strings.Contains(out, `"msg":"shown"`) {
		t.Errorf("output %q, want only the warning, as JSON", out)
	}
	if _, err := (Levels{}).Handler(&b, "WARN", "json"); err == nil || !strings.Contains(err.Error(), `"WARN"`) {
		t.Errorf("case-sensitive WARN: %v, want an unknown level error", err)
	}
	if h, err := (Levels{}).Handler(&b, "none", "logfmt"); err != nil || h != slog.DiscardHandler {
		t.Errorf("none = %v, %v; want the discard handler", h, err)
	}
	if _, err := (Levels{}).Handler(&b, "none", "xml"); err == nil {
		t.Error("none with an unknown format: no error")
	}
}
