package versions

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// TestParse: each spelling accepts and refuses what its consumer always did, with the
// same messages.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name    string
		parse   func(string) (Version, error)
		in      string
		want    string // String(), or the error
		wantErr bool
	}{
		{"prometheus default", ParsePrometheus, "", "3.16.0", false},
		{"prometheus v", ParsePrometheus, " v2.45.0-rc.1+b ", "2.45.0", false},
		{"prometheus two parts", ParsePrometheus, "3.1", "3.1.0", false},
		{"prometheus four parts", ParsePrometheus, "3.1.0.1", `invalid Prometheus version "3.1.0.1": want MAJOR.MINOR.PATCH`, true},
		{"prometheus negative", ParsePrometheus, "3.-1.0", `invalid Prometheus version "3.-1.0": want MAJOR.MINOR.PATCH`, true},
		{"thanos no default", ParseThanos, "", `invalid Thanos version "": want MAJOR.MINOR.PATCH`, true},
		{"thanos", ParseThanos, "v0.38", "0.38.0", false},
		{"alertmanager default", ParseAlertmanager, "", "0.33.1", false},
		{"alertmanager no trim", ParseAlertmanager, " 0.22.0", `invalid Alertmanager version " 0.22.0"`, true},
		{"generic as written", ParseGeneric, "v2.50", "2.50", false},
		{"generic four parts", ParseGeneric, "3.1.0.1", "3.1.0.1", false},
		{"generic suffix", ParseGeneric, " v3.1.0-rc.0", "3.1.0", false},
		{"generic one part", ParseGeneric, "3", `illegal version string "3"`, true},
	} {
		v, err := c.parse(c.in)
		switch {
		case c.wantErr && (err == nil || err.Error() != c.want):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		case !c.wantErr && (err != nil || v.String() != c.want):
			t.Errorf("%s: %v, %v, want %s", c.name, v, err, c.want)
		}
	}
}

// TestGenericComparesAsThreeParts: a generic version with a fourth part compares with the
// gates as the Kubernetes versions did.
func TestGenericComparesAsThreeParts(t *testing.T) {
	v, err := ParseGeneric("3.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if !v.AtLeast(Prometheus3) || v.Less(Prometheus3) || v.AtLeast(New(3, 0, 1)) {
		t.Errorf("%s compares wrongly with 3.0.0 and 3.0.1", v)
	}
	if v.Tag() != "v3.0.0" {
		t.Errorf("Tag %s", v.Tag())
	}
}

func TestSupports(t *testing.T) {
	for _, c := range []struct {
		v    Version
		f    Feature
		want bool
	}{
		{New(2, 53, 9), PromMetadataWALRecords, false},
		{New(2, 54, 0), PromMetadataWALRecords, true},
		{New(3, 3, 9), PromMetadataWALRecords, true},
		{New(3, 4, 0), PromMetadataWALRecords, false},
		{New(2, 55, 0), PromConsoleTemplates, true},
		{Prometheus3, PromConsoleTemplates, false},
		{New(0, 1, 0), Feature{}, true},
	} {
		if got := c.v.Supports(c.f); got != c.want {
			t.Errorf("%s supports %s: %v, want %v", c.v, c.f.Name, got, c.want)
		}
	}
}

// TestDefaults: the defaults fill only empty version fields, on a copy, and leave the
// object itself when nothing is missing.
func TestDefaults(t *testing.T) {
	d := For(SetUpstream)
	if For(SetLookout) != (Defaults{}) {
		t.Errorf("lookout set %+v", For(SetLookout))
	}

	p := &monitoringv1.Prometheus{}
	p.Spec.Thanos = &monitoringv1.ThanosSpec{}
	ps := promserver.Of(p)
	got := d.OfPrometheus(ps)
	if got == ps || got.Spec.Version != UpstreamPrometheus || ptr.Deref(got.PrometheusOnly().Thanos.Version, "") != UpstreamThanos {
		t.Errorf("OfPrometheus: %+v", got.Spec)
	}
	if p.Spec.Version != "" || p.Spec.Thanos.Version != nil {
		t.Errorf("OfPrometheus modified its argument")
	}
	bare := &monitoringv1.Prometheus{}
	bare.Spec.Version = "v3.5.0"
	if b := promserver.Of(bare); d.OfPrometheus(b) != b {
		t.Errorf("OfPrometheus copied an object that misses nothing")
	}

	a := &monitoringv1.Alertmanager{}
	if got := d.OfAlertmanager(a); got == a || got.Spec.Version != UpstreamAlertmanager {
		t.Errorf("OfAlertmanager: %+v", got.Spec)
	}
	if got := (Defaults{}).OfAlertmanager(a); got != a {
		t.Errorf("zero Defaults copied")
	}

	tr := &monitoringv1.ThanosRuler{}
	tr.Spec.Version = ptr.To("")
	if got := d.OfThanosRuler(tr); got == tr || ptr.Deref(got.Spec.Version, "") != UpstreamThanos {
		t.Errorf("OfThanosRuler: %+v", got.Spec)
	}
}
