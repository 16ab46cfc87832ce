package promctrl

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus/testutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/partset"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// noisyMonitor is a ServiceMonitor whose job compresses badly: a relabeling with random
// text of about size bytes.
func noisyMonitor(name string, size int, rng *rand.Rand) *monitoringv1.ServiceMonitor {
	b := make([]byte, size/2)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return serviceMonitor(name, func(s *monitoringv1.ServiceMonitor) {
		s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{
			Action: "replace", TargetLabel: "noise", Replacement: ptrTo(hex.EncodeToString(b)),
		}}
	})
}

func ptrTo[T any](v T) *T { return &v }

// configParts reads the config Secret and its parts, in order, decompressed.
func (f *fixture) configParts(name string) [][]byte {
	f.t.Helper()
	var out [][]byte
	for n := 0; ; n++ {
		secName := layout.Prometheus(name).ConfigPartSecret(n)
		sec := &corev1.Secret{}
		err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: secName}, sec)
		if apierrors.IsNotFound(err) && n > 0 {
			return out
		}
		if err != nil {
			f.t.Fatal(err)
		}
		b := gunzipAll(f.t, sec.Data[layout.ConfigCompressedKey])
		out = append(out, b)
	}
}

// stripManifest returns part without the manifest line part 0 starts with.
func stripManifest(part []byte) []byte {
	if bytes.HasPrefix(part, []byte("# lookout-config-parts: ")) {
		return part[bytes.IndexByte(part, '\n')+1:]
	}
	return part
}

// checkManifest fails unless part 0 names the other parts as they are: the set a
// reloader renders.
func checkManifest(t *testing.T, parts [][]byte) {
	t.Helper()
	var hashes []string
	for _, p := range parts[1:] {
		hashes = append(hashes, confighash.Sum(p))
	}
	if err := partset.Check(parts[0], hashes); err != nil {
		t.Errorf("the parts are not the set part 0 names: %v", err)
	}
	if !bytes.HasPrefix(parts[0], partset.Line(hashes)) {
		t.Errorf("part 0 starts %.80q, not with its manifest", parts[0])
	}
}

func reloaderArgs(t *testing.T, f *fixture) []string {
	t.Helper()
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prometheus-p")
	for _, c := range ss.Spec.Template.Spec.Containers {
		if c.Name == "config-reloader" {
			return c.Args
		}
	}
	t.Fatal("no config-reloader container")
	return nil
}

func partArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "--config-part-file=") {
			out = append(out, a)
		}
	}
	return out
}

