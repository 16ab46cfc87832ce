package workload

import (
	"reflect"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// TestSpecFieldsOfEveryKind: every SpecFields field that a kind's spec declares has the
// same type there (so SpecFieldsOf copies it), the fields each kind lacks are the known
// ones, and the values are copied.
func TestSpecFieldsOfEveryKind(t *testing.T) {
	lacks := map[string]map[string]bool{
		"AlertmanagerSpec":       {},
		"CommonPrometheusFields": {},
		"ThanosRulerSpec":        {"HostNetwork": true},
	}
	for _, spec := range []any{monitoringv1.AlertmanagerSpec{}, monitoringv1.CommonPrometheusFields{}, monitoringv1.ThanosRulerSpec{}} {
		st := reflect.TypeOf(spec)
		ft := reflect.TypeOf(SpecFields{})
		for i := range ft.NumField() {
			f := ft.Field(i)
			sf, ok := st.FieldByName(f.Name)
			switch {
			case !ok && !lacks[st.Name()][f.Name]:
				t.Errorf("%s has no field %s", st.Name(), f.Name)
			case ok && lacks[st.Name()][f.Name]:
				t.Errorf("%s has a field %s now: remove it from the test's list", st.Name(), f.Name)
			case ok && sf.Type != f.Type:
				t.Errorf("%s.%s is a %s, SpecFields has %s", st.Name(), f.Name, sf.Type, f.Type)
			}
		}
	}
	a := &monitoringv1.AlertmanagerSpec{ServiceAccountName: "sa", HostNetwork: true, NodeSelector: map[string]string{"a": "b"},
		TerminationGracePeriodSeconds: ptr.To[int64](7), ImagePullSecrets: []corev1.LocalObjectReference{{Name: "pull"}}}
	got := SpecFieldsOf(a)
	if got.ServiceAccountName != "sa" || !got.HostNetwork || got.NodeSelector["a"] != "b" || *got.TerminationGracePeriodSeconds != 7 || got.ImagePullSecrets[0].Name != "pull" {
		t.Errorf("SpecFieldsOf(%+v) = %+v", a, got)
	}
	if got := SpecFieldsOf(nil); !reflect.DeepEqual(got, SpecFields{}) {
		t.Errorf("SpecFieldsOf(nil) = %+v", got)
	}
}
