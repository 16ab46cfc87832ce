package amcfg

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// conv converts one AlertmanagerConfig. It resolves references through assets in the
// object's namespace and collects the TLS files it needs.
type conv struct {
	version   versions.Version
	assets    Assets
	namespace string
	name      string
	// prefix is "<namespace>/<name>/" put before receiver and time interval names.
	prefix    string
	tlsAssets map[string][]byte
	// allowFiles: the object may name files of the Alertmanager container
	// (options.allowFiles).
	allowFiles bool
}

func newConv(v versions.Version, assets Assets, namespace, name string) *conv {
	return &conv{
		version:   v,
		assets:    assets,
		namespace: namespace,
		name:      name,
		prefix:    namespace + "/" + name + "/",
		tlsAssets: map[string][]byte{},
	}
}

// named returns the prefixed form of a name given inside the AlertmanagerConfig.
func (c *conv) named(n string) string {
	if n == "" {
		return ""
	}
	return c.prefix + n
}

func (c *conv) secret(field string, sel corev1.SecretKeySelector) (string, *problem) {
	return c.read(field, func(a Assets) (string, error) { return a.Secret(c.namespace, sel) })
}

func (c *conv) configMap(field string, sel corev1.ConfigMapKeySelector) (string, *problem) {
	return c.read(field, func(a Assets) (string, error) { return a.ConfigMap(c.namespace, sel) })
}

// read asks the Assets for one value of field.
func (c *conv) read(field string, get func(Assets) (string, error)) (string, *problem) {
	if c.assets == nil {
		return "", refProblem(field, errNoAssets)
	}
	v, err := get(c.assets)
	if err != nil {
		return "", refProblem(field, err)
	}
	return v, nil
}

// containerFile refuses a file of the Alertmanager container when the object may not
// name one; the field is set when file is non-nil.
func (c *conv) containerFile(field string, file *string) *problem {
	if file == nil || c.allowFiles {
		return nil
	}
	return invalid(field, "files of the Alertmanager container may not be referenced by this AlertmanagerConfig (spec.alertmanagerConfigFileSystemMode of the Alertmanager); use the Secret reference instead")
}

// optSecret resolves sel when it is set.
func (c *conv) optSecret(field string, sel *corev1.SecretKeySelector) (string, *problem) {
	if sel == nil {
		return "", nil
	}
	return c.secret(field, *sel)
}

// secretURL resolves a Secret holding a URL and checks it is an absolute http(s) URL.
func (c *conv) secretURL(field string, sel *corev1.SecretKeySelector) (string, *problem) {
	v, p := c.optSecret(field, sel)
	if p != nil || v == "" {
		return v, p
	}
	v = strings.TrimSpace(v)
	if err := checkURL(v); err != nil {
		return "", invalid(field, "the Secret value is not a valid URL: %v", err)
	}
	return v, nil
}

// file resolves a Secret or ConfigMap key into a file under TLSAssetsDir and returns the
// path; "" when sc is empty.
func (c *conv) file(field string, sc monitoringv1.SecretOrConfigMap) (string, *problem) {
	switch {
	case sc.Secret != nil && sc.ConfigMap != nil:
		return "", invalid(field, "secret and configMap are mutually exclusive")
	case sc.Secret != nil:
		return c.secretFile(field+".secret", *sc.Secret)
	case sc.ConfigMap != nil:
		if p := checkObjectKey(field+".configMap", sc.ConfigMap.Name, sc.ConfigMap.Key); p != nil {
			return "", p
		}
		v, p := c.configMap(field+".configMap", *sc.ConfigMap)
		if p != nil {
			return "", p
		}
		n := assetName("configmap", c.namespace, sc.ConfigMap.Name, sc.ConfigMap.Key)
		c.tlsAssets[n] = []byte(v)
		return TLSAssetsDir + "/" + n, nil
	}
	return "", nil
}

func (c *conv) secretFile(field string, sel corev1.SecretKeySelector) (string, *problem) {
	if p := checkObjectKey(field, sel.Name, sel.Key); p != nil {
		return "", p
	}
	v, p := c.secret(field, sel)
	if p != nil {
		return "", p
	}
	n := assetName("secret", c.namespace, sel.Name, sel.Key)
	c.tlsAssets[n] = []byte(v)
	return TLSAssetsDir + "/" + n, nil
}

// checkObjectKey refuses a Secret or ConfigMap name or key no object can have ("..",
// "a/b"): its value becomes a file whose name is made of them.
func checkObjectKey(field, name, key string) *problem {
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return invalid(field+".name", "%q is not a valid object name: %s", name, strings.Join(errs, "; "))
	}
	if errs := validation.IsConfigMapKey(key); len(errs) > 0 {
		return invalid(field+".key", "%q is not a valid key: %s", key, strings.Join(errs, "; "))
	}
	return nil
}

// assetName is the file name of one key, as prometheus-operator names TLS assets, cut
// to what a Secret key may be (layout.TLSAssetKey, shared with every kind).
func assetName(kind, ns, name, key string) string {
	return layout.TLSAssetKey(kind, ns, name, key)
}

// gate returns a problem when the Alertmanager is older than min, which the named feature
// (a receiver kind or field) needs.
func (c *conv) gate(field, what, min string) *problem {
	m := versions.MustParse(min)
	if c.version.Less(m) {
		return invalid(field, "%s requires Alertmanager >= %s, this Alertmanager runs %s", what, m, c.version)
	}
	return nil
}
