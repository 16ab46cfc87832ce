package integration

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"sync"
	"time"
)

// TLS material: a CA, a client certificate and its key, and a key of another certificate.
var tlsMaterial = sync.OnceValue(func() (m struct{ ca, cert, key, otherKey string }) {
	newKey := func() (*ecdsa.PrivateKey, string) {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		der, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			panic(err)
		}
		return k, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
	}
	newCert := func(k *ecdsa.PrivateKey, cn string, ca bool) string {
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn}, NotBefore: time.Now().Add(-time.Hour),
			NotAfter: time.Now().Add(24 * time.Hour), IsCA: ca, BasicConstraintsValid: true,
			KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
		if err != nil {
			panic(err)
		}
		return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	}
	caKey, _ := newKey()
	m.ca = newCert(caKey, "corpus CA", true)
	certKey, keyPEM := newKey()
	m.cert, m.key = newCert(certKey, "corpus client", false), keyPEM
	_, m.otherKey = newKey()
	return m
})
