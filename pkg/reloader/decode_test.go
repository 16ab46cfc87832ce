package reloader

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	plain := "global:\n  scrape_interval: 30s\n"
	if got, err := Decode([]byte(plain)); err != nil || string(got) != plain {
		t.Fatalf("plain: %q, %v", got, err)
	}
	if got, err := Decode(reloadertest.Gzip(t, plain)); err != nil || string(got) != plain {
		t.Fatalf("gzip: %q, %v", got, err)
	}
	if got, err := Decode(nil); err != nil || len(got) != 0 {
		t.Fatalf("empty: %q, %v", got, err)
	}
	full := reloadertest.Gzip(t, plain)
	for name, bad := range map[string][]byte{
		"truncated":  full[:len(full)-6],
		"bad header": append([]byte{0x1f, 0x8b, 0xff}, full[3:]...),
		"bad crc":    append(append([]byte{}, full[:len(full)-8]...), 0, 0, 0, 0, 0, 0, 0, 0),
		"magic only": {0x1f, 0x8b},
	} {
		if _, err := Decode(bad); err == nil || !strings.Contains(err.Error(), "gunzip") {
			t.Errorf("%s: want a gunzip error, got %v", name, err)
		}
	}
}

func TestDecodeSizeLimit(t *testing.T) {
	t.Parallel()
	data := reloadertest.Gzip(t, strings.Repeat("x", 1025))
	if _, err := decode(data, 1024); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("want a size error, got %v", err)
	}
	if out, err := decode(data, 1025); err != nil || len(out) != 1025 {
		t.Fatalf("at the limit: %d bytes, %v", len(out), err)
	}
}
