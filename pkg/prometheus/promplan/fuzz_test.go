package promplan

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/workload"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// FuzzBuilders feeds arbitrary Prometheus specs (JSON, seeded with the golden cases) to
// every builder: they may return errors but never panic, and whatever StatefulSet they
// return is deterministic.
func FuzzBuilders(f *testing.F) {
	for _, c := range buildCases() {
		b, err := json.Marshal(promserver.Of(c.p).Spec)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(1), false)
	}
	f.Add([]byte(`{"shards":-1,"replicas":-3}`), uint8(0), true)
	f.Add([]byte(`{"version":"v1","additionalArgs":[{"name":""}]}`), uint8(200), true)
	f.Fuzz(func(t *testing.T, spec []byte, rules uint8, api bool) {
		p := prom()
		if err := json.Unmarshal(spec, &p.Spec); err != nil {
			return
		}
		opts := workload.DefaultOptions()
		opts.ReloaderWatchAPI = api
		in := Input{Prometheus: promserver.Of(p), RuleConfigMaps: int(rules), TLSAssetSecrets: int(rules % 7)}
		sets, _, err := StatefulSets(in, opts)
		if err == nil {
			again, _, err := StatefulSets(Input{Prometheus: promserver.Of(p.DeepCopy()), RuleConfigMaps: int(rules), TLSAssetSecrets: int(rules % 7)}, opts)
			if err != nil || len(again) != len(sets) {
				t.Fatalf("second build differs: %v", err)
			}
			for i := range sets {
				if !workload.UpToDate(sets[i], again[i]) {
					t.Fatal("the same input gave two hashes")
				}
			}
		}
		_, _ = WebConfig(promserver.Of(p))
		_ = GoverningService(promserver.Of(p))
		_, _ = ReloaderRole(in)
		_ = ReloaderRoleBinding(promserver.Of(p))
		_ = Status(promserver.Of(p), nil, nil, metav1.NewTime(time.Unix(0, 0)))
	})
}
