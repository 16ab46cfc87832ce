// Package confighash names a configuration by the hash of its chunks (ADR 41): the text
// is cut before every line that starts a top-level YAML sequence item ("- " at the start
// of a line: in a Prometheus configuration, each scrape job), and its name is the hex
// SHA-256 of the SHA-256 of each chunk, in order. The operator, which holds a
// configuration as cached pieces, names a changed configuration by hashing the changed
// pieces alone (Pieces); the config-reloader, which reads the text, names it alike
// (Writer, Sum).
package confighash
