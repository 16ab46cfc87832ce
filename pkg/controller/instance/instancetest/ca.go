package instancetest

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"sync"
	"time"

	"github.com/lookout-operator/lookout/pkg/certgen"
)

// CA is a self-signed CA certificate, PEM-encoded, made once per test binary.
var CA = sync.OnceValue(func() string {
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"}, IsCA: true, BasicConstraintsValid: true,
		NotBefore: time.Unix(1_600_000_000, 0), NotAfter: time.Unix(2_000_000_000, 0), KeyUsage: x509.KeyUsageCertSign}
	_, der, err := certgen.Issue("test CA", tmpl, nil, nil)
	if err != nil {
		panic(err)
	}
	return string(certgen.CertPEM(der))
})
