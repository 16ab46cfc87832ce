package workload

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// UserSets reports whether spec.additionalArgs sets the flag name.
func UserSets(extra []monitoringv1.Argument, name string) bool {
	for _, e := range extra {
		if argName(strings.TrimSpace(e.Name)) == name {
			return true
		}
	}
	return false
}

// CheckGoDuration rejects a value the API's GoDuration syntax does not allow.
func CheckGoDuration(field, value string) error {
	if !goDuration.MatchString(value) {
		return fmt.Errorf("%s %q is not a duration like 120h, 1h30m or 500ms", field, value)
	}
	return nil
}

// ParseByteSize parses the API's ByteSize ("512MB", "1.5GiB"): units are powers of two
// with or without the i, as Alertmanager reads them.
func ParseByteSize(s string) (int64, error) {
	if !ByteSize.MatchString(s) {
		return 0, fmt.Errorf("%q is not a size like 512MB or 1GiB", s)
	}
	num := strings.TrimSuffix(s, "B")
	num = strings.TrimSuffix(num, "i")
	mult := 1.0
	if n := len(num); n > 0 {
		if i := strings.IndexByte("KMGTPE", num[n-1]); i >= 0 {
			mult = math.Pow(1024, float64(i+1))
			num = num[:n-1]
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: %w", s, err)
	}
	return int64(f * mult), nil
}
