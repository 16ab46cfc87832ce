package confighash

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// cutBefore is what a chunk starts with after its newline: a top-level sequence item.
var cutBefore = []byte("\n- ")

// Writer computes the name of the text written to it, however the text is cut into
// writes. The zero Writer is not ready: use NewWriter.
type Writer struct {
	outer, chunk hash.Hash
	// open: the current chunk has bytes. nl: the last byte written was a newline. dash: a
	// '-' after a newline is held back until the next byte tells whether it starts a
	// chunk.
	open, nl, dash bool
	sum            [sha256.Size]byte
}

// NewWriter returns a Writer for a new text.
func NewWriter() *Writer {
	return &Writer{outer: sha256.New(), chunk: sha256.New()}
}

// Sum returns the name of text.
func Sum(text []byte) string {
	w := NewWriter()
	w.Write(text)
	return w.Sum()
}

// Write adds p to the text; it never fails.
func (w *Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) == 0 {
		return 0, nil
	}
	if w.dash {
		w.dash = false
		if p[0] == ' ' {
			w.cut()
		}
		w.add([]byte{'-'})
	} else if w.nl && p[0] == '-' {
		if len(p) == 1 {
			w.dash, w.nl = true, false
			return n, nil
		}
		if p[1] == ' ' {
			w.cut()
		}
	}
	for {
		i := bytes.Index(p, cutBefore)
		if i < 0 {
			break
		}
		w.add(p[:i+1])
		w.cut()
		p = p[i+1:]
	}
	if k := len(p); k >= 2 && p[k-2] == '\n' && p[k-1] == '-' {
		w.add(p[:k-1])
		w.dash, w.nl = true, false
		return n, nil
	}
	w.add(p)
	w.nl = p[len(p)-1] == '\n'
	return n, nil
}

// Sum returns the hex name of the text written so far and ends it: write nothing after.
func (w *Writer) Sum() string {
	if w.dash {
		w.add([]byte{'-'})
		w.dash = false
	}
	w.cut()
	return hex.EncodeToString(w.outer.Sum(nil))
}

// add appends p to the current chunk.
func (w *Writer) add(p []byte) {
	if len(p) > 0 {
		w.chunk.Write(p)
		w.open = true
	}
}

// cut ends the current chunk, if it has bytes.
func (w *Writer) cut() {
	if w.open {
		w.outer.Write(w.chunk.Sum(w.sum[:0]))
		w.chunk.Reset()
		w.open = false
	}
}

// resume starts a chunk with p, the end of a piece whose last byte is a newline.
func (w *Writer) resume(p []byte) {
	w.add(p)
	w.nl, w.dash = true, false
}
