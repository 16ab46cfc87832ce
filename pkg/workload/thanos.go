package workload

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// ThanosGRPCPortName is the name of the Thanos gRPC (Store API) port of the sidecar and
// the ruler, also the port of their governing Services.
const ThanosGRPCPortName = "grpc"

// imageHasTagOrDigest reports whether an image reference names a tag or a digest: a
// colon after the last slash (a colon before it is the registry's port) or an "@".
func imageHasTagOrDigest(ref string) bool {
	if strings.Contains(ref, "@") {
		return true
	}
	return strings.Contains(ref[strings.LastIndex(ref, "/")+1:], ":")
}

// thanosTLSVersion is the spelling of a TLS version Thanos's flags take.
var thanosTLSVersion = map[monitoringv1.TLSVersion]string{
	monitoringv1.TLSVersion10: "1.0",
	monitoringv1.TLSVersion11: "1.1",
	monitoringv1.TLSVersion12: "1.2",
	monitoringv1.TLSVersion13: "1.3",
}

// ThanosGRPCTLSArgs adds the --grpc-server-tls-* flags of a Thanos component's gRPC
// server (tls may be nil) as prometheus-operator gates them by the Thanos version tv.
// field names the spec field in errors, mounts the field the files are mounted with.
func ThanosGRPCTLSArgs(tls *monitoringv1.GRPCServerTLSConfig, tv versions.Version, field, mounts string, add func(name, value string)) error {
	if tls == nil {
		return nil
	}
	if tls.CA != (monitoringv1.SecretOrConfigMap{}) || tls.Cert != (monitoringv1.SecretOrConfigMap{}) || tls.KeySecret != nil {
		return fmt.Errorf("%s: only caFile, certFile and keyFile are supported (mount the files with spec.volumes and %s), not ca, cert or keySecret", field, mounts)
	}
	AddNonEmpty(add, [2]string{"grpc-server-tls-cert", tls.CertFile}, [2]string{"grpc-server-tls-key", tls.KeyFile},
		[2]string{"grpc-server-tls-client-ca", tls.CAFile})
	if mv := thanosTLSVersion[ptr.Deref(tls.MinVersion, "")]; mv != "" && tv.Supports(versions.ThanosTLSMinVersion) {
		add("grpc-server-tls-min-version", mv)
	}
	if len(tls.CipherSuites) > 0 && tv.Supports(versions.ThanosTLSCiphers) {
		add("grpc-server-tls-ciphers", strings.Join(tls.CipherSuites, ","))
	}
	if len(tls.Curves) > 0 && tv.Supports(versions.ThanosTLSCiphers) {
		add("grpc-server-tls-curves", strings.Join(tls.Curves, ","))
	}
	return nil
}
