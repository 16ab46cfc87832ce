package reloader

import "time"

// maxBackoffFactor caps the retry delay at this multiple of the retry interval.
const maxBackoffFactor = 8

// backoff returns the delay before retry number n (1 for the first retry): the interval,
// doubled for each further consecutive failure, capped at maxBackoffFactor times it.
func backoff(interval time.Duration, n int) time.Duration {
	d := interval
	for i := 1; i < n && d < maxBackoffFactor*interval; i++ {
		d *= 2
	}
	return min(d, maxBackoffFactor*interval)
}
