package reloader

import "regexp"

// envRef matches $(NAME), the reference syntax prometheus-config-reloader expands.
var envRef = regexp.MustCompile(`\$\(([A-Za-z0-9_]+)\)`)

// Expand replaces every $(NAME) in in with the value lookup returns for NAME. A reference
// to an unset variable is left as it is and its name is returned in unset, once per
// occurrence, so the caller can report it.
func Expand(in []byte, lookup func(string) (string, bool)) (out []byte, unset []string) {
	out = envRef.ReplaceAllFunc(in, func(ref []byte) []byte {
		name := string(ref[2 : len(ref)-1])
		if v, ok := lookup(name); ok {
			return []byte(v)
		}
		unset = append(unset, name)
		return ref
	})
	return out, unset
}
