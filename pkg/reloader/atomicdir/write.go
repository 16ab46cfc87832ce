package atomicdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
//
// The writer owns the names starting with ".." in the directory and the "name ->
// ..data/name" links of its keys. It never follows, reads through or removes a symlink
// it did not create: a DataLink pointing outside the directory, or at anything but a
// data directory of its own, is replaced without touching its target, and a key's
// visible entry that is not the writer's link is replaced by it.
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

// Write makes dir hold exactly files (keys are clean relative paths, see validateKey;
// values are contents) and reports whether anything on disk changed. dir is created if
// missing. When the payload equals what is already published nothing is rewritten, so
// watchers see no event.
func (w Writer) Write(dir string, files map[string][]byte) (changed bool, err error) {
	if err := validatePayload(files); err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("creating %s: %w", dir, err)
	}
	prev, err := readPublished(dir)
	if err != nil {
		return false, err
	}
	same, err := prev.holds(dir, files)
	if err != nil {
		return false, err
	}
	if !same {
		if err := w.publish(dir, files); err != nil {
			return false, err
		}
	}
	linked, err := linkKeys(dir, files)
	if err != nil {
		return false, err
	}
	unlinked, err := unlinkStale(dir, files)
	if err != nil {
		return false, err
	}
	if !same && prev.name != "" {
		// A real directory of the writer's (readPublished checked it): RemoveAll
		// unlinks symlinks inside it rather than following them.
		if err := os.RemoveAll(filepath.Join(dir, prev.name)); err != nil {
			return false, fmt.Errorf("removing previous data directory %s: %w", prev.name, err)
		}
	}
	return !same || linked || unlinked, nil
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
	if err := writePayload(tsDir, payload, mode); err != nil {
		_ = os.RemoveAll(tsDir)
		return err
	}
	tmp := filepath.Join(dir, tmpDataLink)
	// A link left behind by an interrupted write would make Symlink fail. Remove
	// unlinks the link itself.
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("removing stale %s: %w", tmpDataLink, err)
	}
	if err := os.Symlink(filepath.Base(tsDir), tmp); err != nil {
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("creating %s: %w", tmpDataLink, err)
	}
	// Rename replaces DataLink itself, whatever it pointed at.
	if err := os.Rename(tmp, filepath.Join(dir, DataLink)); err != nil {
		_ = os.Remove(tmp)
		_ = os.RemoveAll(tsDir)
		return fmt.Errorf("swapping %s: %w", DataLink, err)
	}
	return nil
}

// writePayload writes every file into the fresh data directory tsDir. The writes go
// through an os.Root, so no path can leave tsDir even if something raced a symlink into
// it, and files are created exclusively (never opened through an existing name).
func writePayload(tsDir string, payload map[string][]byte, mode fs.FileMode) error {
	root, err := os.OpenRoot(tsDir)
	if err != nil {
		return fmt.Errorf("opening %s: %w", tsDir, err)
	}
	defer root.Close()
	for key, data := range payload {
		if d := filepath.Dir(key); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("creating directory for %s: %w", key, err)
			}
		}
		if err := writeFile(root, key, data, mode); err != nil {
			return err
		}
	}
	return nil
}

// writeFile creates key in root with data and exactly mode.
func writeFile(root *os.Root, key string, data []byte, mode fs.FileMode) error {
	f, err := root.OpenFile(key, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("creating %s: %w", key, err)
	}
	_, err = f.Write(data)
	if err == nil {
		// The mode given to OpenFile is filtered by the umask; set it exactly.
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", key, err)
	}
	return nil
}
