// Package coreclient is the config-reloader's REST client for the core/v1 API. Its
// scheme knows only core/v1: the sidecar needs Secrets, ConfigMaps and its own pod, and a
// full client-go clientset would register every API group (memory the sidecar does not
// need).
package coreclient

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
)

var scheme = runtime.NewScheme()

// ParameterCodec encodes the options (list, watch) of requests made with the client.
var ParameterCodec = runtime.NewParameterCodec(scheme)

func init() {
	// Registering the built-in core types into a fresh scheme cannot fail.
	_ = corev1.AddToScheme(scheme)
}

// New returns a client for the core/v1 API; userAgent replaces the one of cfg when set.
func New(cfg *rest.Config, userAgent string) (rest.Interface, error) {
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &corev1.SchemeGroupVersion
	c.APIPath = "/api"
	c.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	if userAgent != "" {
		c.UserAgent = userAgent
	}
	rc, err := rest.RESTClientFor(c)
	if err != nil {
		return nil, fmt.Errorf("creating API client: %w", err)
	}
	return rc, nil
}
