package promcfg

// ResetValidationCache empties the memoized loader verdicts, so benchmarks measure a
// truly cold start.
func ResetValidationCache() {
	verdictCache.Lock()
	verdictCache.m = map[[32]byte]error{}
	verdictCache.Unlock()
}