// A configuration larger than one Secret is spread over several; the pods read them all;
// a change to one monitor rewrites one Secret; an operator restart writes nothing; a
// configuration that shrinks goes back to one Secret and the parts are deleted.
func TestConfigSpreadOverSecrets(t *testing.T) {
	const limit = 8 << 10
	rng := rand.New(rand.NewPCG(1, 2))
	objs := []client.Object{prom("p")}
	for i := range 24 {
		objs = append(objs, noisyMonitor(fmt.Sprintf("m%02d", i), 1500, rng))
	}
	cfg := Config{MaxSecretData: limit}
	f := newFixture(t, cfg, objs...)
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	parts := f.configParts("p")
	if len(parts) != 4 && len(parts) != 8 {
		t.Fatalf("%d parts for about 18 KiB compressed in Secrets of 8 KiB, want 4 (or 8 if unlucky)", len(parts))
	}
	checkManifest(t, parts)
	whole := bytes.Join(parts, nil)
	for i := range 24 {
		if !bytes.Contains(whole, fmt.Appendf(nil, "- job_name: serviceMonitor/app/m%02d/0\n", i)) {
			t.Errorf("monitor m%02d is in no part", i)
		}
	}
	// The configuration is named by the hash of part 0, whose manifest names the others
	// (ADR 38); the config Secret's input hash annotation holds it.
	if got := testutil.ToFloat64(f.r.Metrics.ConfigInfo.WithLabelValues("mon", "p", confighash.Sum(parts[0]))); got != 1 {
		t.Errorf("lookout_prometheus_config_info does not report the hash of part 0")
	}
	if got := partArgs(reloaderArgs(t, f)); len(got) != len(parts)-1 ||
		got[0] != "--config-part-file=/etc/prometheus/config-parts/part-1/prometheus.yaml.gz" {
		t.Errorf("reloader part arguments %v for %d parts", got, len(parts))
	}

	before := f.totalWrites()
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if f.totalWrites() != before {
		t.Fatalf("%v writes with nothing changed", f.totalWrites()-before)
	}

	// One monitor changes: one Secret is written.
	sm := &monitoringv1.ServiceMonitor{}
	f.get(sm, "app", "m05")
	sm.Spec.Endpoints[0].Interval = "17s"
	sm.Generation++
	if err := f.c.Update(context.Background(), sm); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	after := f.configParts("p")
	changed := -1
	for i := range parts {
		if !bytes.Equal(stripManifest(parts[i]), stripManifest(after[i])) {
			if changed >= 0 {
				t.Errorf("parts %d and %d changed, want one", changed, i)
			}
			changed = i
		}
	}
	// The changed part, and part 0 for its manifest.
	if n, want := f.totalWrites()-before, 1+min(changed, 1); n != float64(want) {
		t.Errorf("%v writes for one monitor's change in part %d, want %d", n, changed, want)
	}
	checkManifest(t, after)

	// A restarted operator (new state, same cluster) writes nothing.
	restarted := New(Deps{Deps: instance.Deps{Client: f.c, APIReader: f.c, Applier: f.r.Applier, Recorder: f.recorder, Statuses: f.store, Clock: f.r.Clock}}, f.r.cfg)
	f.r = restarted
	before = f.totalWrites()
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if n := f.totalWrites() - before; n != 0 {
		t.Errorf("%v writes after a restart with nothing changed", n)
	}

	// All monitors but one go: back to one Secret (filled to less than a quarter), the
	// parts deleted.
	for i := 1; i < 24; i++ {
		m := &monitoringv1.ServiceMonitor{}
		m.Namespace, m.Name = "app", fmt.Sprintf("m%02d", i)
		if err := f.c.Delete(context.Background(), m); err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if got := f.configParts("p"); len(got) != 1 {
		t.Errorf("%d parts for one monitor, want 1", len(got))
	}
	if got := partArgs(reloaderArgs(t, f)); len(got) != 0 {
		t.Errorf("reloader still reads parts %v", got)
	}
	ss := &appsv1.StatefulSet{}
	f.get(ss, "mon", "prometheus-p")
	if slices.ContainsFunc(ss.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == "config-parts" }) {
		t.Error("the pod still mounts the parts")
	}
}

