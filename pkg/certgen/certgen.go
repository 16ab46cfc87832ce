// Package certgen issues the ECDSA P-256 certificates Lookout makes for itself: the
// webhook's self-signed CA and serving certificate, and the test servers' certificates.
package certgen

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"
)

// Issue makes a new P-256 key and a certificate for it from tmpl, signed by parent with
// parentKey, or self-signed when parent is nil. It returns the key and the certificate
// (DER); what names the certificate in errors ("CA": "generating CA key: ...").
func Issue(what string, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generating %s key: %w", what, err)
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		return nil, nil, fmt.Errorf("signing %s certificate: %w", what, err)
	}
	return key, der, nil
}

// Serving is the template of a server certificate for names, the first of which is its
// common name; names that are IP addresses become IP SANs, the others DNS SANs.
func Serving(serial *big.Int, names []string, notBefore, notAfter time.Time) *x509.Certificate {
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: names[0]},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	return tmpl
}

// CertPEM is the PEM block of a DER certificate.
func CertPEM(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// KeyPEM is the PEM block ("EC PRIVATE KEY") of key; what names it in errors.
func KeyPEM(what string, key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encoding %s key: %w", what, err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}
