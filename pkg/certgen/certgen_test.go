package certgen

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"
)

func TestIssue(t *testing.T) {
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour)}
	caKey, caDER, err := Issue("CA", caTmpl, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), DNSNames: []string{"example.test"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour)}
	key, der, err := Issue("serving", tmpl, ca, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err := KeyPEM("serving", key)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.X509KeyPair(CertPEM(der), keyPEM)
	if err != nil {
		t.Fatalf("the PEM blocks do not make a key pair: %v", err)
	}
	leaf, _ := x509.ParseCertificate(pair.Certificate[0])
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "example.test"}); err != nil {
		t.Errorf("the serving certificate does not verify against the CA: %v", err)
	}
}
