package promcfg

import "fmt"

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
	// MaxTLSAssetBytes is the most bytes one CA, certificate or key file read from a
	// Secret or ConfigMap may have: the tls-assets Secret that holds it (with others)
	// must fit what a Secret holds. A bundle of all public CAs is about 220 KB.
	MaxTLSAssetBytes = 512 << 10
)

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
