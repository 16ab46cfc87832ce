package apiwatch

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
)

// payload returns the files an object projects: every key of a Secret's data, every key
// of a ConfigMap's data and binaryData.
func payload(obj any) (map[string][]byte, error) {
	switch o := obj.(type) {
	case *corev1.Secret:
		files := make(map[string][]byte, len(o.Data))
		for k, v := range o.Data {
			files[k] = v
		}
		return files, nil
	case *corev1.ConfigMap:
		files := make(map[string][]byte, len(o.Data)+len(o.BinaryData))
		for k, v := range o.Data {
			files[k] = []byte(v)
		}
		for k, v := range o.BinaryData {
			if _, dup := files[k]; dup {
				return nil, fmt.Errorf("key %q in both data and binaryData", k)
			}
			files[k] = v
		}
		return files, nil
	default:
		return nil, fmt.Errorf("unexpected object type %T", obj)
	}
}
