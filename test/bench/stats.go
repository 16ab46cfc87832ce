package main

import (
	"sort"
	"time"
)

// percentile is the nearest-rank percentile (p in (0,1]); with 50 samples p99 is the worst.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return -1
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := int(float64(len(s))*p+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

// medianU is the median of v (the upper one of an even count; 0 for none).
func medianU(v []uint64) uint64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]uint64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