// The number of parts does not go back and forth near a boundary: it grows when a part
// does not fit and shrinks only when half as many would be filled to a quarter.
func TestSplitHysteresis(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var sms []*monitoringv1.ServiceMonitor
	for i := range 16 {
		sms = append(sms, noisyMonitor(fmt.Sprintf("m%02d", i), 1000, rng))
	}
	st := &promState{}
	res := func(n int) *promcfg.Result {
		t.Helper()
		r, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: promserver.Of(prom("p")), Monitors: monitorkind.Set{ServiceMonitors: sms[:n]}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	full := res(16)
	one, err := st.split(full, 1, 1<<30)
	if err != nil || len(one.gz) != 1 {
		t.Fatalf("%d parts, %v", len(one.gz), err)
	}
	// Two parts' worth: grows to 4, part 0 holding no jobs and three holding them.
	limit := one.compressedSize() / 2
	s, err := st.split(full, 1, limit)
	if err != nil || len(s.gz) != 4 {
		t.Fatalf("grew to %d parts, want 4 (%v)", len(s.gz), err)
	}
	// Half the monitors: two parts would fit, but not at a quarter: stays at 4.
	if s, err = st.split(res(8), 4, limit); err != nil || len(s.gz) != 4 {
		t.Fatalf("%d parts with half the monitors, want 4 (%v)", len(s.gz), err)
	}
	// One monitor: two parts would be filled to less than a quarter: shrinks to 2.
	if s, err = st.split(res(1), 4, limit); err != nil || len(s.gz) != 2 {
		t.Fatalf("%d parts with one monitor, want 2 (%v)", len(s.gz), err)
	}
	// Too large for 64 parts: an error naming the size.
	if _, err = st.split(full, 1, 64); err == nil || !strings.Contains(err.Error(), "more than 64 Secrets") {
		t.Fatalf("64 tiny Secrets: %v", err)
	}
}

// A split of a generation in pieces hashes and compresses only the parts whose pieces
// changed: after one monitor's change, every other part keeps its very compression
// (part 0 its own, behind the new manifest). Every split's parts are, decompressed,
// what SplitConfig makes of the configuration's bytes, and the split's hash is part 0's.
func TestSplitReusesUnchangedParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var sms []*monitoringv1.ServiceMonitor
	for i := range 40 {
		sms = append(sms, noisyMonitor(fmt.Sprintf("m%02d", i), 1000, rng))
	}
	g := promcfg.NewGenerator()
	g.Pieces = true
	in := promcfg.Input{Prometheus: promserver.Of(prom("p")), Monitors: monitorkind.Set{ServiceMonitors: sms}}
	st := &promState{}
	const n = 4
	// A Secret holds the whole compressed configuration: four parts fit, and two would
	// be filled to more than a quarter, so the split stays at four.
	first, err := g.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	one, err := (&promState{}).split(first, 1, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	limit := one.compressedSize()
	check := func(res *promcfg.Result, s splitConfig) [][]byte {
		t.Helper()
		if len(s.gz) != n {
			t.Fatalf("%d parts, want %d", len(s.gz), n)
		}
		want, err := promcfg.SplitConfig(res.Bytes(), n, nil)
		if err != nil {
			t.Fatal(err)
		}
		var plain [][]byte
		for i, gz := range s.gz {
			p := gunzipAll(t, gz)
			if !bytes.Equal(stripManifest(p), want[i]) {
				t.Fatalf("part %d is not SplitConfig's", i)
			}
			plain = append(plain, p)
		}
		checkManifest(t, plain)
		if s.hash != confighash.Sum(plain[0]) || s.plainHashes[0] != s.hash {
			t.Fatalf("split hash %s, part 0's %s", s.hash, confighash.Sum(plain[0]))
		}
		return plain
	}
	for step := range 6 {
		if step > 0 {
			m := sms[(step*7)%len(sms)]
			m.Spec.Endpoints[0].Interval = monitoringv1.Duration(fmt.Sprintf("%ds", 20+step))
			m.Generation++
		}
		res, err := g.Generate(in)
		if err != nil {
			t.Fatal(err)
		}
		var before [n][]byte
		var beforeHashes []string
		if ss := st.splits[n]; ss != nil {
			for i := range ss.parts {
				before[i] = ss.parts[i].gz
			}
			beforeHashes = ss.last.plainHashes
		}
		s, err := st.split(res, n, limit)
		if err != nil {
			t.Fatal(err)
		}
		check(res, s)
		if step == 0 {
			continue
		}
		reused := 0
		for i := range n {
			now := st.splits[n].parts[i].gz
			same := len(now) > 0 && len(before[i]) > 0 && &now[0] == &before[i][0]
			if i > 0 && same != (s.plainHashes[i] == beforeHashes[i]) {
				t.Errorf("step %d: part %d reused %v, its hash changed %v", step, i, same, s.plainHashes[i] != beforeHashes[i])
			}
			if same {
				reused++
			}
		}
		if reused != n-1 {
			t.Errorf("step %d: %d of %d parts kept their compression, want all but the changed one", step, reused, n)
		}
		// Nothing changed: the same split, nothing compressed.
		again, err := st.split(res, n, limit)
		if err != nil || &again.gz[0][0] != &s.gz[0][0] || again.hash != s.hash {
			t.Fatalf("step %d: a split with nothing changed made a new one (%v)", step, err)
		}
	}
}

// gunzipAll decompresses gz (every gzip member).
func gunzipAll(t testing.TB, gz []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A split that does not fit grows to the power of two whose job parts (all but part 0,
// ADR 42) hold its compressed size with a quarter to spare, at least twice as many
// parts, and stops at the bound.
func TestGrownParts(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ n, compressed, want int }{
		{1, mib + 1, 4},                 // just over: 2 would put it all in part 1
		{1, 2 * mib, 4},                 // 2 MiB: 4's three job parts with a quarter to spare
		{1, 3 * mib, 8},                 // 3 MiB: 4's three job parts would be full
		{4, 4*mib + 1, 8},               // at least twice
		{2, 1000 * mib, maxConfigParts}, // far over: the bound, tried once before refusing
	} {
		if got := grownParts(c.n, c.compressed, mib); got != c.want {
			t.Errorf("grownParts(%d, %d) = %d, want %d", c.n, c.compressed, got, c.want)
		}
	}
}
