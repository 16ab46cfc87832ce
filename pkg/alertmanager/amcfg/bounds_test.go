package amcfg_test

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/prometheus/alertmanager/config"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// noisyAMC is an AlertmanagerConfig in ns1 whose one Slack receiver carries text bytes
// of random hex: text gzip cannot squeeze.
func noisyAMC(t *testing.T, name string, text int, rng *rand.Rand) string {
	b := make([]byte, text/2)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return fmt.Sprintf(`metadata: {namespace: ns1, name: %s}
spec:
  route: {receiver: r}
  receivers:
  - name: r
    slackConfigs:
    - apiURL: {name: s, key: url}
      text: %q
`, name, hex.EncodeToString(b))
}

// TestAlertmanagerConfigBounds: one AlertmanagerConfig cannot add more than
// MaxObjectBytes, and the ones that would take the compressed configuration past what its
// Secret holds are left out in order with a verdict that says so; the others, and the
// configuration, stay valid.
func TestAlertmanagerConfigBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	c := tcase{configs: []string{
		noisyAMC(t, "a-huge", 693_000, rng),
		noisyAMC(t, "b", 200_000, rng),
		noisyAMC(t, "c", 200_000, rng),
		noisyAMC(t, "d", 200_000, rng),
		noisyAMC(t, "e-small", 100, rng),
	}}
	in := c.input(t)
	in.MaxCompressedBytes = 280_000 // hex compresses to about half: b and c fit, d does not
	res, err := amcfg.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	verdict := func(name string) amcfg.Verdict {
		return res.Verdicts[types.NamespacedName{Namespace: "ns1", Name: name}]
	}
	if v := verdict("a-huge"); v.Accepted || !strings.Contains(v.Message, fmt.Sprintf("more than the %d bytes one AlertmanagerConfig may add", amcfg.MaxObjectBytes)) {
		t.Errorf("a-huge: %+v", v)
	}
	for _, name := range []string{"b", "c", "e-small"} {
		if v := verdict(name); !v.Accepted {
			t.Errorf("%s refused: %+v", name, v)
		}
	}
	if v := verdict("d"); v.Accepted || !strings.Contains(v.Message, "left out: it adds about") ||
		!strings.Contains(v.Message, "of the 280000 bytes its Secret can hold") {
		t.Errorf("d: %+v", v)
	}
	if _, err := config.Load(string(res.Config)); err != nil {
		t.Fatalf("the configuration does not load: %v", err)
	}
	for _, name := range []string{"ns1/b/r", "ns1/c/r", "ns1/e-small/r"} {
		if !strings.Contains(string(res.Config), name) {
			t.Errorf("receiver %s missing", name)
		}
	}
	if strings.Contains(string(res.Config), "ns1/d/r") {
		t.Error("the left-out object's receiver is in the configuration")
	}
}
