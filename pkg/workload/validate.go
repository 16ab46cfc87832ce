package workload

import (
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Validate checks what the API server would reject in a generated StatefulSet and the
// builders cannot rule out because users contribute to it (spec.volumes, volumeMounts,
// containers, podMetadata), so the controller reports a clear error instead of a failed
// write.
func Validate(sts *appsv1.StatefulSet) error {
	pod := &sts.Spec.Template.Spec
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		if errs := validation.IsDNS1123Label(v.Name); len(errs) > 0 {
			return fmt.Errorf("volume name %q: %s", v.Name, strings.Join(errs, "; "))
		}
		if volumes[v.Name] {
			return fmt.Errorf("volume %q is defined twice (spec.volumes must not reuse a name the operator generates)", v.Name)
		}
		volumes[v.Name] = true
	}
	for _, c := range sts.Spec.VolumeClaimTemplates {
		if volumes[c.Name] {
			return fmt.Errorf("volume %q clashes with the storage volume claim template of the same name", c.Name)
		}
		volumes[c.Name] = true
	}

	containers := map[string]bool{}
	all := append(append([]corev1.Container(nil), pod.InitContainers...), pod.Containers...)
	for _, c := range all {
		if errs := validation.IsDNS1123Label(c.Name); len(errs) > 0 {
			return fmt.Errorf("container name %q: %s", c.Name, strings.Join(errs, "; "))
		}
		if containers[c.Name] {
			return fmt.Errorf("container %q is defined twice (an init container and a container cannot share a name)", c.Name)
		}
		containers[c.Name] = true
		if c.Image == "" {
			return fmt.Errorf("container %q has no image", c.Name)
		}
		paths := map[string]bool{}
		for _, m := range c.VolumeMounts {
			if !volumes[m.Name] {
				return fmt.Errorf("container %q mounts volume %q, which the pod does not have", c.Name, m.Name)
			}
			if paths[m.MountPath] {
				return fmt.Errorf("container %q mounts two volumes at %s", c.Name, m.MountPath)
			}
			paths[m.MountPath] = true
		}
		ports := map[string]bool{}
		for _, p := range c.Ports {
			if p.Name == "" {
				continue
			}
			if ports[p.Name] {
				return fmt.Errorf("container %q has two ports named %q", c.Name, p.Name)
			}
			ports[p.Name] = true
		}
	}

	meta := &sts.Spec.Template.ObjectMeta
	for k, v := range meta.Labels {
		if errs := validation.IsQualifiedName(k); len(errs) > 0 {
			return fmt.Errorf("spec.podMetadata.labels: key %q: %s", k, strings.Join(errs, "; "))
		}
		if errs := validation.IsValidLabelValue(v); len(errs) > 0 {
			return fmt.Errorf("spec.podMetadata.labels[%s] %q: %s", k, v, strings.Join(errs, "; "))
		}
	}
	for k := range meta.Annotations {
		if errs := validation.IsQualifiedName(strings.ToLower(k)); len(errs) > 0 {
			return fmt.Errorf("spec.podMetadata.annotations: key %q: %s", k, strings.Join(errs, "; "))
		}
	}
	return nil
}
