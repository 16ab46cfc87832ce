package localpods

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/reloader/atomicdir"
)

// volumeDir is the host directory of a pod volume.
func (p *pod) volumeDir(name string) string { return filepath.Join(p.volumesDir(), name) }

// volumesDir holds the pod's volumes.
func (p *pod) volumesDir() string { return filepath.Join(p.dir, "volumes") }

// hasFiles tells whether a volume holds files projected from the API.
func hasFiles(v corev1.Volume) bool {
	return v.Secret != nil || v.ConfigMap != nil || v.Projected != nil
}

// makeDirs creates the directories of emptyDir and claim volumes.
func (p *pod) makeDirs(spec *corev1.PodSpec, claims map[string]bool) error {
	for _, v := range spec.Volumes {
		switch {
		case hasFiles(v):
		case v.EmptyDir != nil, v.PersistentVolumeClaim != nil:
			if err := os.MkdirAll(p.volumeDir(v.Name), 0o755); err != nil {
				return err
			}
		default:
			return fmt.Errorf("volume %s: only secret, configMap, projected, emptyDir and claim volumes run locally", v.Name)
		}
	}
	for name := range claims {
		if err := os.MkdirAll(p.volumeDir(name), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// projectVolumes brings every Secret, ConfigMap and projected volume up to date, kubelet
// style. It returns the volumes whose non-optional sources do not exist yet (they keep
// their last content).
func (p *pod) projectVolumes(ctx context.Context, spec *corev1.PodSpec) (missing []string, err error) {
	for _, v := range spec.Volumes {
		if !hasFiles(v) {
			continue
		}
		// Service account tokens and downward API files are left out: local processes
		// reach the API server through a kubeconfig.
		files, absent, _, err := VolumeFiles(ctx, p.r.o.Client, p.namespace, v, nil)
		if err != nil {
			return nil, err
		}
		if len(absent) > 0 {
			missing = append(missing, absent...)
			continue
		}
		for name, data := range files {
			if isPrometheusConfig(filepath.Base(name)) && !p.r.o.VerbatimConfigs {
				p.mu.Lock()
				rw := p.config
				p.mu.Unlock()
				rw.addresses = p.r.addressMap()
				out, err := rw.rewriteFile(name, data)
				if err != nil {
					return nil, fmt.Errorf("volume %s: rewriting %s: %w", v.Name, name, err)
				}
				files[name] = out
			}
		}
		changed, err := atomicdir.Write(p.volumeDir(v.Name), files)
		if err != nil {
			return nil, fmt.Errorf("volume %s: %w", v.Name, err)
		}
		p.mu.Lock()
		running := p.template != nil
		p.mu.Unlock()
		if changed && running {
			p.logf("volume %s updated from the API", v.Name)
		}
	}
	return missing, nil
}
