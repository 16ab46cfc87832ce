package write

// AtLeastOne returns the data of a set of Secrets split by size, or one empty Secret's
// when there is none: prometheus-operator always creates the first Secret of such a set
// (<kind>-<name>-tls-assets-0), whether anything is in it or not, and scripts and
// policies name it.
func AtLeastOne(parts []map[string][]byte) []map[string][]byte {
	if len(parts) == 0 {
		return []map[string][]byte{{}}
	}
	return parts
}
