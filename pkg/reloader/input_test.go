package reloader

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/reloader/atomicdir"
	"github.com/lookout-operator/lookout/pkg/reloader/reloadertest"
)

// readConfig opens the file holding raw and reads its config.
func readConfig(t *testing.T, raw []byte, limit int64) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := openConfigInput(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if limit > 0 {
		in.limit = limit
	}
	r, err := in.config()
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

func TestConfigInputDecodes(t *testing.T) {
	t.Parallel()
	plain := "global:\n  scrape_interval: 30s\n"
	for name, raw := range map[string][]byte{
		"plain":          []byte(plain),
		"gzip":           reloadertest.Gzip(t, plain),
		"two gzip parts": append(reloadertest.Gzip(t, plain[:10]), reloadertest.Gzip(t, plain[10:])...),
	} {
		if got, err := readConfig(t, raw, 0); err != nil || got != plain {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	for name, raw := range map[string][]byte{"empty": nil, "one byte": {0x1f}} {
		if got, err := readConfig(t, raw, 0); err != nil || got != string(raw) {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

func TestConfigInputCorrupt(t *testing.T) {
	t.Parallel()
	full := reloadertest.Gzip(t, "global:\n  scrape_interval: 30s\n")
	for name, bad := range map[string][]byte{
		"truncated":     full[:len(full)-6],
		"bad header":    append([]byte{0x1f, 0x8b, 0xff}, full[3:]...),
		"bad crc":       append(append([]byte{}, full[:len(full)-8]...), 0, 0, 0, 0, 0, 0, 0, 0),
		"magic only":    {0x1f, 0x8b},
		"trailing junk": append(append([]byte{}, full...), 0x1f, 0x8b, 1),
	} {
		if _, err := readConfig(t, bad, 0); err == nil || !strings.Contains(err.Error(), "gunzip") {
			t.Errorf("%s: want a gunzip error, got %v", name, err)
		}
	}
}

func TestConfigInputSizeLimit(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string][]byte{
		"gzip":  reloadertest.Gzip(t, strings.Repeat("x", 1025)),
		"plain": []byte(strings.Repeat("x", 1025)),
	} {
		if _, err := readConfig(t, raw, 1024); err == nil || !strings.Contains(err.Error(), "larger than 1024 bytes") {
			t.Errorf("%s: want a size error, got %v", name, err)
		}
		if out, err := readConfig(t, raw, 1025); err != nil || len(out) != 1025 {
			t.Errorf("%s at the limit: %d bytes, %v", name, len(out), err)
		}
	}
}

func TestConfigInputMissing(t *testing.T) {
	t.Parallel()
	if _, err := openConfigInput(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, ErrInputMissing) {
		t.Fatalf("error %v", err)
	}
}

// TestConfigInputOneVersionPerCheck: every pass over an open input reads the version it
// was opened on, even after the kubelet swapped in a new one (and removed the old data
// directory).
func TestConfigInputOneVersionPerCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(s string) {
		if _, err := atomicdir.Write(dir, map[string][]byte{"c.gz": reloadertest.Gzip(t, s)}); err != nil {
			t.Fatal(err)
		}
	}
	write("v1\n")
	in, err := openConfigInput(filepath.Join(dir, "c.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	for pass := range 2 {
		r, err := in.config()
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(r); err != nil || string(b) != "v1\n" {
			t.Fatalf("pass %d: %q, %v", pass, b, err)
		}
		write("v2\n")
	}
}
