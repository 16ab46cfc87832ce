package promplan

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

func TestCheckGoverningService(t *testing.T) {
	p := prom(func(p *monitoringv1.Prometheus) {
		p.Spec.ServiceName = ptr.To("k8s-governing")
		p.Spec.Shards = ptr.To[int32](3)
	})
	svc := func(sel map[string]string) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: "k8s-governing"}, Spec: corev1.ServiceSpec{Selector: sel}}
	}
	for _, c := range []struct {
		name string
		svc  *corev1.Service
		want string // "" for accepted
	}{
		{"prometheus-operator's selector", svc(map[string]string{"app.kubernetes.io/name": "prometheus", "prometheus": "k8s"}), ""},
		{"operator name label", svc(map[string]string{"operator.prometheus.io/name": "k8s", "app.kubernetes.io/managed-by": "prometheus-operator"}), ""},
		{"no selector", svc(nil), ""},
		{"another Prometheus", svc(map[string]string{"prometheus": "other"}), `does not select the Prometheus pods`},
		{"one shard only", svc(map[string]string{"prometheus": "k8s", "operator.prometheus.io/shard": "0"}), `does not select the Prometheus pods`},
		{"missing", nil, `spec.serviceName: Service monitoring/k8s-governing does not exist`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckGoverningService(promserver.Of(p), c.svc)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	// Every shard's pods carry the labels the check requires.
	for shard := range int32(3) {
		sts, err := StatefulSet(Input{Prometheus: promserver.Of(p)}, workload.DefaultOptions(), shard)
		if err != nil {
			t.Fatal(err)
		}
		s := svc(map[string]string{"app.kubernetes.io/name": "prometheus", "app.kubernetes.io/instance": "k8s", "managed-by": "prometheus-operator"})
		if err := CheckGoverningService(promserver.Of(p), s); err != nil {
			t.Fatal(err)
		}
		for k, v := range s.Spec.Selector {
			if sts.Spec.Template.Labels[k] != v {
				t.Errorf("shard %d pods lack %s=%s, which the check accepted", shard, k, v)
			}
		}
	}
}
