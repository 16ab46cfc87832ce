package promcfg_test

import (
	"fmt"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TLS material the tests' Secrets and ConfigMaps hold: Prometheus builds an HTTP client
// from it, so it must be real. Self-signed ECDSA certificates valid until 2125, made for
// these tests only.
const (
	testCA          = "-----BEGIN CERTIFICATE-----\nMIIBZjCCAQ2gAwIBAgIBATAKBggqhkjOPQQDAjAaMRgwFgYDVQQDEw9wcm9tY2Zn\nIHRlc3QgQ0EwIBcNMjUwMTAxMDAwMDAwWhgPMjEyNTAxMDEwMDAwMDBaMBoxGDAW\nBgNVBAMTD3Byb21jZmcgdGVzdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IA\nBJl2sIp7r/Q8BN2NnoHZ8WxBuMuIHquioF3iJ3PXmdgt07u3OixLFU8yJeazqG1Q\neOSiYJsYWfBrQAs3bXqVFL6jQjBAMA4GA1UdDwEB/wQEAwIChDAPBgNVHRMBAf8E\nBTADAQH/MB0GA1UdDgQWBBRIYuR44Tlo6IBqfSOW6Jj9SWpqtjAKBggqhkjOPQQD\nAgNHADBEAiAr6S2zUbKTOTZnoMM2mZm5QzrX9z/N9ZtF23jYoB/96wIgcApZmW86\nbarJPkYYO8tX4bdhabKv3CSLfKYC9PQVrqo=\n-----END CERTIFICATE-----\n"
	testConfigMapCA = "-----BEGIN CERTIFICATE-----\nMIIBezCCASGgAwIBAgIBATAKBggqhkjOPQQDAjAkMSIwIAYDVQQDExlwcm9tY2Zn\nIHRlc3QgQ29uZmlnTWFwIENBMCAXDTI1MDEwMTAwMDAwMFoYDzIxMjUwMTAxMDAw\nMDAwWjAkMSIwIAYDVQQDExlwcm9tY2ZnIHRlc3QgQ29uZmlnTWFwIENBMFkwEwYH\nKoZIzj0CAQYIKoZIzj0DAQcDQgAE4ES9E66CCJjm3HE829a/21VqUmFlmIvYho1b\nco/ITWR/+z1UCNuU7HBZgJtA9Jvk4XxmTsPEHwiq7o3CBwwLqKNCMEAwDgYDVR0P\nAQH/BAQDAgKEMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYEFBUd5o77m3sVTqdW\nn1rD5bBhR6QoMAoGCCqGSM49BAMCA0gAMEUCIA5nEHsxd5PN8+CYqPppIsmMyTMA\nXiEgkH2QtK3+cSxqAiEAriwj+xu40RCvLaueesK7A7uEW37rOHg0mIIil0vO9dQ=\n-----END CERTIFICATE-----\n"
	testCert        = "-----BEGIN CERTIFICATE-----\nMIIBTDCB86ADAgECAgEBMAoGCCqGSM49BAMCMB4xHDAaBgNVBAMTE3Byb21jZmcg\ndGVzdCBjbGllbnQwIBcNMjUwMTAxMDAwMDAwWhgPMjEyNTAxMDEwMDAwMDBaMB4x\nHDAaBgNVBAMTE3Byb21jZmcgdGVzdCBjbGllbnQwWTATBgcqhkjOPQIBBggqhkjO\nPQMBBwNCAATwaiVgfS8+cw7HXyKmmdSMzwBxSZ3ZTgbSHLa3lFzRO6A6RFmnNTBR\noicE6Q0VonpaDeX96iHwoeXJEHwEde3VoyAwHjAOBgNVHQ8BAf8EBAMCAoQwDAYD\nVR0TAQH/BAIwADAKBggqhkjOPQQDAgNIADBFAiEA2ofE5BOI9HDoHxfQUoM4iYRl\nPKOfLnQsm535LEKZbdcCIA5eMGU93FwPANB5AQEU13IdVBsx9o8B1Xs4TVjbn/HN\n-----END CERTIFICATE-----\n"
	testKey         = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIAIe5GZo8X3eOWF9ZN5bdfDzfzX/xj6xoVtOI/g861U0oAoGCCqGSM49\nAwEHoUQDQgAE8GolYH0vPnMOx18ippnUjM8AcUmd2U4G0hy2t5Rc0TugOkRZpzUw\nUaInBOkNFaJ6Wg3l/eoh8KHlyRB8BHXt1Q==\n-----END EC PRIVATE KEY-----\n"
)

// tenantAssets adds to testAssets the Secrets the tenant-input tests reference.
func tenantAssets(secrets ...*corev1.Secret) promcfg.Assets {
	return layered{testAssets(), assets.NewStatic(secrets, nil)}
}

func tenantSecret(ns, name string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, ResourceVersion: "1"}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

// judge generates with sm("good") next to bad, and returns bad's verdict message ("" when
// it is accepted); the good monitor must be accepted and the configuration must load.
func judge(t *testing.T, p *monitoringv1.Prometheus, bad *SM, a promcfg.Assets) (string, *promcfg.Result) {
	t.Helper()
	res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: []*SM{sm("good"), bad}}, Assets: a})
	if err != nil {
		t.Fatalf("Generate failed for the whole Prometheus: %v", err)
	}
	var msg string
	for _, v := range res.Verdicts {
		switch {
		case v.Name == "good" && !v.Used():
			t.Fatalf("good monitor rejected: %s", v.Message)
		case v.Name == bad.Name && !v.Used():
			msg = v.Message
		}
	}
	if err := promcfg.Validate(res.Config); err != nil {
		t.Fatalf("config does not load: %v", err)
	}
	return msg, res
}

