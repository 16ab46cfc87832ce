package amcfg_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// tcase is one generation input written compactly: objects are YAML.
type tcase struct {
	name     string
	version  string
	strategy monitoringv1.AlertmanagerConfigMatcherStrategyType
	// fsMode is spec.alertmanagerConfigFileSystemMode ("": unset).
	fsMode monitoringv1.AlertmanagerConfigFileSystemMode
	// amConfiguration is spec.alertmanagerConfiguration of the Alertmanager (YAML).
	amConfiguration string
	base            string
	global          string
	configs         []string
	assets          amcfg.MapAssets
}

// testAssets are the Secret/ConfigMap values most cases use.
var testAssets = amcfg.MapAssets{
	"secret/ns1/s/url":        "https://hooks.example.com/services/T000/B000/XXX",
	"secret/ns1/s/token":      "tok-123",
	"secret/ns1/s/key":        "key-456",
	"secret/ns1/s/user":       "alice",
	"secret/ns1/s/password":   "pa55",
	"secret/ns1/s/ca.crt":     "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n",
	"secret/ns1/s/tls.crt":    "-----BEGIN CERTIFICATE-----\nCERT\n-----END CERTIFICATE-----\n",
	"secret/ns1/s/tls.key":    "-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n",
	"secret/ns1/s/bad-url":    "not a url",
	"configmap/ns1/cm/ca.crt": "-----BEGIN CERTIFICATE-----\nCMCA\n-----END CERTIFICATE-----\n",
	"configmap/ns1/cm/client": "client-id",
	"secret/ns2/s/url":        "https://hooks.example.com/services/ns2",
	"secret/monitoring/s/url": "https://hooks.example.com/services/monitoring",
	"secret/monitoring/s/key": "global-key",
}

func mustAMC(t testing.TB, s string) *monitoringv1alpha1.AlertmanagerConfig {
	t.Helper()
	var amc monitoringv1alpha1.AlertmanagerConfig
	if err := yaml.UnmarshalStrict([]byte(s), &amc); err != nil {
		t.Fatalf("bad test AlertmanagerConfig: %v\n%s", err, s)
	}
	return &amc
}

func (c tcase) input(t testing.TB) amcfg.Input {
	t.Helper()
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "monitoring", Name: "main"}}
	am.Spec.Version = c.version
	am.Spec.AlertmanagerConfigMatcherStrategy.Type = c.strategy
	if c.fsMode != "" {
		am.Spec.AlertmanagerConfigFileSystemMode = &c.fsMode
	}
	if c.amConfiguration != "" {
		var ac monitoringv1.AlertmanagerConfiguration
		if err := yaml.UnmarshalStrict([]byte(c.amConfiguration), &ac); err != nil {
			t.Fatalf("bad alertmanagerConfiguration: %v", err)
		}
		am.Spec.AlertmanagerConfiguration = &ac
	}
	in := amcfg.Input{Alertmanager: am, Base: []byte(c.base), Assets: c.assets}
	if c.assets == nil {
		in.Assets = testAssets
	}
	if c.global != "" {
		in.Global = mustAMC(t, c.global)
	}
	for _, s := range c.configs {
		in.Configs = append(in.Configs, mustAMC(t, s))
	}
	return in
}

// goldenContent is the config followed by comments with the verdicts and TLS assets, so
// a golden shows everything a case produced and still loads as a configuration.
func goldenContent(r *amcfg.Result) []byte {
	var b strings.Builder
	b.Write(r.Config)
	keys := make([]string, 0, len(r.Verdicts))
	for k := range r.Verdicts {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	for _, k := range keys {
		for kk, v := range r.Verdicts {
			if kk.String() != k {
				continue
			}
			if v.Accepted {
				b.WriteString("# accepted: " + k + "\n")
			} else {
				b.WriteString("# rejected: " + k + " " + v.Reason + " " + v.Field + ": " + v.Message + "\n")
			}
		}
	}
	names := make([]string, 0, len(r.TLSAssets))
	for n := range r.TLSAssets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString("# tls asset: " + n + " (" + strconv.Itoa(len(r.TLSAssets[n])) + " bytes)\n")
	}
	return []byte(b.String())
}
