package amplan

import (
	"fmt"
	"path"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	commoncfg "github.com/prometheus/common/config"
	"github.com/prometheus/exporter-toolkit/web"
	yamlv2 "go.yaml.in/yaml/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// Files of the cluster TLS credentials inside the cluster-tls-config volume.
const (
	clusterServerDir    = "server"
	clusterClientCA     = "client/ca.crt"
	clusterClientCert   = "client/tls.crt"
	clusterClientKey    = "client/tls.key"
	amTemplatesDirField = "spec.alertmanagerConfiguration.templates"
)

// amVolumes are the operator's volumes of the Alertmanager pod (storage and spec.volumes
// excluded), the mounts of each container, and the directories the reloader watches.
type amVolumes struct {
	volumes                  []corev1.Volume
	amMounts, reloaderMounts []corev1.VolumeMount
	watched                  []string
	// reloaderWebConfig is the web configuration of the reloader's listener (empty: none).
	reloaderWebConfig string
}

// alertmanagerVolumes lays out the pod's volumes as prometheus-operator does: the
// generated config Secret, the TLS assets, the expanded config, the notification
// templates, spec.secrets and spec.configMaps, the web config and the cluster TLS config.
// In API-watch mode the generated config is an in-memory emptyDir the reloader fills
// from the API (and, when the pod does not mount the service account token, the
// reloader gets its own).
func alertmanagerVolumes(a *monitoringv1.Alertmanager, opts workload.Options, v versions.Version, tlsSlots int, storageMount corev1.VolumeMount) (amVolumes, error) {
	memory := &corev1.EmptyDirVolumeSource{Medium: corev1.StorageMediumMemory}
	tlsSources := make([]corev1.VolumeProjection, 0, tlsSlots)
	for n := range tlsSlots {
		tlsSources = append(tlsSources, corev1.VolumeProjection{Secret: &corev1.SecretProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: layout.Alertmanager(a.Name).TLSAssetsSecret(n)},
			Optional:             ptr.To(true),
		}})
	}
	configSource := corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: layout.Alertmanager(a.Name).GeneratedSecret()}}
	if opts.ReloaderWatchAPI {
		configSource = corev1.VolumeSource{EmptyDir: memory.DeepCopy()}
	}
	out := amVolumes{
		volumes: []corev1.Volume{
			{Name: amConfigVolume, VolumeSource: configSource},
			{Name: workload.TLSAssetsVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: tlsSources}}},
			{Name: workload.ConfigOutVolume, VolumeSource: corev1.VolumeSource{EmptyDir: memory.DeepCopy()}},
		},
		amMounts: []corev1.VolumeMount{
			{Name: amConfigVolume, MountPath: layout.AlertmanagerConfigDir, ReadOnly: true},
			{Name: workload.ConfigOutVolume, MountPath: layout.AlertmanagerConfigOutDir, ReadOnly: true},
			{Name: workload.TLSAssetsVolume, MountPath: layout.AlertmanagerTLSAssetsDir, ReadOnly: true},
			storageMount,
		},
		reloaderMounts: []corev1.VolumeMount{
			{Name: amConfigVolume, MountPath: layout.AlertmanagerConfigDir, ReadOnly: !opts.ReloaderWatchAPI},
			{Name: workload.ConfigOutVolume, MountPath: layout.AlertmanagerConfigOutDir},
		},
		watched: []string{layout.AlertmanagerConfigDir},
	}
	if (opts.ReloaderWatchAPI || opts.ReloaderReportConfig) && !ptr.Deref(a.Spec.AutomountServiceAccountToken, true) {
		out.volumes = append(out.volumes, workload.APIAccessVolumeSource())
		out.reloaderMounts = append(out.reloaderMounts, corev1.VolumeMount{Name: workload.APIAccessVolume, MountPath: layout.ServiceAccountDir, ReadOnly: true})
	}
	shared := func(vol corev1.Volume, dir string) {
		out.volumes = append(out.volumes, vol)
		m := corev1.VolumeMount{Name: vol.Name, MountPath: dir, ReadOnly: true}
		out.amMounts = append(out.amMounts, m)
		out.reloaderMounts = append(out.reloaderMounts, m)
		out.watched = append(out.watched, dir)
	}

	if c := a.Spec.AlertmanagerConfiguration; c != nil && len(c.Templates) > 0 {
		var sources []corev1.VolumeProjection
		keys := map[string]bool{}
		for i, t := range c.Templates {
			field := fmt.Sprintf("%s[%d]", amTemplatesDirField, i)
			// Every template lands in one directory under its key: the first of a key
			// wins, as prometheus-operator has it.
			for _, ref := range []monitoringv1.SecretOrConfigMap{{ConfigMap: t.ConfigMap}, {Secret: t.Secret}} {
				key := configMapKey(ref) + secretKey(ref)
				if (ref.ConfigMap == nil && ref.Secret == nil) || keys[key] {
					continue
				}
				keys[key] = true
				if err := workload.AddSecretOrConfigMap(&sources, field, ref, key); err != nil {
					return amVolumes{}, err
				}
			}
		}
		shared(corev1.Volume{Name: amTemplatesVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}}, layout.AlertmanagerTemplatesDir)
	}

	seen := map[string]bool{}
	for _, s := range a.Spec.Secrets {
		if s == "" || seen["s/"+s] {
			continue
		}
		seen["s/"+s] = true
		shared(corev1.Volume{Name: workload.VolumeName("secret", s), VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: s}}},
			path.Join(layout.AlertmanagerSecretsDir, s))
	}
	for _, c := range a.Spec.ConfigMaps {
		if c == "" || seen["c/"+c] {
			continue
		}
		seen["c/"+c] = true
		shared(corev1.Volume{Name: workload.VolumeName("configmap", c), VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: c},
		}}}, path.Join(layout.AlertmanagerConfigMapsDir, c))
	}
	for _, m := range a.Spec.VolumeMounts {
		out.amMounts = append(out.amMounts, *m.DeepCopy())
	}

	if v.Supports(versions.AMWebConfig) {
		sources, err := workload.WebConfigSourcesFor(amWebFields(a), layout.Alertmanager(a.Name).WebConfigSecret())
		if err != nil {
			return amVolumes{}, err
		}
		out.volumes = append(out.volumes, corev1.Volume{Name: workload.WebConfigVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}})
		m := corev1.VolumeMount{Name: workload.WebConfigVolume, MountPath: layout.AlertmanagerWebConfigDir, ReadOnly: true}
		out.amMounts = append(out.amMounts, m)
		// The reloader's listener is served as Alertmanager's, as prometheus-operator does.
		out.reloaderMounts = append(out.reloaderMounts, m)
		out.reloaderWebConfig = path.Join(layout.AlertmanagerWebConfigDir, layout.WebConfigFile)
	}
	if a.Spec.ClusterTLS != nil && v.Supports(versions.AMClusterTLS) {
		sources, err := clusterTLSSources(a)
		if err != nil {
			return amVolumes{}, err
		}
		out.volumes = append(out.volumes, corev1.Volume{Name: amClusterTLSVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: sources}}})
		out.amMounts = append(out.amMounts, corev1.VolumeMount{Name: amClusterTLSVolume, MountPath: layout.AlertmanagerClusterTLSDir, ReadOnly: true})
	}
	return out, nil
}

