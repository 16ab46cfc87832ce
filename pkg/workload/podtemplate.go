package workload

import (
	"k8s.io/utils/ptr"
)

func CopyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	return ptr.To(*b)
}
