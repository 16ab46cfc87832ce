package promcfg

import (
	"compress/gzip"
	"fmt"
)

// Bounds on what one object may add to the configuration. Without them a single monitor
// could make the configuration, and the operator's memory, as large as it likes: one
// ServiceMonitor of 40,000 one-line endpoints renders to 59 MB of YAML. Both limits are
// far above real use (a ServiceMonitor rarely has more than ten endpoints; the jobs of one
// object are rarely over 100 KiB) and are documented in Documentation/scrape-config.md.
const (
	// MaxJobsPerObject is the most endpoints (hence scrape jobs) one ServiceMonitor or
	// PodMonitor may have. It is checked before anything is rendered.
	MaxJobsPerObject = 1000
	// MaxObjectBytes is the most bytes of configuration the jobs of one object may take.
	MaxObjectBytes = 2 << 20
	// MaxObjectCompressedBytes is the most bytes the jobs of one object may take gzipped,
	// as the config Secret stores the file: a quarter of what a Secret holds. Generated
	// configuration compresses about 70 times, but text gzip cannot squeeze (a random
	// string in a relabeling) would otherwise let one object within MaxObjectBytes fill
	// the config Secret alone, and no configuration change of anybody could be written.
	MaxObjectCompressedBytes = 256 << 10
	// MaxTLSAssetBytes is the most bytes one CA, certificate or key file read from a
	// Secret or ConfigMap may have: the tls-assets Secret that holds it (with others)
	// must fit what a Secret holds. A bundle of all public CAs is about 220 KB.
	MaxTLSAssetBytes = 512 << 10
	// DefaultMaxNamespaceBytes is the default of Generator.MaxNamespaceBytes (the
	// operator's --max-namespace-config-bytes): what the monitors of one namespace may add
	// together. Per object the bounds above hold, but thirty objects within them make a
	// 42 MB configuration; 8 MiB is about 5,000 ordinary jobs in one namespace.
	DefaultMaxNamespaceBytes = 8 << 20
	// maxLoadBytes bounds the text of the jobs one load of Prometheus's loader checks at
	// once (several monitors are loaded together, ADR 23): the loader's memory grows with
	// the text, so a batch of large monitors loads one by one.
	maxLoadBytes = 256 << 10
)

// errNamespaceBound is the verdict of a monitor whose jobs would take its namespace past
// limit: used bytes are taken by the monitors of the namespace written before it.
func errNamespaceBound(ns string, used, own, limit int) error {
	return fmt.Errorf("the jobs render to %d bytes, and the monitors of namespace %s written before this one already add %d: together more than the %d bytes of configuration one namespace may add (the operator's --max-namespace-config-bytes)",
		own, ns, used, limit)
}

// checkJobCount rejects more endpoints than MaxJobsPerObject in field.
func checkJobCount(field string, n int) error {
	if n > MaxJobsPerObject {
		return fmt.Errorf("%s: %d endpoints, more than the %d one object may have", field, n, MaxJobsPerObject)
	}
	return nil
}

// errTooLarge is the error for jobs rendering to more than MaxObjectBytes.
func errTooLarge(n int) error {
	return fmt.Errorf("the jobs render to more than %d bytes (%d so far), the most configuration one object may add", MaxObjectBytes, n)
}

// checkCompressedSize rejects jobs (their text, as written) that gzip to more than
// MaxObjectCompressedBytes. Text no longer than that cannot compress to more (gzip's few
// bytes of framing aside), so only large objects are compressed; BestSpeed compresses
// least of gzip's levels, so the estimate errs on the large side of what the controller
// stores.
func checkCompressedSize(text []byte) error {
	if len(text) <= MaxObjectCompressedBytes {
		return nil
	}
	var n countingWriter
	w, err := gzip.NewWriterLevel(&n, gzip.BestSpeed)
	if err != nil {
		return err
	}
	if _, err := w.Write(text); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if n > MaxObjectCompressedBytes {
		return fmt.Errorf("the jobs render to %d bytes that compress to %d, more than the %d bytes of compressed configuration one object may add (the config Secret holds about 1 MiB for all objects together)",
			len(text), int(n), MaxObjectCompressedBytes)
	}
	return nil
}

// countingWriter counts the bytes written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