// TestTLSMaterialChecked: CA, certificate and key read from Secrets must be material
// Prometheus can build an HTTP client from. Its configuration loader does not read them;
// Prometheus does when it creates the client, and for a job it already runs a client it
// cannot create fails the whole reload, so a tenant's garbage in a Secret would make every
// later change fail to apply.
func TestTLSMaterialChecked(t *testing.T) {
	sec := tenantSecret("default", "material", map[string]string{
		"ca.crt": testCA, "tls.crt": testCert, "tls.key": testKey, "other.crt": testConfigMapCA,
		"garbage": "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n", "text": "hello", "empty": "",
	})
	ref := func(key string) monitoringv1.SecretOrConfigMap {
		return monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "material"}, Key: key}}
	}
	keyRef := func(key string) *corev1.SecretKeySelector { return ref(key).Secret }
	tls := func(c monitoringv1.SafeTLSConfig) func(*SM) {
		return func(s *SM) { s.Spec.Endpoints[0].TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: c} }
	}
	v := func(s monitoringv1.TLSVersion) *monitoringv1.TLSVersion { return &s }
	cases := []struct {
		name string
		mut  func(*SM)
		want string // "" for accepted
	}{
		{"valid CA, certificate and key", tls(monitoringv1.SafeTLSConfig{CA: ref("ca.crt"), Cert: ref("tls.crt"), KeySecret: keyRef("tls.key")}), ""},
		{"CA that is no certificate", tls(monitoringv1.SafeTLSConfig{CA: ref("garbage")}), "endpoints[0]: tlsConfig: ca: Prometheus finds no PEM-encoded certificate"},
		{"CA that is plain text", tls(monitoringv1.SafeTLSConfig{CA: ref("text")}), "tlsConfig: ca: Prometheus finds no PEM-encoded certificate"},
		{"CA that is a private key", tls(monitoringv1.SafeTLSConfig{CA: ref("tls.key")}), "tlsConfig: ca:"},
		{"empty CA", tls(monitoringv1.SafeTLSConfig{CA: ref("empty")}), "tlsConfig: ca:"},
		{"certificate and key that do not parse", tls(monitoringv1.SafeTLSConfig{Cert: ref("text"), KeySecret: keyRef("garbage")}),
			"tlsConfig: cert and keySecret are not a certificate and its key Prometheus can use: tls: failed to find any PEM data in certificate input"},
		{"key of another certificate", tls(monitoringv1.SafeTLSConfig{Cert: ref("other.crt"), KeySecret: keyRef("tls.key")}),
			"cert and keySecret are not a certificate and its key Prometheus can use: tls: private key does not match public key"},
		{"minVersion above maxVersion", tls(monitoringv1.SafeTLSConfig{MinVersion: v(monitoringv1.TLSVersion13), MaxVersion: v(monitoringv1.TLSVersion12)}),
			"tlsConfig: maxVersion must more than or equal to minVersion"},
		{"CA file in the pod with a certificate from a Secret and a key file", func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{Cert: ref("tls.crt")},
				TLSFilesConfig: monitoringv1.TLSFilesConfig{CAFile: "/etc/ssl/ca.crt", KeyFile: "/etc/ssl/key.pem"}}
		}, ""},
		{"oauth2 CA that is no certificate", func(s *SM) {
			s.Spec.Endpoints[0].OAuth2 = &monitoringv1.OAuth2{ClientID: ref("text"), ClientSecret: *keyRef("text"), TokenURL: "https://auth.example/token",
				TLSConfig: &monitoringv1.SafeTLSConfig{CA: ref("garbage")}}
		}, "oauth2: tlsConfig: ca: Prometheus finds no PEM-encoded certificate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			msg, _ := judge(t, prom(), sm("bad", c.mut), tenantAssets(sec))
			switch {
			case c.want == "" && msg != "":
				t.Errorf("rejected: %s", msg)
			case c.want != "" && !strings.Contains(msg, c.want):
				t.Errorf("verdict %q, want rejected with …%s…", msg, c.want)
			}
		})
	}

	// The Prometheus's own TLS material: the generation fails (the controller keeps the
	// last configuration), naming the field.
	p := prom(rw(func(r *monitoringv1.RemoteWriteSpec) {
		r.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: "material"}, Key: "garbage"}}}}
	}))
	_, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(p), Assets: tenantAssets(tenantSecret("monitoring", "material", map[string]string{"garbage": "x"}))})
	if err == nil || !strings.Contains(err.Error(), "spec.remoteWrite[0]: tlsConfig: ca: Prometheus finds no PEM-encoded certificate") {
		t.Errorf("remote write with a CA that is no certificate: %v", err)
	}
}

