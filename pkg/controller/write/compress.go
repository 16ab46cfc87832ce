package write

import (
	"bytes"
	"compress/gzip"
)

// Compressor gzips one object's generated configuration, remembering the result of the last
// hash and reusing its writer.
type Compressor struct {
	hash  string
	out   []byte
	w     *gzip.Writer
	level int
	// members are the last CompressFrom's gzip members.
	members []member
}

// Compress gzips config (whose hash is hash), reusing the last result when the hash did
// not change. Level 3 is the fastest of Go's levels on generated configs and compresses
// them about 70 times; only when that does not fit a Secret, but might at the best level
// (within half as much again), does it spend four times as long on BestCompression
// (10,000 monitors with three endpoints: 640 KiB in about 50 ms). A config far over is
// spread over several Secrets anyway (ADR 20), each part compressed with
// CompressPartFrom.
func (c *Compressor) Compress(hash string, config []byte) ([]byte, error) {
	return c.compress(hash, config)
}

func (c *Compressor) compress(hash string, config []byte) ([]byte, error) {
	if c.reusable(hash) {
		return c.out, nil
	}
	out, err := c.gzip(config, 3)
	if err == nil && len(out) > MaxSecretData && len(out) <= MaxSecretData*3/2 {
		out, err = c.gzip(config, gzip.BestCompression)
	}
	if err != nil {
		return nil, err
	}
	c.hash, c.out = hash, out
	return out, nil
}

// reusable reports whether the last output is that of hash. An empty hash names no
// content: its input is compressed every time (a caller that compresses only what it
// knows changed, without hashing it first).
func (c *Compressor) reusable(hash string) bool {
	return hash != "" && c.hash == hash && c.out != nil
}

func (c *Compressor) gzip(data []byte, level int) ([]byte, error) {
	return c.gzipPieces([][]byte{data}, len(data), level)
}

// resetWriter points the reused gzip writer at buf, at level.
func (c *Compressor) resetWriter(buf *bytes.Buffer, level int) error {
	if c.w == nil || c.level != level {
		w, err := gzip.NewWriterLevel(buf, level)
		if err != nil {
			return err
		}
		c.w, c.level = w, level
		return nil
	}
	c.w.Reset(buf)
	return nil
}
