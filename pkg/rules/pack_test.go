package rules

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// files builds n rule files "f000.yaml"... whose key plus content takes size bytes.
func files(n, size int) map[string][]byte {
	out := map[string][]byte{}
	for i := range n {
		k := fmt.Sprintf("f%03d.yaml", i)
		out[k] = []byte(strings.Repeat("x", size-len(k)))
	}
	return out
}

// layout describes packed ConfigMaps as their sorted keys.
func layout(cms []map[string]string) [][]string {
	out := make([][]string, len(cms))
	for i, cm := range cms {
		out[i] = slices.Sorted(maps.Keys(cm))
	}
	return out
}

func dataSize(cm map[string]string) int {
	n := 0
	for k, v := range cm {
		n += len(k) + len(v)
	}
	return n
}

func TestPackFirstFitInKeyOrder(t *testing.T) {
	fs := files(5, 40)
	fs["f001.yaml"] = []byte(strings.Repeat("y", 70)) // 79 bytes
	cms, tooLarge := Pack(fs, 100)
	want := [][]string{{"f000.yaml", "f002.yaml"}, {"f001.yaml"}, {"f003.yaml", "f004.yaml"}}
	if got := layout(cms); !reflect.DeepEqual(got, want) {
		t.Errorf("layout = %v, want %v", got, want)
	}
	if len(tooLarge) != 0 {
		t.Errorf("tooLarge = %v", tooLarge)
	}
	for i, cm := range cms {
		if dataSize(cm) > 100 {
			t.Errorf("ConfigMap %d holds %d bytes, over the limit", i, dataSize(cm))
		}
		for k, v := range cm {
			if v != string(fs[k]) {
				t.Errorf("content of %s changed", k)
			}
		}
	}
}

func TestPackTooLarge(t *testing.T) {
	fs := files(3, 50)
	fs["big.yaml"] = []byte(strings.Repeat("z", 100)) // 108 bytes with its key
	fs["edge.yaml"] = []byte(strings.Repeat("z", 91)) // exactly 100
	cms, tooLarge := Pack(fs, 100)
	if !reflect.DeepEqual(tooLarge, []string{"big.yaml"}) {
		t.Errorf("tooLarge = %v, want [big.yaml]", tooLarge)
	}
	want := [][]string{{"edge.yaml"}, {"f000.yaml", "f001.yaml"}, {"f002.yaml"}}
	if got := layout(cms); !reflect.DeepEqual(got, want) {
		t.Errorf("layout = %v, want %v", got, want)
	}
}

func TestPackEmptyAndDefaultLimit(t *testing.T) {
	cms, tooLarge := Pack(nil, 0)
	if len(cms) != 0 || len(tooLarge) != 0 {
		t.Errorf("Pack(nil) = %v, %v", cms, tooLarge)
	}
	fs := files(3, MaxConfigMapDataBytes/2)
	cms, _ = Pack(fs, 0)
	if len(cms) != 2 {
		t.Errorf("three half-limit files went into %d ConfigMaps, want 2", len(cms))
	}
}

func TestPackDeterministic(t *testing.T) {
	fs := files(200, 37)
	first, _ := Pack(fs, 1000)
	for range 20 {
		again, _ := Pack(maps.Clone(fs), 1000)
		if !reflect.DeepEqual(again, first) {
			t.Fatal("Pack is not deterministic")
		}
	}
}

// moved counts files whose ConfigMap index differs between two layouts.
func moved(before, after []map[string]string) int {
	where := map[string]int{}
	for i, cm := range before {
		for k := range cm {
			where[k] = i
		}
	}
	n := 0
	for i, cm := range after {
		for k := range cm {
			if j, ok := where[k]; ok && j != i {
				n++
			}
		}
	}
	return n
}

func TestPackStableAddingAFileMovesNothing(t *testing.T) {
	fs := files(100, 100) // 10 per ConfigMap of 1000 bytes
	before, _ := Pack(fs, 1000)
	if len(before) != 10 {
		t.Fatalf("got %d ConfigMaps, want 10", len(before))
	}
	fs["a-first.yaml"] = []byte(strings.Repeat("n", 50))
	after, _ := PackStable(fs, 1000, before)
	if n := moved(before, after); n != 0 {
		t.Errorf("adding one file moved %d others", n)
	}
	if len(after) != 11 {
		t.Errorf("got %d ConfigMaps, want 11 (the full ones stay full)", len(after))
	}
	// A fresh Pack would have shifted every ConfigMap by one file.
	if fresh, _ := Pack(fs, 1000); moved(before, fresh) == 0 {
		t.Error("test is too weak: a fresh Pack moves nothing either")
	}
}

