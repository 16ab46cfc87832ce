package atomicdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DataLink is the symlink that points at the timestamped directory holding the current
// data. Key symlinks resolve through it.
const DataLink = "..data"

// tmpDataLink is the symlink created next to DataLink and renamed over it.
const tmpDataLink = "..data_tmp"

// timestampLayout names the data directories as the kubelet does ("..2026_01_02_15_04_05."
// followed by a random suffix from os.MkdirTemp).
const timestampLayout = "..2006_01_02_15_04_05."

// DefaultMode is the file mode of projected files, the kubelet's default for Secret and
// ConfigMap volumes.
const DefaultMode fs.FileMode = 0o644

// Writer projects payloads into one directory. The zero value is ready to use.
type Writer struct {
	// Mode is the mode of the written files; zero means DefaultMode.
	Mode fs.FileMode
	// Now returns the time used to name data directories; nil means time.Now.
	Now func() time.Time
}

// Write projects files into dir with the default Writer. See Writer.Write.
func Write(dir string, files map[string][]byte) (changed bool, err error) {
	return Writer{}.Write(dir, files)
}

// Write makes dir hold exactly files (keys are relative paths, values contents) and
// reports whether anything on disk changed. dir is created if missing. When the payload
// equals what is already published nothing is rewritten, so watchers see no event.
func (w Writer) Write(dir string, files map[string][]byte) (changed bool, err error) {
	payload, err := cleanPayload(files)
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("creating %s: %w", dir, err)
	}
	oldDir, err := os.Readlink(filepath.Join(dir, DataLink))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("reading %s: %w", DataLink, err)
	}

	publish := true
	var stale []string
	if oldDir != "" {
		oldPath := filepath.Join(dir, oldDir)
		stale, err = stalePaths(payload, oldPath)
		if err != nil {
			return false, err
		}
		same, err := samePayload(payload, oldPath)
		if err != nil {
			return false, err
		}
		publish = !same || len(stale) > 0
	}

	if publish {
		if err := w.publish(dir, payload); err != nil {
			return false, err
		}
	}
	linked, err := linkKeys(dir, payload)
	if err != nil {
		return false, err
	}
	if err := removeTopLevel(dir, stale); err != nil {
		return false, err
	}
	if publish && oldDir != "" {
		if err := os.RemoveAll(filepath.Join(dir, oldDir)); err != nil {
			return false, fmt.Errorf("removing previous data directory %s: %w", oldDir, err)
		}
	}
	return publish || linked, nil
}

// publish writes payload into a new timestamped directory and swaps DataLink to it.
func (w Writer) publish(dir string, payload map[string][]byte) error {
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	mode := w.Mode
	if mode == 0 {
		mode = DefaultMode
	}
	tsDir, err := os.MkdirTemp(dir, now().UTC().Format(timestampLayout))
	if err != nil {
		return fmt.Errorf("creating data directory in %s: %w", dir, err)
	}
	if err := os.Chmod(tsDir, 0o755); err != nil {
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("setting mode of %s: %w", tsDir, err)
	}
	for key, data := range payload {
		if err := writeFile(filepath.Join(tsDir, key), data, mode); err != nil {
			_ = os.RemoveAll(tsDir)
			return err
		}
	}
	tmp := filepath.Join(dir, tmpDataLink)
	// A link left behind by an interrupted write would make Symlink fail.
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("removing stale %s: %w", tmpDataLink, err)
	}
	if err := os.Symlink(filepath.Base(tsDir), tmp); err != nil {
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("creating %s: %w", tmpDataLink, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, DataLink)); err != nil {
		_ = os.Remove(tmp)
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("swapping %s: %w", DataLink, err)
	}
	return nil
}

// writeFile writes one payload file, creating its parent directories.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating directory for %s: %w", path, err)
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// WriteFile's mode is filtered by the umask; set it exactly.
	if err := os.Chmod(path, mode); err != nil {
		return fmt.Errorf("setting mode of %s: %w", path, err)
	}
	return nil
}

// samePayload reports whether every payload file exists in oldDir with equal content.
func samePayload(payload map[string][]byte, oldDir string) (bool, error) {
	for key, data := range payload {
		old, err := os.ReadFile(filepath.Join(oldDir, key))
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("reading published %s: %w", key, err)
		}
		if !bytes.Equal(old, data) {
			return false, nil
		}
	}
	return true, nil
}

// stalePaths lists the paths (files and directories) under oldDir that the new payload
// no longer contains.
func stalePaths(payload map[string][]byte, oldDir string) ([]string, error) {
	keep := map[string]bool{}
	for key := range payload {
		for p := key; p != "." && p != "/" && p != ""; p = filepath.Dir(p) {
			keep[p] = true
		}
	}
	var stale []string
	err := filepath.WalkDir(oldDir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(oldDir, path)
		if err != nil {
			return err
		}
		if rel != "." && !keep[rel] {
			stale = append(stale, rel)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing published files: %w", err)
	}
	return stale, nil
}

// linkKeys creates the "name -> ..data/name" symlink of every top-level payload entry that
// has none yet, and reports whether it created any.
func linkKeys(dir string, payload map[string][]byte) (bool, error) {
	created := false
	for key := range payload {
		top, _, _ := strings.Cut(key, "/")
		visible := filepath.Join(dir, top)
		if _, err := os.Lstat(visible); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return created, fmt.Errorf("checking %s: %w", visible, err)
		}
		if err := os.Symlink(filepath.Join(DataLink, top), visible); err != nil {
			return created, fmt.Errorf("linking %s: %w", top, err)
		}
		created = true
	}
	return created, nil
}

// removeTopLevel removes the visible symlinks of stale top-level entries.
func removeTopLevel(dir string, stale []string) error {
	var errs []error
	for _, p := range stale {
		if strings.Contains(p, "/") {
			continue
		}
		if err := os.Remove(filepath.Join(dir, p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing stale %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}
