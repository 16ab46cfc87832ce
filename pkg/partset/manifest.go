package partset

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// prefix starts the manifest line. It is a YAML comment: Prometheus reads the
// concatenated configuration as it did without it.
const prefix = "# lookout-config-parts: "

// MaxParts bounds the number of parts a manifest may name.
const MaxParts = 64

// MaxLineLen bounds the manifest line: the prefix, the count, and the name (64 hex digits) of each
// part after the first, each after a space, and the newline.
const MaxLineLen = len(prefix) + 2 + (MaxParts-1)*65 + 1

// ErrMismatch reports that the parts read do not form the set part 0 names: some are
// from another generation, or the pod reads another number of parts than the
// configuration has (its template is older than the configuration).
var ErrMismatch = errors.New("config parts are not one complete set")

// Line returns the manifest line for a configuration in 1+len(hashes) parts: hashes are
// the names (package confighash) of the plain text of parts 1 to n-1, in order.
func Line(hashes []string) []byte {
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteString(strconv.Itoa(len(hashes) + 1))
	for _, h := range hashes {
		b.WriteByte(' ')
		b.WriteString(h)
	}
	b.WriteByte('\n')
	return []byte(b.String())
}

// parse reads the manifest at the start of part 0; ok is false when part 0 has none (a
// configuration in one part).
func parse(head []byte) (hashes []string, ok bool, err error) {
	if !bytes.HasPrefix(head, []byte(prefix)) {
		return nil, false, nil
	}
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 {
		return nil, true, errors.New("config part manifest line has no end")
	}
	fields := strings.Fields(string(head[len(prefix):nl]))
	if len(fields) == 0 {
		return nil, true, errors.New("config part manifest names no part count")
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n < 2 || n > MaxParts || len(fields) != n {
		return nil, true, fmt.Errorf("config part manifest %q is malformed", head[:nl])
	}
	return fields[1:], true, nil
}

// Check compares the parts a reader was given with the manifest at the start of part 0
// (head: at least the first MaxLineLen bytes of part 0's plain text, or all of it when
// shorter). got are the names of the plain text of the parts after part 0, in the
// order read. A mismatch wraps ErrMismatch and says what differs; a malformed manifest is
// another error.
func Check(head []byte, got []string) error {
	want, ok, err := parse(head)
	if err != nil {
		return err
	}
	if !ok {
		if len(got) > 0 {
			return fmt.Errorf("%w: the config is in one part now, this pod reads %d", ErrMismatch, len(got)+1)
		}
		return nil
	}
	if len(want) != len(got) {
		return fmt.Errorf("%w: the config is in %d parts now, this pod reads %d", ErrMismatch, len(want)+1, len(got)+1)
	}
	for i := range want {
		if want[i] != got[i] {
			return fmt.Errorf("%w: part %d is not the one part 0 names (%.12s, want %.12s)", ErrMismatch, i+1, got[i], want[i])
		}
	}
	return nil
}
