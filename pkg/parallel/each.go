package parallel

import (
	"errors"
	"runtime"
	"sync"
)

// Each calls the function worker returns for every k in [0, n), on at most GOMAXPROCS
// goroutines. worker is called once per goroutine, so each can keep state of its own
// (a gzip writer); the errors of all calls are joined.
func Each(n int, worker func() func(k int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			do := worker()
			for k := range next {
				errs[k] = do(k)
			}
		})
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}
