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

// configInput is the open config input file. The same open file is read by every pass
// of one check (hash, compare, write), so all of them see one version even when the
// kubelet swaps in a new one meanwhile: the old file stays readable through the open
// descriptor.
type configInput struct {
	f     *os.File
	br    *bufio.Reader
	limit int64
}

// openConfigInput opens path; a missing file is ErrInputMissing.
func openConfigInput(path string) (*configInput, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrInputMissing, path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return &configInput{f: f, br: bufio.NewReaderSize(f, readBufferSize), limit: MaxConfigSize}, nil
}

// Close closes the file.
func (in *configInput) Close() error { return in.f.Close() }

// config returns a reader of the config from its start: decompressed when the file is
// a gzip stream (detected by its magic bytes, whatever the file name), as it is
// otherwise. Reading fails once more than the limit comes out, and with a "gunzip:"
// error for a corrupt archive, which is only known for sure at its end (checksum).
func (in *configInput) config() (io.Reader, error) {
	if _, err := in.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("rewinding %s: %w", in.f.Name(), err)
	}
	in.br.Reset(in.f)
	magic, err := in.br.Peek(len(gzipMagic))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading %s: %w", in.f.Name(), err)
	}
	if !bytes.Equal(magic, gzipMagic) {
		return &limitedReader{r: in.br, left: in.limit, limit: in.limit}, nil
	}
	zr, err := gzip.NewReader(in.br)
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	return &limitedReader{r: gunzipErrors{zr}, left: in.limit, limit: in.limit}, nil
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
