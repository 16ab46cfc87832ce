package promplan

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/exporter-toolkit/web"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

func TestWebConfigGolden(t *testing.T) {
	cases := map[string]*monitoringv1.Prometheus{
		"empty": prom(),
		"tls": prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: webTLSFields()}
		}),
		"tls-files": prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{
				TLSConfig: &monitoringv1.WebTLSConfig{
					CertFile:     ptr.To("/etc/tls/tls.crt"),
					KeyFile:      ptr.To("/etc/tls/tls.key"),
					ClientCAFile: ptr.To("/etc/tls/ca.crt"),
				},
			}}
		}),
		"http-only": prom(func(p *monitoringv1.Prometheus) {
			p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{
				HTTPConfig: &monitoringv1.WebHTTPConfig{Headers: &monitoringv1.WebHTTPHeaders{ContentSecurityPolicy: "default-src 'self'", XFrameOptions: "SameOrigin"}},
			}}
		}),
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			b, err := WebConfig(promserver.Of(p))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "webconfig-"+name, b)
		})
	}
}

// Prometheus's own web package loads the generated file and builds a TLS server config
// from it, with real files at the paths the pod would have.
func TestWebConfigLoadsInExporterToolkit(t *testing.T) {
	dir := t.TempDir()
	certPEM, keyPEM := selfSigned(t)
	for file, data := range map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM, "ca.crt": certPEM} {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f := webTLSFields()
	f.TLSConfig.Cert, f.TLSConfig.ClientCA = monitoringv1.SecretOrConfigMap{}, monitoringv1.SecretOrConfigMap{}
	f.TLSConfig.KeySecret.Name, f.TLSConfig.KeySecret.Key = "", ""
	f.TLSConfig.CertFile = ptr.To(filepath.Join(dir, "tls.crt"))
	f.TLSConfig.KeyFile = ptr.To(filepath.Join(dir, "tls.key"))
	f.TLSConfig.ClientCAFile = ptr.To(filepath.Join(dir, "ca.crt"))
	p := prom(func(p *monitoringv1.Prometheus) { p.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: f} })
	b, err := WebConfig(promserver.Of(p))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "web-config.yaml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := web.Validate(path); err != nil {
		t.Fatalf("exporter-toolkit rejects the generated web config: %v\n%s", err, b)
	}
	// The header values must be in the spelling the toolkit accepts (lower case).
	if !strings.Contains(string(b), "X-Frame-Options: deny") {
		t.Errorf("headers not normalised:\n%s", b)
	}
}

func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "localhost"},
		DNSNames:              []string{"localhost"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

func TestServiceAndRBACGolden(t *testing.T) {
	golden(t, "service", toYAML(t, GoverningService(promserver.Of(prom()))))
	role, err := ReloaderRole(Input{Prometheus: promserver.Of(prom()), RuleConfigMaps: 6})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "reloader-role", toYAML(t, role))
	golden(t, "reloader-rolebinding", toYAML(t, ReloaderRoleBinding(promserver.Of(prom(func(p *monitoringv1.Prometheus) { p.Spec.ServiceAccountName = "prometheus-k8s" })))))
	if _, err := ReloaderRole(Input{}); err == nil {
		t.Error("ReloaderRole without Prometheus: no error")
	}
}

// The Role names exactly the objects the reloader watches in API-watch mode.
func TestReloaderRoleMatchesWatches(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderWatchAPI = true
	in := Input{Prometheus: promserver.Of(prom()), RuleConfigMaps: 6}
	sts, err := StatefulSet(in, opts, 0)
	if err != nil {
		t.Fatal(err)
	}
	role, err := ReloaderRole(in)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, r := range role.Rules {
		for _, n := range r.ResourceNames {
			allowed[r.Resources[0]+"/"+n] = true
		}
	}
	watched := 0
	for _, c := range append(sts.Spec.Template.Spec.InitContainers, sts.Spec.Template.Spec.Containers...) {
		for _, a := range c.Args {
			var kind, rest string
			switch {
			case strings.HasPrefix(a, "--watch-secret="):
				kind, rest = "secrets", strings.TrimPrefix(a, "--watch-secret=")
			case strings.HasPrefix(a, "--watch-configmap="):
				kind, rest = "configmaps", strings.TrimPrefix(a, "--watch-configmap=")
			default:
				continue
			}
			ref, _, _ := strings.Cut(rest, "=")
			ns, name, _ := strings.Cut(ref, "/")
			if ns != "monitoring" || !allowed[kind+"/"+name] {
				t.Errorf("%s %s is watched but not allowed", kind, ref)
			}
			watched++
		}
	}
	if watched != 2*(1+8) {
		t.Errorf("watched %d objects in two containers, want %d", watched, 2*(1+8))
	}
	if len(allowed) != 1+8 {
		t.Errorf("the Role allows %d objects, want %d", len(allowed), 1+8)
	}
}
