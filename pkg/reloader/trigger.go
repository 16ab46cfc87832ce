package reloader

import "context"

// Trigger makes the Prometheus process load its configuration again and confirms that it
// did. It returns when Prometheus answered or the context is done; the reloader bounds it
// by Options.MaxAwait and logs it overdue past the reload timeout.
type Trigger interface {
	Reload(ctx context.Context) error
}
