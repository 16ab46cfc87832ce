package lint

import (
	"time"

	"github.com/prometheus/common/model"
)

// parseDuration reads a Prometheus duration ("30s", "1m30s", "1d").
func parseDuration(s string) (time.Duration, error) {
	d, err := model.ParseDuration(s)
	return time.Duration(d), err
}
