package reloadertest

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/lookout-operator/lookout/pkg/certgen"
)

// selfSignedWebConfig writes a self-signed certificate for localhost and 127.0.0.1, its
// key, and a Prometheus web config serving them into dir, and returns the config's path.
func selfSignedWebConfig(dir string) (string, error) {
	tmpl := certgen.Serving(big.NewInt(1), []string{"localhost", "127.0.0.1"}, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
	key, der, err := certgen.Issue("serving", tmpl, nil, nil)
	if err != nil {
		return "", err
	}
	keyPEM, err := certgen.KeyPEM("serving", key)
	if err != nil {
		return "", err
	}
	certFile, keyFile, config := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"), filepath.Join(dir, "web.yaml")
	for path, data := range map[string][]byte{
		certFile: certgen.CertPEM(der),
		keyFile:  keyPEM,
		config:   fmt.Appendf(nil, "tls_server_config:\n  cert_file: %s\n  key_file: %s\n", certFile, keyFile),
	} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return "", err
		}
	}
	return config, nil
}
