package amcfg

import (
	"compress/gzip"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
)

// MaxObjectBytes is the most configuration one AlertmanagerConfig may add (its routes,
// receivers, inhibit rules and time intervals as YAML). Real objects take a few KiB; two
// objects of 693 KB each made the configuration too large for its Secret, and the whole
// Alertmanager Invalid with nobody blamed.
const MaxObjectBytes = 256 << 10

// size is the bytes the part adds to the configuration.
func (t *partText) size() int {
	return len(t.route) + len(t.receivers) + len(t.inhibit) + len(t.intervals)
}

// checkSize refuses a part larger than MaxObjectBytes.
func checkSize(pt *part) *problem {
	t, err := pt.text()
	if err != nil {
		return invalid("spec", "rendering: %v", err)
	}
	if n := t.size(); n > MaxObjectBytes {
		return invalid("spec", "the configuration it adds is %d bytes, more than the %d bytes one AlertmanagerConfig may add", n, MaxObjectBytes)
	}
	return nil
}

// compressedSize is the part's text gzipped on its own: about what it adds to the
// compressed configuration (gzip compresses a little less alone). Generate checks the
// sum with the whole configuration compressed.
func (pt *part) compressedSize() (int, error) {
	if pt.gzSize > 0 {
		return pt.gzSize, nil
	}
	t, err := pt.text()
	if err != nil {
		return 0, err
	}
	n, err := gzipSize(t.route, t.receivers, t.inhibit, t.intervals)
	pt.gzSize = n
	return n, err
}

// compressLevel is the gzip level the Alertmanager controller stores the configuration
// at (write.Compressor's first try).
const compressLevel = 3

// compressedSize is the size of out gzipped as the controller stores it; 0 without
// budget, or when out is too small to take budget (gzip adds at most 5 bytes per 16 KiB
// block and a header to text it cannot squeeze).
func compressedSize(out []byte, budget int) (int, error) {
	if budget <= 0 || len(out)+len(out)/1000+64 <= budget {
		return 0, nil
	}
	return gzipSize(string(out))
}

// gzipSize is the size of the texts gzipped together at compressLevel.
func gzipSize(texts ...string) (int, error) {
	var n countingWriter
	w, err := gzip.NewWriterLevel(&n, compressLevel)
	if err != nil {
		return 0, err
	}
	for _, t := range texts {
		if _, err := w.Write([]byte(t)); err != nil {
			return 0, err
		}
	}
	err = w.Close()
	return int(n), err
}

// countingWriter counts the bytes written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// fitBudget leaves out the parts, in order, that would take the compressed
// configuration past budget (0: no budget): the base and every part before them are
// kept. The verdicts of the parts left out say so.
func fitBudget(b *base, parts []*part, o options, budget int, verdicts map[types.NamespacedName]Verdict) ([]*part, error) {
	if budget <= 0 {
		return parts, nil
	}
	out, err := render(b, nil, o)
	if err != nil {
		return nil, err
	}
	used, err := gzipSize(string(out))
	if err != nil {
		return nil, err
	}
	kept := parts[:0:0]
	for _, pt := range parts {
		n, err := pt.compressedSize()
		if err != nil {
			return nil, err
		}
		if used+n > budget {
			verdicts[pt.key] = Verdict{Reason: ReasonInvalid, Field: "spec", Message: fmt.Sprintf(
				"left out: it adds about %d bytes compressed, and the configuration with the AlertmanagerConfigs sorted before it already takes %d of the %d bytes its Secret can hold",
				n, used, budget)}
			continue
		}
		used += n
		kept = append(kept, pt)
	}
	return kept, nil
}
