package webhook

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func readFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEnsureSelfSignedCertServesTLS(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "certs")
	names := []string{"lookout-operator.lookout.svc", "localhost", "127.0.0.1"}
	if err := EnsureSelfSignedCert(dir, names); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, KeyFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, CertFile), filepath.Join(dir, KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(readFile(t, dir, CAFile)) {
		t.Fatal("ca.crt holds no certificate")
	}

	// A TLS handshake on loopback, verified against ca.crt for every name.
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	for _, name := range names {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", ln.Addr().String(),
			&tls.Config{RootCAs: pool, ServerName: name, MinVersion: tls.VersionTLS12})
		if err != nil {
			t.Errorf("handshake as %s: %v", name, err)
			continue
		}
		conn.Close()
	}
	conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: pool, ServerName: "other.example", MinVersion: tls.VersionTLS12})
	if err == nil {
		conn.Close()
		t.Error("certificate accepted for a name it was not issued for")
	}
}

func TestEnsureSelfSignedCertKeepsOrRenews(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a.example"}
	if err := EnsureSelfSignedCert(dir, names); err != nil {
		t.Fatal(err)
	}
	first := readFile(t, dir, CertFile)

	// A usable certificate is kept.
	if err := EnsureSelfSignedCert(dir, names); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, readFile(t, dir, CertFile)) {
		t.Error("a usable certificate was replaced")
	}
	// A new name needs a new certificate.
	if err := EnsureSelfSignedCert(dir, []string{"a.example", "b.example"}); err != nil {
		t.Fatal(err)
	}
	second := readFile(t, dir, CertFile)
	if bytes.Equal(first, second) {
		t.Error("certificate not renewed for a new name")
	}
	// Close to expiry, or damaged, it is replaced.
	if usableCert(dir, names, time.Now().Add(certValidity-time.Hour)) {
		t.Error("a certificate expiring within the hour counts as usable")
	}
	if err := os.WriteFile(filepath.Join(dir, CertFile), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := EnsureSelfSignedCert(dir, names); err != nil {
		t.Fatal(err)
	}
	if _, err := tls.LoadX509KeyPair(filepath.Join(dir, CertFile), filepath.Join(dir, KeyFile)); err != nil {
		t.Errorf("damaged certificate not replaced: %v", err)
	}
	if err := EnsureSelfSignedCert(dir, nil); err == nil {
		t.Error("no names accepted")
	}
}
