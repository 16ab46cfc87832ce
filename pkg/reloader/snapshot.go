package reloader

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/partset"
	"github.com/lookout-operator/lookout/pkg/reloader/dirhash"
)

// snapshot is the content the reloader compares between checks. It holds the config
// input open, not its content: later passes (compare, write) read it again from the
// same open file. Close it when the check is done.
type snapshot struct {
	// input is the open config input (nil without a config file).
	input *configInput
	// configHash names the decompressed config (package confighash), before $(VAR)
	// expansion.
	configHash string
	// hash covers the config and every file in the watched directories.
	hash string
	// filesHash is the hash of the watched directories' files alone (package dirhash),
	// what a reloader without a config file reports.
	filesHash string
}

// close releases the config input.
func (s snapshot) close() {
	if s.input != nil {
		_ = s.input.Close()
	}
}

// takeSnapshot reads the config input (the config file and its further parts, if any)
// and the watched directories. The config is read to its end (so a corrupt archive is
// detected here, before anything is written) in buffers of a fixed size.
func takeSnapshot(configFile string, partFiles, dirs []string) (s snapshot, err error) {
	h := sha256.New()
	// The config input is in the hash already, decompressed: in its own directories, when
	// those are watched too (as prometheus-operator's pods ask), its compressed bytes do
	// not count again, so a recompressed identical config costs no reload.
	skip := map[string]bool{}
	if configFile != "" {
		paths := append([]string{configFile}, partFiles...)
		for _, p := range paths {
			skip[filepath.Clean(p)] = true
		}
		if s.input, err = openConfigInput(paths...); err != nil {
			return s, err
		}
		defer func() {
			if err != nil {
				s.close()
			}
		}()
		if s.configHash, err = hashConfig(s.input); errors.Is(err, ErrPartsMismatch) {
			return s, err
		} else if err != nil {
			return s, fmt.Errorf("decoding %s: %w", strings.Join(paths, ", "), err)
		}
		writeField(h, []byte("config"))
		writeField(h, []byte(s.configHash))
	}
	files := dirhash.New()
	for _, dir := range dirs {
		if err := hashDir(h, files, dir, skip); err != nil {
			return s, err
		}
	}
	s.hash, s.filesHash = hex.EncodeToString(h.Sum(nil)), files.Sum()
	return s, nil
}

// hashConfig returns the name of the decompressed config (package confighash, ADR 41);
// of a config in several parts, the name of part 0, whose first line names every other
// part (ADR 38: the operator names the configuration so without reading the unchanged
// parts). The parts must be the complete set part 0 names (package partset): otherwise
// the error wraps ErrPartsMismatch and nothing is rendered until the set is complete.
func hashConfig(in *configInput) (string, error) {
	buf := make([]byte, readBufferSize)
	head := &headWriter{max: partset.MaxLineLen}
	first := confighash.Sum(nil)
	var parts []string
	left := in.limit
	for i, p := range in.parts {
		r, err := p.reader()
		if err != nil {
			return "", err
		}
		lr := &limitedReader{r: r, left: left, limit: in.limit}
		ph := confighash.NewWriter()
		var w io.Writer = ph
		if i == 0 {
			w = io.MultiWriter(ph, head)
		}
		if _, err := io.CopyBuffer(w, lr, buf); err != nil {
			return "", err
		}
		left = lr.left
		if i == 0 {
			first = ph.Sum()
		} else {
			parts = append(parts, ph.Sum())
		}
	}
	if err := partset.Check(head.b, parts); err != nil {
		if errors.Is(err, partset.ErrMismatch) {
			return "", fmt.Errorf("%w: %w", ErrPartsMismatch, err)
		}
		return "", err
	}
	return first, nil
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	b   []byte
	max int
}

func (h *headWriter) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// hashDir adds the regular files directly in dir (following symlinks, so kubelet key
// links count by their content) to h and to files: each file's name and the sha256 of its
// content, read in buffers. Names starting with ".." are the kubelet's internals and are
// skipped, as are the paths in skip; a missing directory hashes as empty.
func hashDir(h hash.Hash, files *dirhash.Hash, dir string, skip map[string]bool) error {
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
		if !strings.HasPrefix(e.Name(), "..") && !skip[filepath.Join(filepath.Clean(dir), e.Name())] {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	buf := make([]byte, readBufferSize)
	for _, name := range names {
		sum, ok, err := hashFile(filepath.Join(dir, name), buf)
		if err != nil {
			return err
		}
		if ok {
			writeField(h, []byte(name))
			writeField(h, sum)
			files.File(name, sum)
		}
	}
	return nil
}

// hashFile returns the sha256 of the regular file at path; ok is false when path is
// not a regular file (a subdirectory) or is gone (removed since the listing, or a
// dangling link).
func hashFile(path string, buf []byte) (sum []byte, ok bool, err error) {
	// Stat before opening: opening a FIFO would block.
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("inspecting %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	// The name may have been replaced since the Stat.
	st, err = f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("inspecting %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, false, nil
	}
	h := sha256.New()
	if _, err := io.CopyBuffer(h, f, buf); err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	return h.Sum(nil), true, nil
}

// writeField writes a length-prefixed field so different splits never hash alike.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