func configMapKey(t monitoringv1.SecretOrConfigMap) string {
	if t.ConfigMap != nil {
		return t.ConfigMap.Key
	}
	return ""
}

func secretKey(t monitoringv1.SecretOrConfigMap) string {
	if t.Secret != nil {
		return t.Secret.Key
	}
	return ""
}

// clusterTLSSources are the projections of the cluster-tls-config volume: the generated
// file and the server and client credentials spec.clusterTLS references.
func clusterTLSSources(a *monitoringv1.Alertmanager) ([]corev1.VolumeProjection, error) {
	c := a.Spec.ClusterTLS
	sources := []corev1.VolumeProjection{{Secret: &corev1.SecretProjection{
		LocalObjectReference: corev1.LocalObjectReference{Name: layout.Alertmanager(a.Name).ClusterTLSSecret()},
		Items:                []corev1.KeyToPath{{Key: layout.AlertmanagerClusterTLSFile, Path: layout.AlertmanagerClusterTLSFile}},
	}}}
	sources, err := workload.WebTLSSources(sources, &c.ServerTLS, clusterServerDir+"/", "spec.clusterTLS.server")
	if err != nil {
		return nil, err
	}
	if err := workload.AddSecretOrConfigMap(&sources, "spec.clusterTLS.client.ca", c.ClientTLS.CA, clusterClientCA); err != nil {
		return nil, err
	}
	if err := workload.AddSecretOrConfigMap(&sources, "spec.clusterTLS.client.cert", c.ClientTLS.Cert, clusterClientCert); err != nil {
		return nil, err
	}
	if k := c.ClientTLS.KeySecret; k != nil {
		if err := workload.AddSecretKey(&sources, "spec.clusterTLS.client.keySecret", *k, clusterClientKey); err != nil {
			return nil, err
		}
	}
	return sources, nil
}