// TestTLSAssetLimits: a TLS file must fit the tls-assets Secret that holds it, by size and
// by name; otherwise the Secret is refused and nothing of the Prometheus is written.
func TestTLSAssetLimits(t *testing.T) {
	t.Parallel()
	bundle := strings.Repeat(testCA, promcfg.MaxTLSAssetBytes/len(testCA)+1)
	longName, longKey := strings.Repeat("n", 253), "ca."+strings.Repeat("k", 250)
	ns := strings.Repeat("s", 63)
	a := tenantAssets(tenantSecret("default", "bundle", map[string]string{"ca.crt": bundle}), tenantSecret(ns, longName, map[string]string{longKey: testCA}))
	caFrom := func(name, key string) func(*SM) {
		return func(s *SM) {
			s.Spec.Endpoints[0].TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{CA: monitoringv1.SecretOrConfigMap{
				Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}}}}
		}
	}
	msg, _ := judge(t, prom(), sm("bad", caFrom("bundle", "ca.crt")), a)
	if want := fmt.Sprintf(`endpoints[0]: tlsConfig: ca: secret default/bundle key "ca.crt" is %d bytes, more than the %d bytes`, len(bundle), promcfg.MaxTLSAssetBytes); !strings.Contains(msg, want) {
		t.Errorf("CA bundle over the limit: %q, want …%s…", msg, want)
	}

	long := sm("long", caFrom(longName, longKey))
	long.Namespace = ns
	msg, res := judge(t, prom(func(p *P) { p.Spec.ServiceMonitorNamespaceSelector = &metav1.LabelSelector{} }), long, a)
	if msg != "" {
		t.Fatalf("monitor reading a CA from a Secret with long names rejected: %s", msg)
	}
	if len(res.TLSAssets) != 1 {
		t.Fatalf("TLS assets %d, want 1", len(res.TLSAssets))
	}
	for name := range res.TLSAssets {
		full := "secret_" + ns + "_" + longName + "_" + longKey
		if len(name) != 253 || !strings.HasPrefix(full, name[:253-17]) || !strings.Contains(string(res.Config), layout.TLSAssetsDir+"/"+name) {
			t.Errorf("TLS asset name %q (%d characters), want the name cut to 253 characters ending in a hash, and the config naming it", name, len(name))
		}
		if other := promcfg.TLSAssetFileName(promcfg.AssetRef{Kind: promcfg.SecretAsset, Namespace: ns, Name: longName, Key: longKey + "x"}); other == name {
			t.Errorf("two long names cut to the same file name %q", name)
		}
	}
	if short := promcfg.TLSAssetFileName(promcfg.AssetRef{Kind: promcfg.SecretAsset, Namespace: "default", Name: "tls", Key: "ca.crt"}); short != "secret_default_tls_ca.crt" {
		t.Errorf("short names are kept as prometheus-operator writes them, got %q", short)
	}
}
