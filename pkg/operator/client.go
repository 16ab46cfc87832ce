package operator

import (
	"fmt"
	"net/url"
	"os"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/client/config"
)

// RESTConfig builds the API server client configuration, looking in this order at
// --kubeconfig, $KUBECONFIG, --apiserver (with --cert-file, --key-file, --ca-file and
// --tls-insecure when it is https, as prometheus-operator does), the in-cluster
// configuration and ~/.kube/config. --as, the rate limits and userAgent are applied to
// whichever was found.
func (c ClientOptions) RESTConfig(userAgent string) (*rest.Config, error) {
	var (
		cfg *rest.Config
		err error
	)
	switch {
	case c.Kubeconfig != "":
		cfg, err = clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	case os.Getenv("KUBECONFIG") == "" && c.APIServer != "":
		cfg, err = c.apiServerConfig()
	default:
		cfg, err = ctrlconfig.GetConfig()
	}
	if err != nil {
		return nil, err
	}
	if c.QPS > 0 {
		cfg.QPS = c.QPS
	}
	if c.Burst > 0 {
		cfg.Burst = c.Burst
	}
	if userAgent != "" {
		cfg.UserAgent = userAgent
	}
	if c.Impersonate != "" {
		cfg.Impersonate.UserName = c.Impersonate
	}
	return cfg, nil
}

func (c ClientOptions) apiServerConfig() (*rest.Config, error) {
	u, err := url.Parse(c.APIServer)
	if err != nil {
		return nil, fmt.Errorf("--apiserver %q: %w", c.APIServer, err)
	}
	cfg := &rest.Config{Host: c.APIServer}
	if u.Scheme == "https" {
		cfg.TLSClientConfig = rest.TLSClientConfig{CertFile: c.CertFile, KeyFile: c.KeyFile, CAFile: c.CAFile, Insecure: c.Insecure}
	}
	return cfg, nil
}
