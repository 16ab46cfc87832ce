package trplan

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"
)

// TestThanosRulerWebAPI: the rule health poller reaches the port, prefix and scheme the
// StatefulSet serves, and selects the pods the StatefulSet makes.
func TestThanosRulerWebAPI(t *testing.T) {
	tr := &monitoringv1.ThanosRuler{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "r"}}
	scheme, port, def, prefix, local, err := ThanosRulerWebAPI(tr)
	if err != nil || scheme != "http" || port != "web" || def != 10902 || prefix != "" || local {
		t.Errorf("default: %s %s %d %q %v %v", scheme, port, def, prefix, local, err)
	}
	tr.Spec.PortName, tr.Spec.RoutePrefix, tr.Spec.ListenLocal = "http", "/ruler", true
	tr.Spec.Web = &monitoringv1.ThanosRulerWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{TLSConfig: &monitoringv1.WebTLSConfig{}}}
	scheme, port, _, prefix, local, err = ThanosRulerWebAPI(tr)
	if err != nil || scheme != "https" || port != "http" || prefix != "/ruler" || !local {
		t.Errorf("customised: %s %s %q %v %v", scheme, port, prefix, local, err)
	}
	tr.Spec.Version = ptr.To("v0.20.0") // no web config file yet: plain HTTP
	if scheme, _, _, _, _, err = ThanosRulerWebAPI(tr); err != nil || scheme != "http" {
		t.Errorf("v0.20.0: %s %v", scheme, err)
	}
	tr.Spec.Version = ptr.To("not a version")
	if _, _, _, _, _, err = ThanosRulerWebAPI(tr); err == nil {
		t.Error("a bad version: no error")
	}
	sel, err := labels.Parse(ThanosRulerPodSelector(tr))
	if err != nil {
		t.Fatal(err)
	}
	tr.Spec.Version = nil
	tr.Spec.PodMetadata = &monitoringv1.EmbeddedObjectMetadata{Labels: map[string]string{"team": "a"}}
	if !sel.Matches(labels.Set(thanosRulerSelectorLabels(tr, map[string]string{"op": "x"}))) {
		t.Errorf("%s does not select the StatefulSet's pods", sel)
	}
}
