package apiwatch

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
)

// scheme knows only core/v1: the sidecar needs Secrets and ConfigMaps, and a full
// client-go clientset would register every API group (memory the sidecar does not need).
var (
	scheme         = runtime.NewScheme()
	parameterCodec = runtime.NewParameterCodec(scheme)
)

func init() {
	// Registering the built-in core types into a fresh scheme cannot fail.
	_ = corev1.AddToScheme(scheme)
}

// newRESTClient returns a client for the core/v1 API.
func newRESTClient(cfg *rest.Config, userAgent string) (rest.Interface, error) {
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
