// Package certgen issues the ECDSA P-256 certificates Lookout makes for itself: the
// webhook's self-signed CA and serving certificate, and the test servers' certificates.
package certgen

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
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
