package workload

import (
	"fmt"
	"path"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/exporter-toolkit/web"
	yamlv2 "go.yaml.in/yaml/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// Files of the web TLS credentials inside the web-config volume, which projects the web
// config Secret and the Secrets/ConfigMaps spec.web.tlsConfig references.
const (
	webCertFile     = "tls/server.crt"
	webKeyFile      = "tls/server.key"
	webClientCAFile = "tls/client-ca.crt"
)

// webConfigFile is the web configuration file format of Prometheus (exporter-toolkit).
type webConfigFile struct {
	TLSServerConfig  *WebTLSServerConfig  `json:"tls_server_config,omitempty"`
	HTTPServerConfig *webHTTPServerConfig `json:"http_server_config,omitempty"`
}

type WebTLSServerConfig struct {
	CertFile                 string   `json:"cert_file"`
	KeyFile                  string   `json:"key_file"`
	ClientAuthType           string   `json:"client_auth_type,omitempty"`
	ClientCAFile             string   `json:"client_ca_file,omitempty"`
	MinVersion               string   `json:"min_version,omitempty"`
	MaxVersion               string   `json:"max_version,omitempty"`
	CipherSuites             []string `json:"cipher_suites,omitempty"`
	PreferServerCipherSuites *bool    `json:"prefer_server_cipher_suites,omitempty"`
	CurvePreferences         []string `json:"curve_preferences,omitempty"`
}

type webHTTPServerConfig struct {
	HTTP2   *bool             `json:"http2,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// WebConfigFor is the exporter-toolkit web config file of w for a pod mounting the
// web-config volume at dir; what names the server in errors.
func WebConfigFor(w *monitoringv1.WebConfigFileFields, dir, what string) ([]byte, error) {
	var f webConfigFile
	if w != nil {
		if t := w.TLSConfig; t != nil {
			tls, err := WebTLSServer(t, dir, "spec.web.tlsConfig")
			if err != nil {
				return nil, err
			}
			f.TLSServerConfig = tls
		}
		if h := w.HTTPConfig; h != nil {
			hc := &webHTTPServerConfig{HTTP2: h.HTTP2}
			if hd := h.Headers; hd != nil {
				hc.Headers = map[string]string{}
				set := func(k, v string) {
					if v != "" {
						hc.Headers[k] = v
					}
				}
				set("Content-Security-Policy", hd.ContentSecurityPolicy)
				// The API spells these values Deny, SameOrigin and NoSniff; Prometheus
				// accepts them in lower case only.
				set("X-Frame-Options", strings.ToLower(hd.XFrameOptions))
				set("X-Content-Type-Options", strings.ToLower(hd.XContentTypeOptions))
				set("X-XSS-Protection", hd.XXSSProtection)
				set("Strict-Transport-Security", hd.StrictTransportSecurity)
				if len(hc.Headers) == 0 {
					hc.Headers = nil
				}
			}
			if hc.HTTP2 != nil || hc.Headers != nil {
				f.HTTPServerConfig = hc
			}
		}
	}
	if f.TLSServerConfig == nil && f.HTTPServerConfig == nil {
		// Nothing to configure: an empty file, as prometheus-operator writes it.
		return []byte{}, nil
	}
	out, err := yaml.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("encoding the web config: %w", err)
	}
	var check web.Config
	if err := yamlv2.UnmarshalStrict(out, &check); err != nil {
		return nil, fmt.Errorf("spec.web: %s would reject the web config: %w", what, err)
	}
	return out, nil
}

// webConfigSourcesFor are the projections of a web-config volume for w, the generated
// file coming from the Secret secretName.
// webTLSServer is the tls_server_config of t, whose Secret and ConfigMap files are
// projected under dir (see addSecretOrConfigMap); field names t in errors.
func WebTLSServer(t *monitoringv1.WebTLSConfig, dir, field string) (*WebTLSServerConfig, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	tls := &WebTLSServerConfig{
		CertFile:                 path.Join(dir, webCertFile),
		KeyFile:                  path.Join(dir, webKeyFile),
		MinVersion:               ptr.Deref(t.MinVersion, ""),
		MaxVersion:               ptr.Deref(t.MaxVersion, ""),
		CipherSuites:             t.CipherSuites,
		PreferServerCipherSuites: t.PreferServerCipherSuites,
		CurvePreferences:         t.CurvePreferences,
	}
	if f := ptr.Deref(t.CertFile, ""); f != "" {
		tls.CertFile = f
	}
	if f := ptr.Deref(t.KeyFile, ""); f != "" {
		tls.KeyFile = f
	}
	if t.ClientCA != (monitoringv1.SecretOrConfigMap{}) {
		tls.ClientCAFile = path.Join(dir, webClientCAFile)
	}
	if f := ptr.Deref(t.ClientCAFile, ""); f != "" {
		tls.ClientCAFile = f
	}
	if t.ClientAuthType != nil {
		tls.ClientAuthType = string(*t.ClientAuthType)
	}
	return tls, nil
}

func WebConfigSourcesFor(w *monitoringv1.WebConfigFileFields, secretName string) ([]corev1.VolumeProjection, error) {
	sources := []corev1.VolumeProjection{{Secret: &corev1.SecretProjection{
		LocalObjectReference: corev1.LocalObjectReference{Name: secretName},
		Items:                []corev1.KeyToPath{{Key: layout.WebConfigFile, Path: layout.WebConfigFile}},
	}}}
	if w == nil || w.TLSConfig == nil {
		return sources, nil
	}
	return WebTLSSources(sources, w.TLSConfig, "", "spec.web.tlsConfig")
}

// WebTLSSources appends to sources the projections of t's certificate, key and client CA
// (at prefix+tls/server.crt, ...); field names t in errors.
func WebTLSSources(sources []corev1.VolumeProjection, t *monitoringv1.WebTLSConfig, prefix, field string) ([]corev1.VolumeProjection, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	if err := AddSecretOrConfigMap(&sources, field+".cert", t.Cert, prefix+webCertFile); err != nil {
		return nil, err
	}
	if t.KeySecret != (corev1.SecretKeySelector{}) {
		if err := AddSecretKey(&sources, field+".keySecret", t.KeySecret, prefix+webKeyFile); err != nil {
			return nil, err
		}
	}
	if err := AddSecretOrConfigMap(&sources, field+".client_ca", t.ClientCA, prefix+webClientCAFile); err != nil {
		return nil, err
	}
	return sources, nil
}

// AddSecretOrConfigMap projects the key sc selects as file (nothing when sc is empty).
func AddSecretOrConfigMap(sources *[]corev1.VolumeProjection, field string, sc monitoringv1.SecretOrConfigMap, file string) error {
	switch {
	case sc.Secret != nil:
		return AddSecretKey(sources, field+".secret", *sc.Secret, file)
	case sc.ConfigMap != nil:
		if sc.ConfigMap.Name == "" || sc.ConfigMap.Key == "" {
			return fmt.Errorf("%s.configMap needs a name and a key", field)
		}
		*sources = append(*sources, corev1.VolumeProjection{ConfigMap: &corev1.ConfigMapProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: sc.ConfigMap.Name},
			Items:                []corev1.KeyToPath{{Key: sc.ConfigMap.Key, Path: file}},
		}})
	}
	return nil
}

func AddSecretKey(sources *[]corev1.VolumeProjection, field string, s corev1.SecretKeySelector, file string) error {
	if s.Name == "" || s.Key == "" {
		return fmt.Errorf("%s needs a name and a key", field)
	}
	*sources = append(*sources, corev1.VolumeProjection{Secret: &corev1.SecretProjection{
		LocalObjectReference: corev1.LocalObjectReference{Name: s.Name},
		Items:                []corev1.KeyToPath{{Key: s.Key, Path: file}},
	}})
	return nil
}
