package layout

import (
	"strings"
	"testing"
)

func TestTLSAssetKey(t *testing.T) {
	if got := TLSAssetKey("Secret", "ns", "ca", "ca.crt"); got != "secret_ns_ca_ca.crt" {
		t.Errorf("short name changed: %q (prometheus-operator's format)", got)
	}
	a := TLSAssetKey("Secret", strings.Repeat("n", 63), strings.Repeat("a", 253), "ca.crt")
	b := TLSAssetKey("Secret", strings.Repeat("n", 63), strings.Repeat("a", 252)+"b", "ca.crt")
	if len(a) > 253 || len(b) > 253 || a == b {
		t.Errorf("long names: %d and %d characters, distinct %v", len(a), len(b), a != b)
	}
	if a != TLSAssetKey("Secret", strings.Repeat("n", 63), strings.Repeat("a", 253), "ca.crt") {
		t.Error("not stable")
	}
}
