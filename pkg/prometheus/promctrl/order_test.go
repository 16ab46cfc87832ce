package promctrl

import (
	"context"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/instance/instancetest"
)

// TestConfigNeverAheadOfItsAssets: when the tls-assets Secret cannot be written, the
// configuration that names its files is not written either (issue 32, item 3).
func TestConfigNeverAheadOfItsAssets(t *testing.T) {
	ca := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "ca"}, Data: map[string][]byte{"ca.crt": []byte(instancetest.CA())}}
	sm := serviceMonitor("web", func(s *monitoringv1.ServiceMonitor) {
		s.Spec.Endpoints[0].TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: monitoringv1.SafeTLSConfig{
			CA: monitoringv1.SecretOrConfigMap{Secret: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "ca"}, Key: "ca.crt"}},
		}}
	})
	f := newFixtureWith(t, Config{}, instancetest.RefuseTLSAssets, prom("p"), sm, ca)
	if err := f.reconcile("mon", "p"); err == nil {
		t.Fatal("the reconcile succeeded although the assets were refused")
	}
	err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prometheus-p"}, &corev1.Secret{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("the configuration was written ahead of its assets (%v)", err)
	}
}
