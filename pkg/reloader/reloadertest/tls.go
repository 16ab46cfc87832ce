package reloadertest

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/lookout-operator/lookout/pkg/certgen"
)

// selfSignedWebConfig writes a self-signed certificate for localhost and 127.0.0.1, its
// key, and a Prometheus web config serving them into dir, and returns the config's path.
func selfSignedWebConfig(dir string) (string, error) {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
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
