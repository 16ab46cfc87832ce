package dirhash

import (
	"crypto/sha256"
	"testing"
)

func TestOfData(t *testing.T) {
	one := OfData(map[string]string{"b.yaml": "B", "a.yaml": "A"}, map[string]string{}, map[string]string{"c.yaml": "C"})
	h := New()
	for _, f := range []struct{ name, content string }{{"a.yaml", "A"}, {"b.yaml", "B"}, {"c.yaml", "C"}} {
		sum := sha256.Sum256([]byte(f.content))
		h.File(f.name, sum[:])
	}
	if got := h.Sum(); got != one {
		t.Errorf("files in order hash %s, the data %s", got, one)
	}
	// Empty directories add nothing; the order of directories counts.
	if got := OfData(map[string]string{"a.yaml": "A", "b.yaml": "B"}, map[string]string{"c.yaml": "C"}); got != one {
		t.Errorf("without the empty directory %s, want %s", got, one)
	}
	if got := OfData(map[string]string{"c.yaml": "C"}, map[string]string{"a.yaml": "A", "b.yaml": "B"}); got == one {
		t.Error("directories in another order hash alike")
	}
	if OfData(map[string]string{"a": "bc"}) == OfData(map[string]string{"ab": "c"}) {
		t.Error("name and content split differently hash alike")
	}
	if OfData() != New().Sum() {
		t.Error("no directories differ from no files")
	}
}
