package reloader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxConfigSize bounds the size of the config after decompression, so a corrupt or
// hostile archive cannot make the sidecar decompress forever.
const MaxConfigSize = 256 << 20

// readBufferSize is the size of the buffers a pass over the config reads and writes
// with. Memory use does not depend on the config's size.
const readBufferSize = 32 << 10

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// ErrInputMissing reports that the config input file does not exist (yet).
var ErrInputMissing = errors.New("config input does not exist")

// ErrPartsMismatch reports a config in several parts that are not yet one complete set
// (the kubelet has not synced them all, or this pod's template reads another number of
// parts than the config has now). It is waited for like a missing input: the last
// rendered config stays.
var ErrPartsMismatch = fmt.Errorf("%w: config parts from different generations", ErrInputMissing)

// configInput is the open config input: the config file and, when the operator spread
// a large config over several Secrets, its further parts, read in order as one config.
// The same open files are read by every pass of one check (hash, compare, write), so all
// of them see one version even when the kubelet swaps in a new one meanwhile: the old
// files stay readable through the open descriptors.
type configInput struct {
	parts []*inputPart
	limit int64
}

// inputPart is one open file of the config input.
type inputPart struct {
	f  *os.File
	br *bufio.Reader
}

// openConfigInput opens the config file and its further parts; a missing file is
// ErrInputMissing.
func openConfigInput(paths ...string) (*configInput, error) {
	in := &configInput{limit: MaxConfigSize}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			_ = in.Close()
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%w: %s", ErrInputMissing, path)
			}
			return nil, fmt.Errorf("opening %s: %w", path, err)
		}
		in.parts = append(in.parts, &inputPart{f: f, br: bufio.NewReaderSize(f, readBufferSize)})
	}
	return in, nil
}

// Close closes the files.
func (in *configInput) Close() error {
	var errs []error
	for _, p := range in.parts {
		errs = append(errs, p.f.Close())
	}
	return errors.Join(errs...)
}

// config returns a reader of the config from its start: each part decompressed when it
// is a gzip stream (detected by its magic bytes, whatever the file name), as it is
// otherwise, the parts one after the other. Reading fails once more than the limit comes
// out in all, and with a "gunzip:" error for a corrupt archive, which is only known for
// sure at its end (checksum).
func (in *configInput) config() (io.Reader, error) {
	readers := make([]io.Reader, 0, len(in.parts))
	for _, p := range in.parts {
		r, err := p.reader()
		if err != nil {
			return nil, err
		}
		readers = append(readers, r)
	}
	var r io.Reader = readers[0]
	if len(readers) > 1 {
		r = io.MultiReader(readers...)
	}
	return &limitedReader{r: r, left: in.limit, limit: in.limit}, nil
}

// reader rewinds the part and returns its content, decompressed when gzipped.
func (p *inputPart) reader() (io.Reader, error) {
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("rewinding %s: %w", p.f.Name(), err)
	}
	p.br.Reset(p.f)
	magic, err := p.br.Peek(len(gzipMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading %s: %w", p.f.Name(), err)
	}
	if !bytes.Equal(magic, gzipMagic) {
		return p.br, nil
	}
	zr, err := gzip.NewReader(p.br)
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", p.f.Name(), err)
	}
	return gunzipErrors{zr}, nil
}

// gunzipErrors prefixes the errors of a gzip stream.
type gunzipErrors struct{ r io.Reader }

func (g gunzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("gunzip: %w", err)
	}
	return n, err
}

// limitedReader fails when r yields more than left bytes (io.LimitReader would end the
// stream silently instead).
type limitedReader struct {
	r           io.Reader
	left, limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.tooLarge()
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, l.tooLarge()
	}
	return n, err
}

func (l *limitedReader) tooLarge() error {
	return fmt.Errorf("config larger than %d bytes after decompression", l.limit)
}
