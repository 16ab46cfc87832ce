package generated

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"
)

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cut splits b into pieces of 1 to 5,000 bytes, as a configuration's pieces come.
func cut(b []byte) [][]byte {
	var out [][]byte
	for i := 0; len(b) > 0; i++ {
		n := min(len(b), 1+(i*7919)%5000)
		out, b = append(out, b[:n]), b[n:]
	}
	return out
}

func config(n int, tag string) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		// About what a ServiceMonitor's job looks like, and compresses as well.
		fmt.Fprintf(&b, "- job_name: serviceMonitor/ns-%02d/sm-%06d/0%s\n  honor_labels: false\n  kubernetes_sd_configs:\n  - role: endpointslice\n"+
			"    namespaces:\n      names:\n      - ns-%02d\n  scrape_interval: 30s\n  relabel_configs:\n  - source_labels: [job]\n    target_label: __tmp_prometheus_job_name\n"+
			"  - action: keep\n    source_labels: [__meta_kubernetes_service_label_app, __meta_kubernetes_service_labelpresent_app]\n    regex: (sm-%06d);true\n"+
			"  - action: keep\n    source_labels: [__meta_kubernetes_endpointslice_port_name]\n    regex: web\n", i%50, i, tag, i%50, i)
	}
	return b.Bytes()[:n]
}

// TestCompressFromReusesTheUnchangedPrefix: the members before the first changed byte are
// reused, the rest redone, and the concatenated members always gunzip to the config.
func TestCompressFromReusesTheUnchangedPrefix(t *testing.T) {
	var c Compressor
	first := config(3*chunkSize+chunkSize/2, "")
	gz, err := c.CompressFrom("h1", cut(first), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gunzip(t, gz), first) || len(c.members) != 4 {
		t.Fatalf("first compression: %d members, content equal %v", len(c.members), bytes.Equal(gunzip(t, gz), first))
	}
	before := append([]member(nil), c.members...)

	second := bytes.Clone(first)
	at := 2*chunkSize + 100
	second = append(second[:at], append([]byte("# inserted\n"), second[at:]...)...)
	gz, err = c.CompressFrom("h2", cut(second), "h1", at)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gunzip(t, gz), second) {
		t.Fatal("second compression does not gunzip to the second config")
	}
	for i := 0; i < 2; i++ {
		if &c.members[i].gz[0] != &before[i].gz[0] {
			t.Fatalf("member %d (before the change) was compressed again", i)
		}
	}
	if &c.members[2].gz[0] == &before[2].gz[0] {
		t.Fatal("member 2 (holding the change) was reused")
	}
	var fresh Compressor
	if whole, _ := fresh.CompressFrom("h2", cut(second), "", 0); !bytes.Equal(whole, gz) {
		t.Fatal("reusing members gave other bytes than compressing the whole config")
	}

	// A config that does not follow the last one (another previous hash) is redone whole.
	third := config(chunkSize+10, "x")
	gz, err = c.CompressFrom("h3", cut(third), "not-h2", len(third))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gunzip(t, gz), third) || &c.members[0].gz[0] == &before[0].gz[0] {
		t.Fatal("an unrelated config reused members or gunzips wrong")
	}
	// The same hash again is the last result; an empty config is one empty member.
	if again, _ := c.CompressFrom("h3", cut(third), "h3", len(third)); &again[0] != &gz[0] {
		t.Fatal("the same hash was compressed again")
	}
	// A short config that grows at its end: its one (partial) member is not reused, so
	// the result is again what a fresh compressor gives.
	short := config(5000, "")
	if _, err := c.CompressFrom("s1", cut(short), "", 0); err != nil {
		t.Fatal(err)
	}
	longer := append(bytes.Clone(short), "- job_name: appended\n"...)
	gz, err = c.CompressFrom("s2", cut(longer), "s1", len(short))
	if err != nil {
		t.Fatal(err)
	}
	var fresh2 Compressor
	if whole, _ := fresh2.CompressFrom("s2", cut(longer), "", 0); !bytes.Equal(whole, gz) {
		t.Fatal("a config grown at its end compresses to other bytes than from scratch")
	}
	gz, err = c.CompressFrom("h4", nil, "s2", 0)
	if err != nil || len(gunzip(t, gz)) != 0 {
		t.Fatalf("empty config: %v", err)
	}
}

// BenchmarkCompressOneChange: a 29 MB configuration changed at a random place, as a
// one-monitor change at 20,000 monitors changes it, gzipped whole (Compress) or from the
// changed chunk on (CompressFrom).
func BenchmarkCompressOneChange(b *testing.B) {
	cfg := config(29<<20, "")
	pieces := cut(cfg)
	for _, from := range []bool{false, true} {
		name := "Compress"
		if from {
			name = "CompressFrom"
		}
		b.Run(name, func(b *testing.B) {
			var c Compressor
			prev := "h0"
			if _, err := c.CompressFrom(prev, pieces, "", 0); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				at := (i * 7919 * 4099) % len(cfg)
				cfg[at] ^= 1
				h := fmt.Sprint("h", i+1)
				var err error
				if from {
					_, err = c.CompressFrom(h, pieces, prev, at)
				} else {
					_, err = c.Compress(h, cfg)
				}
				if err != nil {
					b.Fatal(err)
				}
				prev = h
			}
		})
	}
}
