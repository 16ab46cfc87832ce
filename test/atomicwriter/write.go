package atomicwriter

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/reloader/atomicdir"
)

// DataLink is the symlink swapped on every update.
const DataLink = atomicdir.DataLink

// Write makes dir hold exactly files (relative path -> content), kubelet-style. dir is
// created when missing; an identical payload leaves the directory untouched.
func Write(dir string, files map[string][]byte) error {
	if _, err := atomicdir.Write(dir, files); err != nil {
		return fmt.Errorf("atomic write to %s: %w", dir, err)
	}
	return nil
}

// WriteStrings is Write for string contents.
func WriteStrings(dir string, files map[string]string) error {
	b := make(map[string][]byte, len(files))
	for k, v := range files {
		b[k] = []byte(v)
	}
	return Write(dir, b)
}
