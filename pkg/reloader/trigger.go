package reloader

import "context"

// Trigger makes the Prometheus process load its configuration again and confirms that it
// did. The context carries the reload timeout.
type Trigger interface {
	Reload(ctx context.Context) error
}
