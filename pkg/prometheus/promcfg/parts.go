package promcfg

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"strings"
	"unsafe"
)

// scrapeConfigsLine opens the scrape job list; the generator writes it last in the file.
var scrapeConfigsLine = []byte("scrape_configs:\n")

// SplitConfig spreads a generated configuration over n parts whose concatenation, part 0
// first, is the same configuration with its scrape jobs in another order: part 0 holds
// everything before the job list and the list's key, the other parts the jobs. A job's
// part depends only on its job name and n (the jobs of one monitor, named
// <kind>/<namespace>/<name>/<endpoint>, share a part), so a change to one monitor changes
// one part besides part 0, whose manifest line names the others (ADR 38) and which is
// kept small so that rewriting it costs little (ADR 42). The order of the jobs within a
// part is their order in config.
//
// This works because the generator writes scrape_configs as the last top-level key and
// each job as a list item starting at the line's first column. n of 1 (or a
// configuration without jobs) gives config itself as the only part. The parts are built
// in reuse's slices when it has them (their content is overwritten): a large
// configuration is split again on every change, and zeroing fresh buffers of its size
// would cost more than the split.
func SplitConfig(config []byte, n int, reuse [][]byte) ([][]byte, error) {
	if n < 1 {
		return nil, errors.New("a configuration splits into at least one part")
	}
	start := -1
	if bytes.HasPrefix(config, scrapeConfigsLine) {
		start = 0
	} else if i := bytes.Index(config, append([]byte("\n"), scrapeConfigsLine...)); i >= 0 {
		start = i + 1
	}
	if n == 1 || start < 0 {
		return [][]byte{config}, nil
	}
	body := start + len(scrapeConfigsLine)
	parts := make([][]byte, n)
	for i := range parts {
		if i < len(reuse) {
			parts[i] = reuse[i][:0]
		}
		if want := (len(config)-body)/(n-1) + (len(config)-body)/(4*(n-1)); i > 0 && cap(parts[i]) < want {
			parts[i] = make([]byte, 0, want)
		}
	}
	parts[0] = append(parts[0], config[:body]...)
	for rest := config[body:]; len(rest) > 0; {
		if !bytes.HasPrefix(rest, []byte("- ")) {
			return nil, errors.New("the scrape job list is not the last key of the configuration")
		}
		end := nextItem(rest)
		job := rest[:end]
		i := jobPart(itemJobName(job), n)
		parts[i] = append(parts[i], job...)
		rest = rest[end:]
	}
	return parts, nil
}

// nextItem returns where the list item starting b ends: at the next line that starts in
// the first column, or at the end of b.
func nextItem(b []byte) int {
	for i := 0; i < len(b); {
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			return len(b)
		}
		i += nl + 1
		if i < len(b) && b[i] != ' ' {
			return i
		}
	}
	return len(b)
}

// itemJobName returns the job_name of a job list item (a key of the item itself, not of
// something nested in it), or the item's first line.
func itemJobName(job []byte) string {
	first, rest, _ := bytes.Cut(job, []byte("\n"))
	if name, ok := bytes.CutPrefix(first, []byte("- job_name: ")); ok {
		return strings.Trim(string(name), `"'`)
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if name, ok := bytes.CutPrefix(line, []byte("  job_name: ")); ok {
			return strings.Trim(string(name), `"'`)
		}
	}
	return string(first)
}

// jobPart is the part, of n (2 or more), that holds the job named name: one of parts 1
// to n-1 (part 0 holds none), by its monitor: the job name without its trailing endpoint
// number.
func jobPart(name string, n int) int {
	if i := strings.LastIndexByte(name, '/'); i > 0 && isDigits(name[i+1:]) {
		name = name[:i]
	}
	// Not FNV: its low bits depend only on the low bits of the input bytes, which
	// leaves some parts empty for names that differ in a few digits.
	sum := sha256.Sum256([]byte(name))
	return 1 + int(binary.BigEndian.Uint32(sum[:4])%uint32(n-1))
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Parts spreads a configuration given as pieces (Result.Pieces) over n parts as
// SplitConfig spreads its bytes, without joining or copying them: parts[i] are the pieces
// of part i in order, and the parts joined are what SplitConfig returns for the pieces
// joined. Each piece after the job list's key is one monitor's jobs (or one additional
// job) and goes whole to the part of its first job, which is the part of every job of
// the monitor. A piece that is the same as the previous call's at its position (the very
// same cached bytes) keeps its part without reading its job name, so that a change costs
// a pass over the piece list, not over the configuration. ok is false when the pieces
// are not in that shape (no job list key, or a piece after it that does not start a list
// item); split their bytes with SplitConfig then.
//
// The zero value is ready to use; a Parts holds the previous call's pieces (their
// headers, not copies) until the next call.
type Parts struct {
	prev []placed
	n    int // the number of parts prev were placed in
}

// placed is a piece and the part it went to.
type placed struct {
	data *byte
	len  int
	part int
}

// Assign returns the pieces of each of n parts.
func (p *Parts) Assign(pieces [][]byte, n int) (parts [][][]byte, ok bool) {
	if n < 2 {
		return [][][]byte{pieces}, true
	}
	key := -1
	for i, piece := range pieces {
		if bytes.Equal(piece, scrapeConfigsLine) {
			key = i
			break
		}
	}
	if key < 0 {
		return nil, false
	}
	per := len(pieces)/(n-1) + 1
	parts = make([][][]byte, n)
	parts[0] = append(make([][]byte, 0, key+1), pieces[:key+1]...)
	for i := 1; i < n; i++ {
		parts[i] = make([][]byte, 0, per)
	}
	placedNow := make([]placed, len(pieces))
	for i := key + 1; i < len(pieces); i++ {
		piece := pieces[i]
		if len(piece) == 0 {
			continue
		}
		at := placed{data: unsafe.SliceData(piece), len: len(piece), part: -1}
		if p.n == n && i < len(p.prev) && p.prev[i].data == at.data && p.prev[i].len == at.len {
			at.part = p.prev[i].part
		} else {
			if !bytes.HasPrefix(piece, []byte("- ")) {
				return nil, false
			}
			at.part = jobPart(itemJobName(piece), n)
		}
		placedNow[i] = at
		parts[at.part] = append(parts[at.part], piece)
	}
	p.prev, p.n = placedNow, n
	return parts, true
}
