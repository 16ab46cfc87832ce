package reloader

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// MaxConfigSize bounds the decompressed size of the config input, so a corrupt or hostile
// archive cannot exhaust the sidecar's memory.
const MaxConfigSize = 256 << 20

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// Decode returns the config held in raw: gunzipped when raw is a gzip stream (detected by
// its magic bytes, whatever the file name), unchanged otherwise.
func Decode(raw []byte) ([]byte, error) { return decode(raw, MaxConfigSize) }

// decode is Decode with a size limit.
func decode(raw []byte, limit int64) ([]byte, error) {
	if !bytes.HasPrefix(raw, gzipMagic) {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("gunzip: decompressed config larger than %d bytes", limit)
	}
	if err := zr.Close(); err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	return out, nil
}
