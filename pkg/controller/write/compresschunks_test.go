package write

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
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

// reusedMembers counts the members of c whose gzip is one of before's, by address.
func reusedMembers(c *Compressor, before []member) int {
	was := map[*byte]bool{}
	for _, m := range before {
		was[&m.gz[0]] = true
	}
	n := 0
	for _, m := range c.members {
		if was[&m.gz[0]] {
			n++
		}
	}
	return n
}

// compressFresh is what a compressor that saw nothing before gives for pieces.
func compressFresh(t *testing.T, pieces [][]byte) []byte {
	t.Helper()
	var fresh Compressor
	gz, err := fresh.CompressFrom("fresh", pieces)
	if err != nil {
		t.Fatal(err)
	}
	return gz
}

// TestCompressFromReusesTheUnchangedMembers: after a piece is changed, inserted or
// removed, the members around it are gzipped again and the others reused; the members
// always gunzip to the configuration, and are byte for byte what a fresh compressor gives.
func TestCompressFromReusesTheUnchangedMembers(t *testing.T) {
	var c Compressor
	first := cut(config(8<<20, ""))
	gz, err := c.CompressFrom("h1", first)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gunzip(t, gz), bytes.Join(first, nil)) || len(c.members) < 5 {
		t.Fatalf("first compression: %d members, content equal %v", len(c.members), bytes.Equal(gunzip(t, gz), bytes.Join(first, nil)))
	}
	steps := []struct {
		name   string
		change func(p [][]byte) [][]byte
	}{
		{"a piece in the middle changed", func(p [][]byte) [][]byte {
			p = slices.Clone(p)
			p[len(p)/2] = append([]byte("# changed\n"), p[len(p)/2]...)
			return p
		}},
		{"a piece inserted", func(p [][]byte) [][]byte {
			return slices.Insert(slices.Clone(p), len(p)/3, []byte("- job_name: inserted\n"))
		}},
		{"a piece removed", func(p [][]byte) [][]byte {
			return slices.Delete(slices.Clone(p), len(p)*2/3, len(p)*2/3+1)
		}},
		{"a piece inside a member changed, same length", func(p [][]byte) [][]byte {
			inside := c.members[1].pieces[1]
			i := slices.IndexFunc(p, func(q []byte) bool { return len(q) > 0 && &q[0] == &inside[0] })
			p = slices.Clone(p)
			p[i] = bytes.Clone(p[i])
			p[i][len(p[i])-1] ^= 1
			return p
		}},
		{"the first piece changed", func(p [][]byte) [][]byte {
			p = slices.Clone(p)
			p[0] = []byte("# another header\n")
			return p
		}},
	}
	pieces := first
	for i, s := range steps {
		before := slices.Clone(c.members)
		pieces = s.change(pieces)
		gz, err := c.CompressFrom(fmt.Sprint("h", i+2), pieces)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gunzip(t, gz), bytes.Join(pieces, nil)) {
			t.Fatalf("%s: does not gunzip to the configuration", s.name)
		}
		if !bytes.Equal(gz, compressFresh(t, pieces)) {
			t.Fatalf("%s: other bytes than a fresh compression", s.name)
		}
		if reused := reusedMembers(&c, before); reused < len(c.members)-2 || reused == len(c.members) {
			t.Fatalf("%s: %d of %d members reused, want all but one or two", s.name, reused, len(c.members))
		}
	}

	// The same hash again is the last result.
	if again, _ := c.CompressFrom(fmt.Sprint("h", len(steps)+1), pieces); &again[0] != &c.out[0] {
		t.Fatal("the same hash was compressed again")
	}
	// Another configuration altogether reuses nothing.
	other := cut(config(3<<20, "x"))
	before := slices.Clone(c.members)
	if gz, err := c.CompressFrom("other", other); err != nil || !bytes.Equal(gunzip(t, gz), bytes.Join(other, nil)) || reusedMembers(&c, before) != 0 {
		t.Fatalf("an unrelated configuration: err %v, reused %d members", err, reusedMembers(&c, before))
	}
	// One piece longer than a member can be is cut within.
	long := [][]byte{config(5<<20, "")}
	if gz, err := c.CompressFrom("long", long); err != nil || !bytes.Equal(gunzip(t, gz), long[0]) || len(c.members) != 3 {
		t.Fatalf("one long piece: err %v, %d members, want 3", err, len(c.members))
	}
	// An empty configuration is one empty member.
	if gz, err := c.CompressFrom("empty", nil); err != nil || len(gunzip(t, gz)) != 0 || len(c.members) != 1 {
		t.Fatalf("empty config: %v", err)
	}
}

// BenchmarkCompressOneChange: a 29 MB configuration of which one piece (a monitor's jobs)
// changes at a random place, as a one-monitor change at 20,000 monitors changes it,
// gzipped whole (Compress) or as members (CompressFrom).
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
			if _, err := c.CompressFrom("h0", pieces); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				at := (i * 7919) % len(pieces)
				changed := bytes.Clone(pieces[at])
				changed[0] ^= 1
				pieces[at] = changed
				h := fmt.Sprint("h", i+1)
				var err error
				if from {
					_, err = c.CompressFrom(h, pieces)
				} else {
					_, err = c.Compress(h, bytes.Join(pieces, nil))
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSampleIsFNV1a: the inline sample is hash/fnv's 64-bit FNV-1a of the piece's first
// bytes and its length, so member ends stay where earlier releases put them.
func TestSampleIsFNV1a(t *testing.T) {
	for _, n := range []int{0, 1, sampleLen - 1, sampleLen, sampleLen + 1, 1 << 20} {
		p := bytes.Repeat([]byte("job_name: serviceMonitor/ns/name/0\n"), n/30+1)[:n]
		h := fnv.New64a()
		_, _ = h.Write(p[:min(len(p), sampleLen)])
		l := uint64(len(p))
		_, _ = h.Write([]byte{byte(l), byte(l >> 8), byte(l >> 16), byte(l >> 24)})
		if got, want := sample(p), h.Sum64(); got != want {
			t.Errorf("sample of %d bytes = %x, want %x", n, got, want)
		}
	}
}

// An empty hash names no content: a second input under it is compressed, not answered
// with the first one's output.
func TestEmptyHashIsNeverReused(t *testing.T) {
	var c Compressor
	for _, s := range []string{"scrape_configs:\n- job_name: a\n", "scrape_configs:\n- job_name: b\n"} {
		gz, err := c.CompressPartFrom("", [][]byte{[]byte(s)})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(gunzip(t, gz)); got != s {
			t.Fatalf("CompressPartFrom: %q, want %q", got, s)
		}
		if gz, err = c.Compress("", []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got := string(gunzip(t, gz)); got != s {
			t.Fatalf("Compress: %q, want %q", got, s)
		}
	}
}
