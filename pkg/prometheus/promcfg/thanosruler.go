package promcfg

import (
	"fmt"
	"sort"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// RemoteWriteInput is what the remote-write configuration of a Thanos Ruler (its
// --remote-write.config-file, in Prometheus's configuration format) is generated from.
type RemoteWriteInput struct {
	// Namespace is the ThanosRuler's, where the Secrets the entries reference live.
	Namespace string
	// RemoteWrite is spec.remoteWrite; it is not modified.
	RemoteWrite []monitoringv1.RemoteWriteSpec
	// Version is the Prometheus release whose remote-write client the server embeds
	// (for a Thanos Ruler, rules.ThanosEngine of its Thanos version): fields that release
	// lacks are left out with a warning, as for a Prometheus.
	Version string
	// Assets resolves the Secrets and ConfigMaps the entries reference.
	Assets Assets
	// TLSAssetsDir is where the server's pod mounts the TLS assets Secrets.
	TLSAssetsDir string
}

// RemoteWriteResult is a generated remote-write configuration.
type RemoteWriteResult struct {
	// Config is the file: a remote_write list.
	Config []byte
	// TLSAssets are the files referenced under TLSAssetsDir.
	TLSAssets map[string][]byte
	// Dependencies are the Secrets and ConfigMaps read (or missing).
	Dependencies []Dependency
	// Warnings lists settings left out.
	Warnings []string
}

// RemoteWriteConfig renders the remote_write section of in alone, with the same code as a
// Prometheus's, and loads it with Prometheus's configuration loader. Fields no Thanos
// release reads (azureAD.workloadIdentity, azureAD.scope, sigv4.externalId) are left out
// with a warning, as prometheus-operator leaves them out. An error names the entry.
// Without entries the file is an empty list, for any version.
//
// A server built on a Prometheus older than versions.MinimumPrometheus (Thanos v0.24 to v0.31) gets
// the file prometheus-operator writes for it: rendered as for versions.MinimumPrometheus, without the
// TLS versions and sendNativeHistograms its client does not read, and a warning that
// other settings newer than its client are not checked.
func RemoteWriteConfig(in RemoteWriteInput) (*RemoteWriteResult, error) {
	if len(in.RemoteWrite) == 0 {
		// Nothing to render, whatever the version.
		return &RemoteWriteResult{Config: Encode(M{{"remote_write", []M{}}}), TLSAssets: map[string][]byte{}}, nil
	}
	v, err := versions.ParsePrometheus(in.Version)
	if err != nil {
		return nil, err
	}
	res := &RemoteWriteResult{TLSAssets: map[string][]byte{}}
	engine := v
	if !v.AtLeast(versions.MinimumPrometheus) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("spec.remoteWrite: this Thanos embeds the remote-write client of Prometheus %s, older than %s, the oldest Lookout checks remote-write settings for; a setting newer than %s stops the ruler", v.Tag(), versions.MinimumPrometheus.Tag(), v.Tag()))
		v = versions.MinimumPrometheus
	}
	p := promserver.Of(&monitoringv1.Prometheus{})
	p.Namespace = in.Namespace
	p.Spec.Version = v.Tag()
	for i := range in.RemoteWrite {
		rw := in.RemoteWrite[i].DeepCopy()
		res.Warnings = append(res.Warnings, dropForOldEngine(rw, i, engine)...)
		if a := rw.AzureAD; a != nil && a.WorkloadIdentity != nil {
			a.WorkloadIdentity = nil
			res.Warnings = append(res.Warnings, fmt.Sprintf("spec.remoteWrite[%d].azureAD.workloadIdentity left out: no Thanos release supports it", i))
		}
		if a := rw.AzureAD; a != nil && a.Scope != nil {
			a.Scope = nil
			res.Warnings = append(res.Warnings, fmt.Sprintf("spec.remoteWrite[%d].azureAD.scope left out: no Thanos release supports it", i))
		}
		if s := rw.Sigv4; s != nil && s.ExternalID != "" {
			s.ExternalID = ""
			res.Warnings = append(res.Warnings, fmt.Sprintf("spec.remoteWrite[%d].sigv4.externalId left out: no Thanos release supports it", i))
		}
		p.Spec.RemoteWrite = append(p.Spec.RemoteWrite, *rw)
	}
	ps, err := newPromSettings(p, v, false)
	if err != nil {
		return nil, err
	}
	rec := newRecorder(in.Assets)
	rec.tlsDir = in.TLSAssetsDir
	h := &headerCtx{p: p, v: v, ps: ps, rec: rec, warnings: &res.Warnings}
	rws := []M{}
	for i := range p.Spec.RemoteWrite {
		rw, err := h.remoteWrite(&p.Spec.RemoteWrite[i])
		if err != nil {
			return nil, redactSecrets(fmt.Errorf("spec.remoteWrite[%d]: %w", i, err), rec.secretValues)
		}
		rws = append(rws, rw)
	}
	for _, d := range rec.deps {
		res.Dependencies = append(res.Dependencies, Dependency{d.kind, d.namespace, d.name})
	}
	sort.Slice(res.Dependencies, func(i, j int) bool {
		a, b := res.Dependencies[i], res.Dependencies[j]
		return string(a.Kind)+a.Namespace+"/"+a.Name < string(b.Kind)+b.Namespace+"/"+b.Name
	})
	for k, val := range rec.tlsAssets {
		res.TLSAssets[k] = val
	}
	res.Config = Encode(M{{"remote_write", rws}})
	if _, err := load(res.Config); err != nil {
		return nil, redactSecrets(fmt.Errorf("spec.remoteWrite: %w", err), rec.secretValues)
	}
	return res, nil
}

// dropForOldEngine leaves out of rw the fields prometheus-operator leaves out for Thanos
// releases whose remote-write client does not read them: tlsConfig.minVersion before
// Thanos v0.28 (engine Prometheus v2.38), tlsConfig.maxVersion and sendNativeHistograms
// before v0.30 (v2.40). It returns a warning for each.
func dropForOldEngine(rw *monitoringv1.RemoteWriteSpec, i int, engine versions.Version) []string {
	var out []string
	drop := func(field, thanos string) {
		out = append(out, fmt.Sprintf("spec.remoteWrite[%d].%s left out: Thanos releases before %s do not read it", i, field, thanos))
	}
	if t := rw.TLSConfig; t != nil && t.MinVersion != nil && !engine.AtLeast(versions.New(2, 38, 0)) {
		t.MinVersion = nil
		drop("tlsConfig.minVersion", "v0.28.0")
	}
	if !engine.AtLeast(versions.New(2, 40, 0)) {
		if t := rw.TLSConfig; t != nil && t.MaxVersion != nil {
			t.MaxVersion = nil
			drop("tlsConfig.maxVersion", "v0.30.0")
		}
		if rw.SendNativeHistograms != nil {
			rw.SendNativeHistograms = nil
			drop("sendNativeHistograms", "v0.30.0")
		}
	}
	return out
}
