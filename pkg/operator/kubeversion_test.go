package operator

import "testing"

func TestLabelsPodZones(t *testing.T) {
	for _, c := range []struct {
		version string
		want    bool
	}{
		{"v1.34.3", false},
		{"v1.35.0-alpha.1", false},
		{"v1.35.0", true},
		{"v1.37.2", true},
		{"v1.36.1+k3s1", true},
		{"v1.30.0-eks-1234", false},
	} {
		got, err := LabelsPodZones(c.version)
		if err != nil {
			t.Errorf("%s: %v", c.version, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: %t, want %t", c.version, got, c.want)
		}
	}
	if _, err := LabelsPodZones("not a version"); err == nil {
		t.Error("a version that does not parse gave no error")
	}
}
