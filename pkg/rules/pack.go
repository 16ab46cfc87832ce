package rules

import (
	"fmt"
	"maps"
	"slices"
)

// MaxConfigMapDataBytes is the default most bytes of keys plus values Lookout puts in one
// rule ConfigMap. The API server refuses objects over 1 MiB; half of that leaves room for
// metadata and for the annotations that client-side apply would add.
const MaxConfigMapDataBytes = 512 * 1024

// Pack distributes rule files (ConfigMap key → content) over as few ConfigMap data maps as
// first-fit in key order gives, each holding at most limit bytes of keys plus values
// (limit <= 0 means MaxConfigMapDataBytes). A file that alone exceeds limit is left out and
// its key returned in tooLarge, sorted. The result depends only on the inputs.
func Pack(files map[string][]byte, limit int) (configMaps []map[string]string, tooLarge []string) {
	return PackStable(files, limit, nil)
}

// PackStable is Pack that keeps every file in the ConfigMap it was in before, given the data
// of the current ConfigMaps in order, whenever it still fits there (files that did not grow
// are kept first, so a file that grew is the one to move); new files and files that no
// longer fit take the first ConfigMap with room, in key order, and new ConfigMaps are added
// at the end. That way adding, changing or removing one file moves no other file:
// a file moving between ConfigMaps can briefly be missing from, or duplicated in, the
// mounted rule directories while the kubelet updates them one by one.
//
// A ConfigMap left empty is replaced by the last one, so removing files moves at most the
// files of one ConfigMap. When keeping files in place would need more ConfigMaps than
// before and a fresh Pack needs fewer, the fresh Pack is returned instead: free space
// scattered over the ConfigMaps is reclaimed when the count would otherwise grow, so it
// cannot grow without bound.
func PackStable(files map[string][]byte, limit int, previous []map[string]string) (configMaps []map[string]string, tooLarge []string) {
	if limit <= 0 {
		limit = MaxConfigMapDataBytes
	}
	keys := slices.Sorted(maps.Keys(files))
	size := func(k string) int { return len(k) + len(files[k]) }

	prevBin := map[string]int{}
	for i := len(previous) - 1; i >= 0; i-- { // the first ConfigMap holding a key wins
		for k := range previous[i] {
			prevBin[k] = i
		}
	}

	// Keep files where they were: per previous ConfigMap, first the files that did not
	// grow, then the ones that did, in key order, while they fit.
	bins := make([]bin, len(previous))
	var pending []string
	grown := make([][]string, len(previous))
	for _, k := range keys {
		s := size(k)
		if s > limit {
			tooLarge = append(tooLarge, k)
			continue
		}
		i, ok := prevBin[k]
		switch {
		case !ok:
			pending = append(pending, k)
		case s > len(k)+len(previous[i][k]):
			grown[i] = append(grown[i], k)
		case bins[i].used+s <= limit:
			bins[i].add(k, s)
		default:
			pending = append(pending, k)
		}
	}
	for i, ks := range grown {
		for _, k := range ks {
			if s := size(k); bins[i].used+s <= limit {
				bins[i].add(k, s)
			} else {
				pending = append(pending, k)
			}
		}
	}
	slices.Sort(pending)
	for _, k := range pending {
		s := size(k)
		placed := false
		for i := range bins {
			if bins[i].used+s <= limit {
				bins[i].add(k, s)
				placed = true
				break
			}
		}
		if !placed {
			bins = append(bins, bin{})
			bins[len(bins)-1].add(k, s)
		}
	}
	bins = dropEmpty(bins)

	if len(previous) > 0 {
		if fresh, _ := Pack(files, limit); len(bins) > max(len(previous), len(fresh)) {
			return fresh, tooLarge
		}
	}
	configMaps = make([]map[string]string, len(bins))
	for i, b := range bins {
		configMaps[i] = make(map[string]string, len(b.keys))
		for _, k := range b.keys {
			configMaps[i][k] = string(files[k])
		}
	}
	return configMaps, tooLarge
}

// bin is one ConfigMap being filled.
type bin struct {
	keys []string
	used int
}

func (b *bin) add(key string, size int) {
	b.keys = append(b.keys, key)
	b.used += size
}

// dropEmpty removes empty bins, filling each hole with the last bin so that only that
// bin's files change ConfigMap.
func dropEmpty(bins []bin) []bin {
	for i := 0; i < len(bins); {
		if len(bins[i].keys) > 0 {
			i++
			continue
		}
		last := len(bins) - 1
		bins[i] = bins[last]
		bins = bins[:last]
	}
	return bins
}

// TooLargeProblem is the problem reported for a rule file of fileSize bytes (key, header
// and groups) that does not fit in a ConfigMap of limit bytes (limit <= 0 means
// MaxConfigMapDataBytes). Pack's tooLarge files get it; Validate reports the same
// condition before rendering.
func TooLargeProblem(fileSize, limit int) Problem {
	if limit <= 0 {
		limit = MaxConfigMapDataBytes
	}
	return Problem{Path: "spec", GroupIndex: -1, RuleIndex: -1, Message: fmt.Sprintf(
		"the rule file is %d bytes, more than the %d bytes one rule ConfigMap holds: split the groups over several PrometheusRule objects",
		fileSize, limit)}
}
