package reloader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// errDiffers stops a comparing pass at the first difference.
var errDiffers = errors.New("content differs")

// comparer is an io.Writer that checks what is written against a reader, chunk by
// chunk, without holding either side whole. Write fails with errDiffers at the first
// difference; equal reports whether everything written matched and the reader had
// nothing more.
type comparer struct {
	r   *bufio.Reader
	buf []byte
}

func newComparer(r io.Reader) *comparer {
	return &comparer{r: bufio.NewReaderSize(r, readBufferSize), buf: make([]byte, readBufferSize)}
}

// Write implements io.Writer.
func (c *comparer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		chunk := p[:min(len(p), len(c.buf))]
		got := c.buf[:len(chunk)]
		if _, err := io.ReadFull(c.r, got); errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return n, errDiffers
		} else if err != nil {
			return n, fmt.Errorf("reading the current output: %w", err)
		}
		if !bytes.Equal(got, chunk) {
			return n, errDiffers
		}
		p = p[len(chunk):]
	}
	return n, nil
}

// equal reports whether the reader ends where the written content did.
func (c *comparer) equal() (bool, error) {
	_, err := c.r.ReadByte()
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading the current output: %w", err)
	}
	return false, nil
}
