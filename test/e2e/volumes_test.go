//go:build e2e

package e2e

// The kubelet helper's volumes: the service account volume the admission plugin adds,
// the files the kubelet mounts in /etc, and the projection of every volume of the pod spec
// from the API with the kubelet's atomic writer.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/localpods"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// admitServiceAccount does what the ServiceAccount admission plugin does to a pod that
// automounts its token: a projected kube-api-access volume (token, the cluster CA from
// kube-root-ca.crt, the namespace) mounted read-only in every container at
// /var/run/secrets/kubernetes.io/serviceaccount, unless a container mounts that path
// already. envtest disables the plugin, so the helper applies it.
func admitServiceAccount(spec *corev1.PodSpec) {
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = "default"
	}
	if !ptr.Deref(spec.AutomountServiceAccountToken, true) {
		return
	}
	const name = "kube-api-access-e2e"
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3607)}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}})
	add := func(cs []corev1.Container) {
		for i := range cs {
			has := false
			for _, m := range cs[i].VolumeMounts {
				has = has || m.MountPath == layout.ServiceAccountDir
			}
			if !has {
				cs[i].VolumeMounts = append(cs[i].VolumeMounts, corev1.VolumeMount{Name: name, MountPath: layout.ServiceAccountDir, ReadOnly: true})
			}
		}
	}
	add(spec.InitContainers)
	add(spec.Containers)
}

// writeEtcFiles writes the hosts, hostname and resolv.conf files the kubelet mounts into
// every container. There is no cluster DNS: the hosts file stands in for it, naming every
// replica of the pod's StatefulSet (this one included) under its governing Service as
// <pod>.<service>, <pod>.<service>.<namespace>, ….svc and ….svc.cluster.local, the names
// cluster DNS gives StatefulSet pods (Alertmanager's --cluster.peer flags use them); the
// pod's own short name maps to its address as the kubelet writes it. The name server is
// the pod's own loopback, where nothing listens, so a lookup of any other name fails at
// once.
func (p *pod) writeEtcFiles() error {
	var hosts strings.Builder
	hosts.WriteString("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n")
	fmt.Fprintf(&hosts, "%s\t%s\n", p.ip, p.name)
	if p.serviceName != "" {
		for _, r := range p.replicas {
			fqdn := r.name + "." + p.serviceName + "." + p.namespace + ".svc"
			fmt.Fprintf(&hosts, "%s\t%s.cluster.local %s %s.%s.%s %s.%s\n", r.ip, fqdn, fqdn, r.name, p.serviceName, p.namespace, r.name, p.serviceName)
		}
	}
	files := map[string]string{
		"hosts":       hosts.String(),
		"hostname":    p.name + "\n",
		"resolv.conf": "nameserver 127.0.0.1\noptions ndots:5\n",
	}
	dir := filepath.Join(p.dir, "etc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (p *pod) volumeDir(name string) string { return filepath.Join(p.dir, "volumes", name) }

// projectVolumes brings every volume up to date. It returns the required Secrets and
// ConfigMaps that do not exist (the kubelet waits for them before starting a pod, and
// keeps the last content of a volume whose source went away). first creates emptyDirs.
func (p *pod) projectVolumes(ctx context.Context, first bool) (missing []string, err error) {
	p.mu.Lock()
	volumes := p.spec.Volumes
	p.mu.Unlock()
	for _, v := range volumes {
		dir := p.volumeDir(v.Name)
		var files map[string][]byte
		var absent []string
		switch {
		case v.EmptyDir != nil:
			if first {
				if err := os.MkdirAll(dir, 0o777); err != nil {
					return nil, err
				}
				if err := os.Chmod(dir, 0o777); err != nil {
					return nil, err
				}
			}
			continue
		case v.Secret != nil, v.ConfigMap != nil, v.Projected != nil:
			files, absent, _, err = localpods.VolumeFiles(ctx, s.k8s, p.namespace, v, func(src corev1.VolumeProjection, files map[string][]byte) error {
				switch {
				case src.ServiceAccountToken != nil:
					tok, err := p.token(ctx, v.Name, src.ServiceAccountToken)
					if err != nil {
						return err
					}
					files[src.ServiceAccountToken.Path] = tok
					return nil
				case src.DownwardAPI != nil:
					return p.downwardAPI(files, src.DownwardAPI.Items)
				}
				return fmt.Errorf("unsupported projection %+v", src)
			})
		default:
			return nil, fmt.Errorf("volume %s: the kubelet helper supports emptyDir, secret, configMap and projected volumes only", v.Name)
		}
		if err != nil {
			return nil, err
		}
		if len(absent) > 0 {
			missing = append(missing, absent...)
			continue
		}
		if err := atomicwriter.Write(dir, files); err != nil {
			return nil, err
		}
	}
	return missing, nil
}

// token requests a service account token with the TokenRequest API, once per volume for
// the pod's lifetime (the kubelet refreshes it at 80% of its life, far beyond a test).
func (p *pod) token(ctx context.Context, volume string, src *corev1.ServiceAccountTokenProjection) ([]byte, error) {
	p.mu.Lock()
	tok, ok := p.tokens[volume]
	sa := p.spec.ServiceAccountName
	p.mu.Unlock()
	if ok {
		return tok, nil
	}
	tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: src.ExpirationSeconds}}
	if src.Audience != "" {
		tr.Spec.Audiences = []string{src.Audience}
	}
	account := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: p.namespace, Name: sa}}
	if err := s.k8s.SubResource("token").Create(ctx, account, tr); err != nil {
		return nil, fmt.Errorf("token for service account %s/%s: %w", p.namespace, sa, err)
	}
	tok = []byte(tr.Status.Token)
	p.mu.Lock()
	p.tokens[volume] = tok
	p.mu.Unlock()
	return tok, nil
}

func (p *pod) downwardAPI(files map[string][]byte, items []corev1.DownwardAPIVolumeFile) error {
	for _, it := range items {
		if it.FieldRef == nil {
			return fmt.Errorf("downward API item %s: only fieldRef is supported", it.Path)
		}
		v, err := p.fieldValue(it.FieldRef.FieldPath)
		if err != nil {
			return err
		}
		files[it.Path] = []byte(v)
	}
	return nil
}

func (p *pod) fieldValue(path string) (string, error) {
	switch path {
	case "metadata.name":
		return p.name, nil
	case "metadata.namespace":
		return p.namespace, nil
	case "status.podIP":
		return p.ip, nil
	case "spec.serviceAccountName":
		return p.spec.ServiceAccountName, nil
	}
	return "", fmt.Errorf("field %s is not supported by the kubelet helper", path)
}
