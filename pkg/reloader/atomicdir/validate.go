package atomicdir

import (
	"fmt"
	"path"
	"strings"
)

// Limits the kubelet's AtomicWriter applies to projected paths.
const (
	maxPathLength     = 4096
	maxFileNameLength = 255
)

// reservedPrefix starts the names the writer keeps for itself ("..data", "..data_tmp",
// the timestamped data directories).
const reservedPrefix = ".."

// validateKey checks one key. It applies the kubelet AtomicWriter's rules (validatePath
// in pkg/volume/util/atomic_writer.go): not empty, not absolute, at most 4096 bytes, no
// ".." element, no element longer than 255 bytes, no first element starting with "..".
//
// The kubelet applies them to the key as given and cleans it afterwards, relying on API
// validation for the rest, so "./..data" passes and is then written as "..data", over
// the writer's own link. Here a key must also be canonical (equal to its path.Clean form:
// no "." or empty elements, no trailing slash), which closes that gap, and must not
// contain a NUL byte (no file name can).
func validateKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("invalid key %q: empty", key)
	case key == ".":
		return fmt.Errorf("invalid key %q: names the directory itself", key)
	case path.IsAbs(key):
		return fmt.Errorf("invalid key %q: must be a relative path", key)
	case len(key) > maxPathLength:
		return fmt.Errorf("invalid key %.32q...: longer than %d bytes", key, maxPathLength)
	case strings.IndexByte(key, 0) >= 0:
		return fmt.Errorf("invalid key %q: contains a NUL byte", key)
	}
	parts := strings.Split(key, "/")
	for _, p := range parts {
		if p == ".." {
			return fmt.Errorf("invalid key %q: must not contain '..'", key)
		}
		if len(p) > maxFileNameLength {
			return fmt.Errorf("invalid key %.32q...: an element is longer than %d bytes", key, maxFileNameLength)
		}
	}
	if strings.HasPrefix(parts[0], reservedPrefix) {
		return fmt.Errorf("invalid key %q: must not start with '..'", key)
	}
	if c := path.Clean(key); c != key {
		return fmt.Errorf("invalid key %q: not a clean path (it would be written as %q)", key, c)
	}
	return nil
}

// validatePayload validates every key and rejects a key that is also the parent
// directory of another ("a" and "a/b"): one path cannot be a file and a directory.
func validatePayload(files map[string][]byte) error {
	for k := range files {
		if err := validateKey(k); err != nil {
			return err
		}
	}
	for k := range files {
		for d := path.Dir(k); d != "."; d = path.Dir(d) {
			if _, ok := files[d]; ok {
				return fmt.Errorf("invalid keys %q and %q: %q would be a file and a directory", d, k, d)
			}
		}
	}
	return nil
}
