package promcfg

import (
	"errors"
	"fmt"

	config_util "github.com/prometheus/common/config"
)

// read returns the content of a TLS file the operator writes (path is where; "" when it
// writes none), never nil when there is one: an empty value is material too, and not a
// usable one.
func read(path string, data []byte) []byte {
	if path != "" && data == nil {
		return []byte{}
	}
	return data
}

// checkTLSMaterial builds the TLS settings of an HTTP client from the CA, client
// certificate and key a tls_config reads from Secrets and ConfigMaps (nil for a field that
// is unset or names a file in the pod, which the operator cannot read), with the code
// Prometheus builds them with (common/config.NewTLSConfig). Prometheus's configuration
// loader does not read this material; Prometheus does when it creates the client. For a
// job it already scrapes, a client it cannot create fails the reload (for every tenant's
// change in it: the reload is reported failed and retried), and for remote write or an
// Alertmanager it fails applying the configuration.
func checkTLSMaterial(ca, cert, key []byte) error {
	if ca != nil {
		// An empty value is no CA to the library, but an empty file to Prometheus.
		if _, err := config_util.NewTLSConfig(&config_util.TLSConfig{CA: string(ca)}); err != nil || len(ca) == 0 {
			return errors.New("ca: Prometheus finds no PEM-encoded certificate it can use in it")
		}
	}
	if cert != nil && key != nil {
		_, err := config_util.NewTLSConfig(&config_util.TLSConfig{Cert: string(cert), Key: config_util.Secret(key)})
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // the library's message describes the values as "(inline)"
		}
		if err == nil && (len(cert) == 0 || len(key) == 0) {
			err = errors.New("one of them is empty")
		}
		if err != nil {
			return fmt.Errorf("cert and keySecret are not a certificate and its key Prometheus can use: %w", err)
		}
	}
	return nil
}
