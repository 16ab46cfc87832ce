package atomicdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tmpKeyLink is the name a key link is created under before it is renamed over an entry
// that is not the writer's.
const tmpKeyLink = "..key_tmp"

// topLevel returns the first element of every key: the names visible in the directory.
func topLevel(payload map[string][]byte) map[string]bool {
	tops := make(map[string]bool, len(payload))
	for key := range payload {
		top, _, _ := strings.Cut(key, "/")
		tops[top] = true
	}
	return tops
}

// keyLinkTarget is what the visible entry name points at.
func keyLinkTarget(name string) string { return filepath.Join(DataLink, name) }

// isKeyLink reports whether the entry name in dir is the writer's "name -> ..data/name"
// symlink. It reads the link, never what it points at.
func isKeyLink(dir, name string, mode fs.FileMode) (bool, error) {
	if mode&fs.ModeSymlink == 0 {
		return false, nil
	}
	target, err := os.Readlink(filepath.Join(dir, name))
	if err != nil {
		return false, fmt.Errorf("reading link %s: %w", name, err)
	}
	return target == keyLinkTarget(name), nil
}

// linkKeys makes the visible entry of every top-level payload name the writer's link
// through DataLink, and reports whether it created or replaced any. An entry that is
// not that link (a symlink elsewhere, a file) is replaced by it with a rename, which
// swaps the entry itself; a directory in its way is an error, as its content is not the
// writer's to remove.
func linkKeys(dir string, payload map[string][]byte) (bool, error) {
	changed := false
	for top := range topLevel(payload) {
		visible := filepath.Join(dir, top)
		st, err := os.Lstat(visible)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Symlink(keyLinkTarget(top), visible); err != nil {
				return changed, fmt.Errorf("linking %s: %w", top, err)
			}
			changed = true
			continue
		}
		if err != nil {
			return changed, fmt.Errorf("inspecting %s: %w", visible, err)
		}
		ours, err := isKeyLink(dir, top, st.Mode())
		if err != nil {
			return changed, err
		}
		if ours {
			continue
		}
		if st.IsDir() {
			return changed, fmt.Errorf("%s is a directory, not the link to %s: the directory was not written by this writer", visible, keyLinkTarget(top))
		}
		if err := replaceWithLink(dir, top); err != nil {
			return changed, err
		}
		changed = true
	}
	return changed, nil
}

// replaceWithLink swaps the entry name in dir for the writer's key link.
func replaceWithLink(dir, name string) error {
	tmp := filepath.Join(dir, tmpKeyLink)
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing stale %s: %w", tmpKeyLink, err)
	}
	if err := os.Symlink(keyLinkTarget(name), tmp); err != nil {
		return fmt.Errorf("linking %s: %w", name, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("replacing %s with its link: %w", name, err)
	}
	return nil
}

// unlinkStale removes the writer's key links whose name the payload no longer has, and
// reports whether it removed any. Only links of the writer's exact form are removed
// (the link itself, never its target); anything else in dir is left alone.
func unlinkStale(dir string, payload map[string][]byte) (bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("listing %s: %w", dir, err)
	}
	keep := topLevel(payload)
	removed := false
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, reservedPrefix) || keep[name] {
			continue
		}
		ours, err := isKeyLink(dir, name, e.Type())
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ours {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("removing stale %s: %w", name, err))
			continue
		}
		removed = true
	}
	return removed, errors.Join(errs...)
}
