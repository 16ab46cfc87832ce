package confighash

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// reference names text as the ADR says, the slow plain way.
func reference(text []byte) string {
	outer := sha256.New()
	start := 0
	for j := 1; j+1 < len(text); j++ {
		if text[j-1] == '\n' && text[j] == '-' && text[j+1] == ' ' {
			s := sha256.Sum256(text[start:j])
			outer.Write(s[:])
			start = j
		}
	}
	if len(text) > 0 {
		s := sha256.Sum256(text[start:])
		outer.Write(s[:])
	}
	return hex.EncodeToString(outer.Sum(nil))
}

// texts are configurations and the odd texts around the cut rule.
func texts(r *rand.Rand) []string {
	out := []string{"", "-", "- ", "\n", "\n-", "\n- ", "- a\n- b\n", "a\n-\n- \n--\n - x\n-- y\n- z", "\n\n- \n- \n-"}
	var b strings.Builder
	b.WriteString("global:\n  scrape_interval: 30s\nrule_files:\n- /etc/a/*.yaml\nscrape_configs:\n")
	for i := range 50 {
		fmt.Fprintf(&b, "- job_name: serviceMonitor/ns/m%d/0\n  relabel_configs:\n  - action: keep\n    regex: x\n- job_name: extra%d\n", i, i)
	}
	out = append(out, b.String())
	for range 200 {
		n := r.IntN(40)
		t := make([]byte, n)
		for i := range t {
			t[i] = "- \nx"[r.IntN(4)]
		}
		out = append(out, string(t))
	}
	return out
}

// cuts cuts text at random places, empty pieces included.
func cuts(r *rand.Rand, text string) [][]byte {
	var ps [][]byte
	for len(text) > 0 {
		n := r.IntN(min(len(text), 12) + 1)
		ps = append(ps, []byte(text[:n]))
		text = text[n:]
	}
	return ps
}

func TestSumMatchesTheRule(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, text := range texts(r) {
		want := reference([]byte(text))
		if got := Sum([]byte(text)); got != want {
			t.Errorf("Sum(%q) = %s, want %s", text, got, want)
		}
		for range 20 {
			w := NewWriter()
			for _, p := range cuts(r, text) {
				w.Write(p)
			}
			if got := w.Sum(); got != want {
				t.Fatalf("Writer over cuts of %q = %s, want %s", text, got, want)
			}
		}
	}
}

func TestPiecesMatchSum(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	var c Pieces
	for _, text := range texts(r) {
		for range 20 {
			if got, want := c.Sum(cuts(r, text)), reference([]byte(text)); got != want {
				t.Fatalf("Pieces over cuts of %q = %s, want %s", text, got, want)
			}
		}
	}
}

// TestPiecesReuseAcrossChanges names a generated configuration, then the same with one
// job changed, one added and one removed, reusing the unchanged pieces' slices as the
// generator does, and checks each against the joined text.
func TestPiecesReuseAcrossChanges(t *testing.T) {
	t.Parallel()
	head := []byte("global:\n  scrape_interval: 30s\nscrape_configs:\n")
	pieces := [][]byte{head}
	for i := range 300 {
		pieces = append(pieces, fmt.Appendf(nil, "- job_name: m%d/0\n  metrics_path: /m\n- job_name: m%d/1\n", i, i))
	}
	var c Pieces
	check := func(what string) {
		t.Helper()
		var joined []byte
		for _, p := range pieces {
			joined = append(joined, p...)
		}
		if got, want := c.Sum(pieces), reference(joined); got != want {
			t.Fatalf("%s: %s, want %s", what, got, want)
		}
	}
	check("first")
	check("unchanged")
	pieces[17] = []byte("- job_name: m17/0\n  metrics_path: /other\n")
	check("one changed")
	pieces = append(pieces[:40], append([][]byte{[]byte("- job_name: new\n")}, pieces[40:]...)...)
	check("one added")
	pieces = append(pieces[:3], pieces[4:]...)
	check("one removed")
	pieces = append(pieces, []byte("- job_name: tail-without-newline"))
	check("a last piece that does not end its line")
	n := 0
	for _, s := range c.prev {
		if s != nil {
			n++
		}
	}
	if n != 300 {
		t.Errorf("remembers %d pieces, want the 300 whole pieces of the last text", n)
	}
}

func TestNamesDiffer(t *testing.T) {
	t.Parallel()
	a, b := []byte("- job_name: a\n- job_name: b\n"), []byte("- job_name: b\n- job_name: a\n")
	if Sum(a) == Sum(b) {
		t.Error("jobs in another order have the same name")
	}
	if s := sha256.Sum256(a); Sum(a) == hex.EncodeToString(s[:]) {
		t.Error("the name is the plain sha256")
	}
}

// BenchmarkPiecesOneChange names a 100,000-job configuration after one job changed.
func BenchmarkPiecesOneChange(b *testing.B) {
	pieces := [][]byte{[]byte("global: {}\nscrape_configs:\n")}
	for i := range 100_000 {
		pieces = append(pieces, []byte(fmt.Sprintf("- job_name: serviceMonitor/ns-%d/m/0\n%s", i, strings.Repeat("  relabel_configs: []\n", 70))))
	}
	var c Pieces
	c.Sum(pieces)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := 1 + (i*7919)%100_000
		pieces[k] = append([]byte(nil), pieces[k]...)
		c.Sum(pieces)
	}
}

// BenchmarkSum names the same configuration from its text, as the config-reloader does.
func BenchmarkSum(b *testing.B) {
	var t strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&t, "- job_name: serviceMonitor/ns-%d/m/0\n%s", i, strings.Repeat("  relabel_configs: []\n", 70))
	}
	text := []byte(t.String())
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		Sum(text)
	}
}
