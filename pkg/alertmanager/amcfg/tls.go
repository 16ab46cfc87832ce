package amcfg

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// tlsConfig converts a SafeTLSConfig; CA, certificate and key become files in TLSAssets.
func (c *conv) tlsConfig(field string, in *monitoringv1.SafeTLSConfig) (*obj, *problem) {
	if in == nil {
		return nil, nil
	}
	out := &obj{}
	ca, p := c.file(field+".ca", in.CA)
	if p != nil {
		return nil, p
	}
	cert, p := c.file(field+".cert", in.Cert)
	if p != nil {
		return nil, p
	}
	var key string
	if in.KeySecret != nil {
		if key, p = c.secretFile(field+".keySecret", *in.KeySecret); p != nil {
			return nil, p
		}
	}
	if (cert == "") != (key == "") {
		return nil, invalid(field, "cert and keySecret must be set together")
	}
	out.set("ca_file", ca).set("cert_file", cert).set("key_file", key)
	out.set("server_name", in.ServerName).set("insecure_skip_verify", in.InsecureSkipVerify)
	if in.MinVersion != nil {
		out.set("min_version", string(*in.MinVersion))
	}
	if in.MaxVersion != nil {
		out.set("max_version", string(*in.MaxVersion))
	}
	return out, nil
}
