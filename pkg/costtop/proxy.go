package costtop

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// ProxyGetter returns a Getter that reaches pods through the API server's pod proxy
// (GET /api/v1/namespaces/NS/pods/[https:]NAME:PORT/proxy/PATH), with cfg's
// credentials: it needs the user's get on pods/proxy, and no route to the pods.
func ProxyGetter(cfg *rest.Config) (Getter, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("API server client: %w", err)
	}
	host := cfg.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	base, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("API server URL %q: %w", cfg.Host, err)
	}
	return func(ctx context.Context, pod *corev1.Pod, scheme string, port int, urlPath, query string, read func(io.Reader) error) error {
		u := ProxyURL(*base, pod, scheme, port, urlPath, query)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			return fmt.Errorf("HTTP %s: %s", resp.Status, strings.TrimSpace(string(b)))
		}
		return read(resp.Body)
	}, nil
}

// ProxyURL is the API server URL of path?query on a pod's port through the pod proxy.
func ProxyURL(base url.URL, pod *corev1.Pod, scheme string, port int, urlPath, query string) url.URL {
	target := pod.Name + ":" + strconv.Itoa(port)
	if scheme == "https" {
		target = "https:" + target
	}
	u := base
	u.Path = strings.TrimSuffix(base.Path, "/") + "/api/v1/namespaces/" + pod.Namespace + "/pods/" + target + "/proxy" + urlPath
	u.RawPath = ""
	u.RawQuery = query
	return u
}

// Scheme is what top reads: core objects and the monitoring.coreos.com/v1 kinds.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(monitoringv1.AddToScheme(s))
	return s
}
