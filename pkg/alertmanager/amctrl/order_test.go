package amctrl

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/instance/instancetest"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// withAsset generates a configuration that names a TLS asset file.
type withAsset struct{}

func (withAsset) Generate(context.Context, GenInput) (GenResult, error) {
	return GenResult{
		Config:    []byte("route:\n  receiver: r\nreceivers:\n- name: r\n  webhook_configs:\n  - url: https://x.example.invalid/\n    http_config:\n      tls_config:\n        ca_file: /etc/alertmanager/certs/secret_mon_ca_ca.crt\n"),
		TLSAssets: map[string][]byte{"secret_mon_ca_ca.crt": []byte("CA")},
	}, nil
}

// TestConfigNeverAheadOfItsAssets: when the tls-assets Secret cannot be written, the
// configuration that names its files is not written either.
func TestConfigNeverAheadOfItsAssets(t *testing.T) {
	f := newFixtureWith(t, Config{}, withAsset{}, instancetest.RefuseTLSAssets, alertmanager("main"))
	if err := f.reconcile("main"); err == nil {
		t.Fatal("the reconcile succeeded although the assets were refused")
	}
	err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: layout.Alertmanager("main").GeneratedSecret()}, &corev1.Secret{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("the configuration was written ahead of its assets (%v)", err)
	}
}
