package webhook

import (
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/lookout-operator/lookout/pkg/certgen"
)

// Files EnsureSelfSignedCert writes, named as controller-runtime's webhook server and
// cert-manager's Secrets expect.
const (
	CertFile = "tls.crt"
	KeyFile  = "tls.key"
	CAFile   = "ca.crt"
)

const (
	// certValidity is how long generated certificates are valid.
	certValidity = 365 * 24 * time.Hour
	// certRenewBefore is how close to expiry an existing certificate is replaced.
	certRenewBefore = 24 * time.Hour
)

// EnsureSelfSignedCert makes sure dir holds a serving certificate and key for dnsNames
// (entries that are IP addresses become IP SANs), for local runs without cert-manager. It
// keeps an existing tls.crt/tls.key pair that parses, matches, covers every name and is
// valid for more than a day; otherwise it writes a new CA (ca.crt, whose content goes in
// the webhook configurations' caBundle) and a certificate signed by it, valid for a year.
// Files are replaced atomically; the key is readable by the owner only.
func EnsureSelfSignedCert(dir string, dnsNames []string) error {
	if len(dnsNames) == 0 {
		return errors.New("self-signed webhook certificate: no DNS names given")
	}
	if usableCert(dir, dnsNames, time.Now()) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("self-signed webhook certificate: %w", err)
	}
	caPEM, certPEM, keyPEM, err := generateCert(dnsNames, time.Now())
	if err != nil {
		return fmt.Errorf("self-signed webhook certificate: %w", err)
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{{CAFile, caPEM, 0o644}, {KeyFile, keyPEM, 0o600}, {CertFile, certPEM, 0o644}} {
		if err := writeFileAtomic(filepath.Join(dir, f.name), f.data, f.mode); err != nil {
			return fmt.Errorf("self-signed webhook certificate: %w", err)
		}
	}
	return nil
}

// usableCert reports whether dir already has a key pair good for names at now.
func usableCert(dir string, names []string, now time.Time) bool {
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, CertFile), filepath.Join(dir, KeyFile))
	if err != nil || len(pair.Certificate) == 0 {
		return false
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil || now.Before(leaf.NotBefore) || now.Add(certRenewBefore).After(leaf.NotAfter) {
		return false
	}
	for _, n := range names {
		if leaf.VerifyHostname(n) != nil {
			return false
		}
	}
	return true
}

// generateCert creates a CA and a serving certificate signed by it, PEM-encoded.
func generateCert(names []string, now time.Time) (caPEM, certPEM, keyPEM []byte, err error) {
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "lookout-operator webhook CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caKey, caDER, err := certgen.Issue("CA", caTmpl, nil, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading CA certificate: %w", err)
	}

	tmpl := certgen.Serving(serial(), names, now.Add(-time.Hour), now.Add(certValidity))
	key, der, err := certgen.Issue("serving", tmpl, caCert, caKey)
	if err != nil {
		return nil, nil, nil, err
	}
	keyPEM, err = certgen.KeyPEM("serving", key)
	if err != nil {
		return nil, nil, nil, err
	}
	return certgen.CertPEM(caDER), certgen.CertPEM(der), keyPEM, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// writeFileAtomic writes data to a temporary file in the same directory and renames it
// over path, so a reader never sees a half-written file.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
