package reloader

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrInputMissing reports that the config input file does not exist (yet).
var ErrInputMissing = errors.New("config input does not exist")

// snapshot is the content the reloader compares between checks.
type snapshot struct {
	// config is the decompressed config input (nil without a config file).
	config []byte
	// configHash is the hex sha256 of config, before $(VAR) expansion.
	configHash string
	// hash covers config and every file in the watched directories.
	hash string
}

// takeSnapshot reads the config input and the watched directories.
func takeSnapshot(configFile string, dirs []string) (snapshot, error) {
	var s snapshot
	h := sha256.New()
	if configFile != "" {
		raw, err := os.ReadFile(configFile)
		if errors.Is(err, fs.ErrNotExist) {
			return s, fmt.Errorf("%w: %s", ErrInputMissing, configFile)
		}
		if err != nil {
			return s, fmt.Errorf("reading %s: %w", configFile, err)
		}
		cfg, err := Decode(raw)
		if err != nil {
			return s, fmt.Errorf("decoding %s: %w", configFile, err)
		}
		sum := sha256.Sum256(cfg)
		s.config, s.configHash = cfg, hex.EncodeToString(sum[:])
		writeField(h, []byte("config"))
		writeField(h, []byte(s.configHash))
	}
	for _, dir := range dirs {
		if err := hashDir(h, dir); err != nil {
			return s, err
		}
	}
	s.hash = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// hashDir adds the regular files directly in dir (following symlinks, so kubelet key
// links count by their content) to h. Names starting with ".." are the kubelet's
// internals and are skipped; a missing directory hashes as empty.
func hashDir(h hash.Hash, dir string) error {
	writeField(h, []byte("dir"))
	writeField(h, []byte(dir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing %s: %w", dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "..") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		st, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the listing, or a dangling link
		}
		if err != nil {
			return fmt.Errorf("inspecting %s: %w", path, err)
		}
		if !st.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		writeField(h, []byte(name))
		writeField(h, b)
	}
	return nil
}

// writeField writes a length-prefixed field so different splits never hash alike.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
