//go:build e2e

package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestWebTLS: with spec.web.tlsConfig, Prometheus serves HTTPS with the certificate from
// the user's Secret (projected with the web config), the kubelet's HTTPS probes pass, and
// the config-reloader reaches it at https://localhost:9090 to apply a new rule.
//
// The certificate is the user's, issued by the user's CA: the reloader cannot verify it
// against system roots, so (like prometheus-config-reloader, which does not verify it
// either) it must reload anyway.
func TestWebTLS(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()

	caPEM, certPEM, keyPEM, err := selfSignedServing("localhost", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t,
		&corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "web-tls"},
			Data:       map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM},
		},
		sc.prometheus(sc.ns, "main", func(p *monitoringv1.Prometheus) {
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{
				TLSConfig: &monitoringv1.WebTLSConfig{
					Cert:      monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "web-tls"}, Key: "tls.crt"}},
					KeySecret: corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "web-tls"}, Key: "tls.key"},
				},
			}}
		}),
	)
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]

	// The suite trusts the CA and checks the name the certificate is for.
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	prom := promAPI{
		base:   strings.Replace(pd.url("web"), "http://", "https://", 1),
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "localhost"}}},
	}
	sc.step("Prometheus serves HTTPS with the user's certificate", 30*time.Second, func() error {
		_, err := prom.config()
		return err
	})

	mustCreate(t, recordingRule(sc, "rule", "e2e:tls", "vector(1)"))
	reloaderLog := filepath.Join(pd.dir, "config-reloader.log")
	sc.step("rule served: the reloader reloaded Prometheus over HTTPS", 60*time.Second, func() error {
		if err := servesRule(prom, "e2e:tls", "vector(1)"); err != nil {
			return fmt.Errorf("%v; last line of the config-reloader log:\n%s", err, tail(reloaderLog, 1))
		}
		return nil
	})
}

// selfSignedServing returns a CA and a serving certificate and key it signed for the
// given names (DNS names or IP addresses), PEM-encoded.
func selfSignedServing(names ...string) (caPEM, certPEM, keyPEM []byte, err error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "e2e user CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: names[0]},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caTmpl, &key.PublicKey, caKey)
	if err != nil {
		return nil, nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}
