package alertmanager

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestLookoutMetrics: an Alertmanager's reconcile sets the lookout_alertmanager_* families
// as a Prometheus's sets lookout_*: reconciled, config size and the hash of the
// configuration generated last.
func TestLookoutMetrics(t *testing.T) {
	f := newFixture(t, Config{}, nil, alertmanager("main"))
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	cfg, _ := f.generated("main")
	m := f.r.Metrics
	if got := testutil.ToFloat64(m.ConfigSize.WithLabelValues("mon", "main", "plain")); got != float64(len(cfg)) {
		t.Errorf("config_bytes plain %v, want %d", got, len(cfg))
	}
	sum := sha256.Sum256([]byte(cfg))
	if got := testutil.ToFloat64(m.ConfigInfo.WithLabelValues("mon", "main", hex.EncodeToString(sum[:]))); got != 1 || testutil.CollectAndCount(m.ConfigInfo) != 1 {
		t.Errorf("config_info: %v, %d series", got, testutil.CollectAndCount(m.ConfigInfo))
	}
}
