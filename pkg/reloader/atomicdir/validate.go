package atomicdir

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Limits the kubelet applies to projected paths.
const (
	maxPathLength     = 4096
	maxFileNameLength = 255
)

// validateKey checks that a key is a clean relative path that stays inside the target
// directory and does not collide with the writer's own "..*" entries.
func validateKey(key string) error {
	if key == "" {
		return fmt.Errorf("invalid key %q: empty", key)
	}
	if filepath.IsAbs(key) {
		return fmt.Errorf("invalid key %q: must be a relative path", key)
	}
	if len(key) > maxPathLength {
		return fmt.Errorf("invalid key %q: longer than %d characters", key, maxPathLength)
	}
	parts := strings.Split(key, "/")
	for _, p := range parts {
		if p == ".." {
			return fmt.Errorf("invalid key %q: must not contain '..'", key)
		}
		if len(p) > maxFileNameLength {
			return fmt.Errorf("invalid key %q: a name is longer than %d characters", key, maxFileNameLength)
		}
	}
	if strings.HasPrefix(parts[0], "..") {
		return fmt.Errorf("invalid key %q: must not start with '..'", key)
	}
	return nil
}

// cleanPayload validates every key and returns the payload keyed by cleaned paths.
func cleanPayload(files map[string][]byte) (map[string][]byte, error) {
	out := make(map[string][]byte, len(files))
	for k, v := range files {
		if err := validateKey(k); err != nil {
			return nil, err
		}
		c := filepath.Clean(k)
		if c == "." {
			return nil, fmt.Errorf("invalid key %q: names the directory itself", k)
		}
		out[c] = v
	}
	return out, nil
}