// clusterTLSFile is Alertmanager's --cluster.tls-config file.
type clusterTLSFile struct {
	TLSServerConfig *workload.WebTLSServerConfig `json:"tls_server_config"`
	TLSClientConfig *clusterTLSClientConf        `json:"tls_client_config"`
}

type clusterTLSClientConf struct {
	CAFile             string `json:"ca_file,omitempty"`
	CertFile           string `json:"cert_file,omitempty"`
	KeyFile            string `json:"key_file,omitempty"`
	ServerName         string `json:"server_name,omitempty"`
	InsecureSkipVerify bool   `json:"insecure_skip_verify,omitempty"`
	MinVersion         string `json:"min_version,omitempty"`
	MaxVersion         string `json:"max_version,omitempty"`
}

// AlertmanagerClusterTLSConfig is the content of the --cluster.tls-config file of a
// (nil when spec.clusterTLS is not set), which the controller stores under
// layout.AlertmanagerClusterTLSFile in layout.Alertmanager(a.Name).ClusterTLSSecret().
// Both halves are checked with the parsers Alertmanager uses (exporter-toolkit for the
// server, prometheus/common for the client).
func AlertmanagerClusterTLSConfig(a *monitoringv1.Alertmanager) ([]byte, error) {
	c := a.Spec.ClusterTLS
	if c == nil {
		return nil, nil
	}
	dir := layout.AlertmanagerClusterTLSDir
	server, err := workload.WebTLSServer(&c.ServerTLS, path.Join(dir, clusterServerDir), "spec.clusterTLS.server")
	if err != nil {
		return nil, err
	}
	ct := &c.ClientTLS
	if err := ct.Validate(); err != nil {
		return nil, fmt.Errorf("spec.clusterTLS.client: %w", err)
	}
	if ct.Cert == (monitoringv1.SecretOrConfigMap{}) {
		return nil, fmt.Errorf("spec.clusterTLS.client: a certificate is required")
	}
	client := &clusterTLSClientConf{
		CertFile:           path.Join(dir, clusterClientCert),
		ServerName:         ptr.Deref(ct.ServerName, ""),
		InsecureSkipVerify: ptr.Deref(ct.InsecureSkipVerify, false),
	}
	if ct.CA != (monitoringv1.SecretOrConfigMap{}) {
		client.CAFile = path.Join(dir, clusterClientCA)
	}
	if ct.KeySecret != nil {
		client.KeyFile = path.Join(dir, clusterClientKey)
	}
	if ct.MinVersion != nil {
		client.MinVersion = string(*ct.MinVersion)
	}
	if ct.MaxVersion != nil {
		client.MaxVersion = string(*ct.MaxVersion)
	}
	out, err := yaml.Marshal(clusterTLSFile{TLSServerConfig: server, TLSClientConfig: client})
	if err != nil {
		return nil, fmt.Errorf("encoding the cluster TLS config: %w", err)
	}
	var check struct {
		Server *web.TLSConfig       `yaml:"tls_server_config"`
		Client *commoncfg.TLSConfig `yaml:"tls_client_config"`
	}
	if err := yamlv2.UnmarshalStrict(out, &check); err != nil {
		return nil, fmt.Errorf("spec.clusterTLS: Alertmanager would reject the cluster TLS config: %w", err)
	}
	return out, nil
}
