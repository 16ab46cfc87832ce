package targethealth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// LabelSetHash is a hash of a label set: the same for a target's labels in the targets
// answer and for the labels of the series its scrapes write (scrape_samples_scraped and
// friends carry exactly the target's labels), so the two can be joined without keeping
// either label set. It decodes from a JSON object of label names to values.
type LabelSetHash uint64

// UnmarshalJSON hashes a JSON object of labels; null hashes as the empty set.
func (h *LabelSetHash) UnmarshalJSON(b []byte) error {
	v, _, err := HashLabelObject(b)
	*h = v
	return err
}

// label is one name and value of a label set.
type label struct{ name, value string }

// HashLabelObject hashes a JSON object of label names to values, leaving out __name__,
// which it returns: a series of an instant query answer ({"__name__":"up","job":"x"})
// hashes as the target whose labels are {"job":"x"}. The object is scanned in place:
// names and values without escapes are not copied.
func HashLabelObject(b []byte) (h LabelSetHash, name string, err error) {
	var buf [24]label
	ls, err := scanLabels(b, buf[:0])
	if err != nil {
		return 0, "", fmt.Errorf("decoding a label set: %w", err)
	}
	out := ls[:0]
	for _, l := range ls {
		if l.name == "__name__" {
			name = strings.Clone(l.value)
			continue
		}
		out = append(out, l)
	}
	return hashSorted(out), name, nil
}

// HashLabels hashes a label set (64-bit FNV-1a of the name/value pairs sorted by name).
func HashLabels(m map[string]string) LabelSetHash {
	ls := make([]label, 0, len(m))
	for k, v := range m {
		ls = append(ls, label{k, v})
	}
	return hashSorted(ls)
}

func hashSorted(ls []label) LabelSetHash {
	slices.SortFunc(ls, func(a, b label) int { return strings.Compare(a.name, b.name) })
	f := fnv.New64a()
	sep := []byte{0xff}
	for _, l := range ls {
		_, _ = f.Write([]byte(l.name))
		_, _ = f.Write(sep)
		_, _ = f.Write([]byte(l.value))
		_, _ = f.Write(sep)
	}
	return LabelSetHash(f.Sum64())
}

var errLabels = errors.New("want an object of strings")

// scanLabels reads a flat JSON object of strings (or null) into ls.
func scanLabels(b []byte, ls []label) ([]label, error) {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return ls, nil
	}
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, errLabels
	}
	i := skipSpace(b, 1)
	if b[i] == '}' {
		return ls, nil
	}
	for {
		name, n, err := scanString(b, i)
		if err != nil {
			return nil, err
		}
		i = skipSpace(b, n)
		if b[i] != ':' {
			return nil, errLabels
		}
		value, n, err := scanString(b, skipSpace(b, i+1))
		if err != nil {
			return nil, err
		}
		ls = append(ls, label{name, value})
		i = skipSpace(b, n)
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			if i != len(b)-1 {
				return nil, errLabels
			}
			return ls, nil
		default:
			return nil, errLabels
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	if i >= len(b) {
		return len(b) - 1 // the closing brace: the caller then fails or ends
	}
	return i
}

// scanString reads the JSON string starting at b[i] and returns it and the index after
// it; one with escapes is decoded by encoding/json.
func scanString(b []byte, i int) (string, int, error) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, errLabels
	}
	escaped := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			if !escaped {
				return string(b[i+1 : j]), j + 1, nil
			}
			var s string
			if err := json.Unmarshal(b[i:j+1], &s); err != nil {
				return "", 0, err
			}
			return s, j + 1, nil
		}
	}
	return "", 0, errLabels
}