func TestPackStableGrowingAndRemoving(t *testing.T) {
	fs := files(30, 100)
	before, _ := Pack(fs, 1000) // three full ConfigMaps
	// One file grows past the room in its ConfigMap: only that file moves.
	fs["f005.yaml"] = []byte(strings.Repeat("g", 300))
	after, _ := PackStable(fs, 1000, before)
	if n := moved(before, after); n != 1 {
		t.Errorf("growing one file moved %d files, want 1", n)
	}
	// Removing files moves nothing, and an emptied ConfigMap is filled by the last one.
	for i := 10; i < 20; i++ {
		delete(fs, fmt.Sprintf("f%03d.yaml", i))
	}
	after2, _ := PackStable(fs, 1000, after)
	if len(after2) != len(after)-1 {
		t.Errorf("got %d ConfigMaps after emptying one, want %d", len(after2), len(after)-1)
	}
	want := [][]string{
		{"f000.yaml", "f001.yaml", "f002.yaml", "f003.yaml", "f004.yaml", "f006.yaml", "f007.yaml", "f008.yaml", "f009.yaml"},
		{"f005.yaml"},
		{"f020.yaml", "f021.yaml", "f022.yaml", "f023.yaml", "f024.yaml", "f025.yaml", "f026.yaml", "f027.yaml", "f028.yaml", "f029.yaml"},
	}
	if got := layout(after2); !reflect.DeepEqual(got, want) {
		t.Errorf("layout = %v, want %v", got, want)
	}
	if n := moved(after, after2); n != 1 {
		t.Errorf("removing files moved %d others, want 1 (the last ConfigMap's single file)", n)
	}
	for i, cm := range after2 {
		if dataSize(cm) > 1000 {
			t.Errorf("ConfigMap %d over the limit", i)
		}
	}
	if got, want := total(after2), len(fs); got != want {
		t.Errorf("%d files packed, want %d", got, want)
	}
}

func TestPackStableFallsBackWhenFragmented(t *testing.T) {
	sized := func(k string, n int) []byte { return []byte(strings.Repeat("x", n-len(k))) }
	fs := map[string][]byte{}
	var previous []map[string]string
	for _, k := range []string{"a", "b", "c", "d"} {
		fs[k] = sized(k, 500)
		previous = append(previous, map[string]string{k: string(fs[k])})
	}
	// Files that fit next to none of the kept ones: keeping the old places would need
	// eight ConfigMaps where a fresh pack needs six, so the fresh pack wins.
	for _, k := range []string{"e", "f", "g", "h"} {
		fs[k] = sized(k, 600)
	}
	after, _ := PackStable(fs, 1000, previous)
	fresh, _ := Pack(fs, 1000)
	if len(fresh) != 6 || !reflect.DeepEqual(after, fresh) {
		t.Errorf("got %v, want the fresh layout %v", layout(after), layout(fresh))
	}
	// A new file that fits next to a kept one needs no new ConfigMap: places are kept
	// even though a fresh pack would need only three.
	for _, k := range []string{"e", "f", "g", "h"} {
		delete(fs, k)
	}
	fs["e"] = sized("e", 400)
	after, _ = PackStable(fs, 1000, previous)
	if fresh, _ := Pack(fs, 1000); len(fresh) != 3 {
		t.Fatalf("fresh pack has %d ConfigMaps, want 3", len(fresh))
	}
	if len(after) != 4 || moved(previous, after) != 0 {
		t.Errorf("kept layout expected, got %v", layout(after))
	}
}

func total(cms []map[string]string) int {
	n := 0
	for _, cm := range cms {
		n += len(cm)
	}
	return n
}

func FuzzPack(f *testing.F) {
	f.Add([]byte{10, 20, 30, 200, 5}, 100)
	f.Fuzz(func(t *testing.T, sizes []byte, limit int) {
		if limit < 0 || limit > 1000 {
			return
		}
		fs := map[string][]byte{}
		for i, s := range sizes {
			fs[fmt.Sprintf("k%d", i)] = make([]byte, int(s))
		}
		cms, tooLarge := Pack(fs, limit)
		effective := limit
		if effective <= 0 {
			effective = MaxConfigMapDataBytes
		}
		seen := map[string]bool{}
		for _, cm := range cms {
			if dataSize(cm) > effective || len(cm) == 0 {
				t.Fatalf("bad ConfigMap: %d bytes, %d files", dataSize(cm), len(cm))
			}
			for k := range cm {
				seen[k] = true
			}
		}
		for _, k := range tooLarge {
			if len(k)+len(fs[k]) <= effective || seen[k] {
				t.Fatalf("%s wrongly too large", k)
			}
			seen[k] = true
		}
		if len(seen) != len(fs) {
			t.Fatalf("%d of %d files accounted for", len(seen), len(fs))
		}
	})
}
