package reloader

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// outputMode is the mode of the rendered config, readable by a Prometheus container that
// runs as another user, like the kubelet-mounted input it comes from.
const outputMode fs.FileMode = 0o644

// WriteFileAtomic replaces path with what write writes, through a temporary file in the
// same directory and a rename, so a reader sees the old or the new content, never a
// partial file. When write fails the temporary file is removed and path is untouched.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating temporary file next to %s: %w", path, err)
	}
	name := tmp.Name()
	cleanup := func(err error) error {
		_ = tmp.Close()
		_ = os.Remove(name)
		return err
	}
	if err := write(tmp); err != nil {
		return cleanup(fmt.Errorf("writing %s: %w", name, err))
	}
	if err := tmp.Chmod(outputMode); err != nil {
		return cleanup(fmt.Errorf("setting mode of %s: %w", name, err))
	}
	if err := tmp.Sync(); err != nil {
		return cleanup(fmt.Errorf("syncing %s: %w", name, err))
	}
	if err := tmp.Close(); err != nil {
		return cleanup(fmt.Errorf("closing %s: %w", name, err))
	}
	if err := os.Rename(name, path); err != nil {
		return cleanup(fmt.Errorf("renaming %s to %s: %w", name, path, err))
	}
	return nil
}
