package operator

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/lookout-operator/lookout/pkg/webhook"
)

// serveWeb starts the metrics listener as the manager would and returns its address.
func serveWeb(t *testing.T, o Options) string {
	t.Helper()
	o.MetricsAddr = "127.0.0.1:0"
	mo, runnables, err := webServer(o, logr.Discard())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := metricsserver.NewServer(mo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	for _, r := range runnables {
		go func() { _ = r.Start(ctx) }()
	}
	go func() { defer close(done); _ = srv.Start(ctx) }()
	addrOf := srv.(interface{ GetBindAddr() string })
	deadline := time.Now().Add(10 * time.Second)
	for addrOf.GetBindAddr() == "" {
		if time.Now().After(deadline) {
			t.Fatal("the web listener did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return addrOf.GetBindAddr()
}

func get(t *testing.T, c *http.Client, url string) (int, error) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func TestWebPlainHTTP(t *testing.T) {
	addr := serveWeb(t, DefaultOptions())
	for _, path := range []string{"/metrics", "/healthz"} {
		if code, err := get(t, http.DefaultClient, "http://"+addr+path); err != nil || code != http.StatusOK {
			t.Errorf("%s: %d %v", path, code, err)
		}
	}

	// The webhook paths are not served in plain HTTP: the API server would not call them.
	for _, path := range []string{webhook.ValidatePath, webhook.MutatePath, webhook.AlertmanagerConfigValidatePath, webhook.ConvertPath} {
		resp, err := http.Post("http://"+addr+path, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s in plain HTTP: %d, want 404", path, resp.StatusCode)
		}
	}
}

// TestWebPprof: /debug/pprof/ is served on the web listener as prometheus-operator serves
// it there (always), unless --web.enable-pprof=false (issue 33).
func TestWebPprof(t *testing.T) {
	addr := serveWeb(t, DefaultOptions())
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/heap", "/debug/pprof/symbol"} {
		if code, err := get(t, http.DefaultClient, "http://"+addr+path); err != nil || code != http.StatusOK {
			t.Errorf("%s: %d %v", path, code, err)
		}
	}
	o := DefaultOptions()
	o.Web.Pprof = false
	addr = serveWeb(t, o)
	if code, err := get(t, http.DefaultClient, "http://"+addr+"/debug/pprof/"); err != nil || code != http.StatusNotFound {
		t.Errorf("/debug/pprof/ with --web.enable-pprof=false: %d %v, want 404", code, err)
	}
}

// checkWebhooks checks the admission paths prometheus-operator serves on its web listener,
// and that a request body over webhook.MaxRequestBytes is refused with 413.
func checkWebhooks(t *testing.T, c *http.Client, base string) {
	t.Helper()
	review := func(path, kind string, object string) *admissionv1.AdmissionResponse {
		version := "v1"
		if kind == "AlertmanagerConfig" {
			version = "v1alpha1"
		}
		t.Helper()
		body, _ := json.Marshal(admissionv1.AdmissionReview{
			TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
			Request: &admissionv1.AdmissionRequest{
				UID: "1", Operation: admissionv1.Create,
				Kind:   metav1.GroupVersionKind{Group: "monitoring.coreos.com", Version: version, Kind: kind},
				Object: runtime.RawExtension{Raw: []byte(object)},
			},
		})
		resp, err := c.Post(base+path, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out admissionv1.AdmissionReview
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Response == nil {
			t.Fatalf("%s: %v", path, err)
		}
		return out.Response
	}
	badRule := `{"apiVersion":"monitoring.coreos.com/v1","kind":"PrometheusRule","metadata":{"name":"r","namespace":"n"},"spec":{"groups":[{"name":"g","rules":[{"alert":"A","expr":"up =="}]}]}}`
	if r := review(webhook.ValidatePath, "PrometheusRule", badRule); r.Allowed {
		t.Error("an invalid PrometheusRule was allowed")
	}
	if r := review(webhook.MutatePath, "PrometheusRule", badRule); !r.Allowed {
		t.Errorf("mutate: %v", r.Result)
	}
	amc := `{"apiVersion":"monitoring.coreos.com/v1alpha1","kind":"AlertmanagerConfig","metadata":{"name":"a","namespace":"n"},"spec":{"receivers":[{"name":"r"}],"route":{"receiver":"r"}}}`
	if r := review(webhook.AlertmanagerConfigValidatePath, "AlertmanagerConfig", amc); !r.Allowed {
		t.Errorf("a valid AlertmanagerConfig was refused: %v", r.Result)
	}
	badAMC := `{"apiVersion":"monitoring.coreos.com/v1alpha1","kind":"AlertmanagerConfig","metadata":{"name":"a","namespace":"n"},"spec":{"receivers":[{"name":"r"}],"route":{"receiver":"missing"}}}`
	if r := review(webhook.AlertmanagerConfigValidatePath, "AlertmanagerConfig", badAMC); r.Allowed {
		t.Error("an AlertmanagerConfig routing to an unknown receiver was allowed")
	}
	// 64 MiB, streamed without a length: refused once the limit is passed.
	for _, path := range []string{webhook.ConvertPath, webhook.ValidatePath} {
		body := io.LimitReader(zeros{}, 64<<20)
		resp, err := c.Post(base+path, "application/json", body)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s with a 64 MiB body: %d, want 413", path, resp.StatusCode)
		}
	}
}

// zeros is an endless body.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func TestWebTLS(t *testing.T) {
	dir := t.TempDir()
	if err := webhook.EnsureSelfSignedCert(dir, []string{"localhost", "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	ca := x509.NewCertPool()
	caPEM, err := os.ReadFile(filepath.Join(dir, webhook.CAFile))
	if err != nil || !ca.AppendCertsFromPEM(caPEM) {
		t.Fatalf("reading the CA: %v", err)
	}
	o := DefaultOptions()
	o.Web = WebOptions{TLS: true, CertFile: filepath.Join(dir, webhook.CertFile), KeyFile: filepath.Join(dir, webhook.KeyFile),
		ClientCAFile: filepath.Join(dir, "absent-ca.crt"), MinVersion: tls.VersionTLS13, ReloadInterval: time.Minute}
	addr := serveWeb(t, o)

	client := func(cfg *tls.Config) *http.Client {
		cfg.RootCAs = ca
		return &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
	}
	if code, err := get(t, client(&tls.Config{}), "https://"+addr+"/healthz"); err != nil || code != http.StatusOK {
		t.Fatalf("/healthz over TLS: %d %v", code, err)
	}
	checkWebhooks(t, client(&tls.Config{}), "https://"+addr)
	resp, err := client(&tls.Config{}).Get("https://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 1 {
		t.Errorf("HTTP/%d without --web.enable-http2", resp.ProtoMajor)
	}
	if _, err := get(t, client(&tls.Config{MaxVersion: tls.VersionTLS12}), "https://"+addr+"/healthz"); err == nil {
		t.Error("a TLS 1.2 client got through --web.tls-min-version=VersionTLS13")
	}
	if code, err := get(t, http.DefaultClient, "http://"+addr+"/healthz"); err == nil && code == http.StatusOK {
		t.Error("plain HTTP answered on the TLS listener")
	}
}

func TestWebClientCA(t *testing.T) {
	dir := t.TempDir()
	if err := webhook.EnsureSelfSignedCert(dir, []string{"localhost", "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	serverCA := x509.NewCertPool()
	caPEM, _ := os.ReadFile(filepath.Join(dir, webhook.CAFile))
	serverCA.AppendCertsFromPEM(caPEM)
	clientCAPEM, clientCert := clientCertificate(t)
	caPath := filepath.Join(dir, "client-ca.crt")
	if err := os.WriteFile(caPath, clientCAPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.Web = WebOptions{TLS: true, CertFile: filepath.Join(dir, webhook.CertFile), KeyFile: filepath.Join(dir, webhook.KeyFile),
		ClientCAFile: caPath, MinVersion: tls.VersionTLS12, ReloadInterval: time.Minute}
	addr := serveWeb(t, o)
	with := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: serverCA, Certificates: []tls.Certificate{clientCert}}}}
	without := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: serverCA}}}
	if code, err := get(t, with, "https://"+addr+"/metrics"); err != nil || code != http.StatusOK {
		t.Errorf("with a client certificate: %d %v", code, err)
	}
	if _, err := get(t, without, "https://"+addr+"/metrics"); err == nil {
		t.Error("no client certificate, but the request got through")
	}
}

func TestWebMissingCertificate(t *testing.T) {
	o := DefaultOptions()
	o.Web.TLS = true
	o.Web.CertFile, o.Web.KeyFile = "/nonexistent/tls.crt", "/nonexistent/tls.key"
	if _, _, err := webServer(o, logr.Discard()); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("missing certificate: %v", err)
	}
}

// clientCertificate returns a CA (PEM) and a client certificate it signed.
func clientCertificate(t *testing.T) ([]byte, tls.Certificate) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "client CA"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "prometheus"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
