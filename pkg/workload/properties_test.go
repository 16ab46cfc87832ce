package workload

import (
	"strings"
	"testing"
)

func TestSlots(t *testing.T) {
	for n, want := range map[int]int{0: 4, 1: 4, 2: 4, 4: 4, 5: 8, 8: 8, 9: 16, 100: 128} {
		if got := Slots(n); got != want {
			t.Errorf("Slots(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestVolumeName(t *testing.T) {
	long := strings.Repeat("x", 80)
	cases := map[string]string{
		VolumeName("secret", "etcd-certs"):     "secret-etcd-certs",
		VolumeName("configmap", "ca.bundle"):   "configmap-ca-bundle",
		VolumeName("secret", "UPPER_case"):     "secret-upper-case",
		VolumeName("", "prometheus-k8s-rules"): "prometheus-k8s-rules",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	a, b := VolumeName("secret", long+"a"), VolumeName("secret", long+"b")
	if len(a) > 63 || len(b) > 63 || a == b {
		t.Errorf("long names: %q %q", a, b)
	}
}
