package workload

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// MergeContainers applies user containers to the operator's: a user container named like
// one of ours is a strategic merge patch of it (lists keyed by name or path merge, args
// and command replace), any other is appended in the user's order.
func MergeContainers(ours, user []corev1.Container, field string) ([]corev1.Container, error) {
	patches := map[string]corev1.Container{}
	for i, c := range user {
		if c.Name == "" {
			return nil, fmt.Errorf("%s[%d]: a container needs a name", field, i)
		}
		if _, dup := patches[c.Name]; dup {
			return nil, fmt.Errorf("%s[%d]: container %q is listed twice", field, i, c.Name)
		}
		patches[c.Name] = c
	}
	out := make([]corev1.Container, 0, len(ours)+len(user))
	patched := map[string]bool{}
	for _, c := range ours {
		patch, ok := patches[c.Name]
		if !ok {
			out = append(out, c)
			continue
		}
		merged, err := patchContainer(c, patch)
		if err != nil {
			return nil, fmt.Errorf("%s: merging container %q: %w", field, c.Name, err)
		}
		patched[c.Name] = true
		out = append(out, merged)
	}
	for _, c := range user {
		if !patched[c.Name] {
			out = append(out, *c.DeepCopy())
		}
	}
	return out, nil
}

// patchContainer is base with patch applied as a strategic merge patch.
func patchContainer(base, patch corev1.Container) (corev1.Container, error) {
	b, err := json.Marshal(base)
	if err != nil {
		return corev1.Container{}, fmt.Errorf("encoding the generated container: %w", err)
	}
	pj, err := json.Marshal(patch)
	if err != nil {
		return corev1.Container{}, fmt.Errorf("encoding the override: %w", err)
	}
	return patchContainerJSON(b, pj)
}

func patchContainerJSON(base, patch []byte) (corev1.Container, error) {
	merged, err := strategicpatch.StrategicMergePatch(base, patch, corev1.Container{})
	if err != nil {
		return corev1.Container{}, fmt.Errorf("strategic merge patch: %w", err)
	}
	var out corev1.Container
	if err := json.Unmarshal(merged, &out); err != nil {
		return corev1.Container{}, fmt.Errorf("decoding the merged container: %w", err)
	}
	return out, nil
}
