package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	monitoringv1beta1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1beta1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/webhook"
	"github.com/lookout-operator/lookout/test/testenv"
)

// webhookEnv is a real kube-apiserver calling the webhook configurations shipped in
// example/webhook, pointed at a Lookout webhook server on loopback.
type webhookEnv struct {
	client client.Client
}

// readWebhookConfig reads one shipped manifest and points its clientConfig at url+path:
// envtest would build "https://host:port//path", which the server answers with a redirect.
func readWebhookConfig[T any](t *testing.T, root, file string, obj *T, hooks func(*T) []*admissionregistrationv1.WebhookClientConfig, base string) *T {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "example", "webhook", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, obj); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, cc := range hooks(obj) {
		if cc.Service == nil || cc.Service.Path == nil {
			t.Fatalf("%s: clientConfig without service path", file)
		}
		url := base + *cc.Service.Path
		cc.URL, cc.Service = &url, nil
	}
	return obj
}

// validatingHooks are the clientConfigs of a ValidatingWebhookConfiguration.
func validatingHooks(c *admissionregistrationv1.ValidatingWebhookConfiguration) (out []*admissionregistrationv1.WebhookClientConfig) {
	for i := range c.Webhooks {
		out = append(out, &c.Webhooks[i].ClientConfig)
	}
	return out
}

func startWebhookEnv(t *testing.T) *webhookEnv {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, bin := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, bin)); err != nil {
			t.Fatalf("%s not found in %s: the webhook integration test needs the control plane binaries (make tools): %v", bin, assets, err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	base := fmt.Sprintf("https://127.0.0.1:%d", port)

	validating := readWebhookConfig(t, root, "validating-webhook.yaml", &admissionregistrationv1.ValidatingWebhookConfiguration{}, validatingHooks, base)
	amcValidating := readWebhookConfig(t, root, "alertmanagerconfig-validating-webhook.yaml", &admissionregistrationv1.ValidatingWebhookConfiguration{}, validatingHooks, base)
	mutating := readWebhookConfig(t, root, "mutating-webhook.yaml", &admissionregistrationv1.MutatingWebhookConfiguration{},
		func(c *admissionregistrationv1.MutatingWebhookConfiguration) (out []*admissionregistrationv1.WebhookClientConfig) {
			for i := range c.Webhooks {
				out = append(out, &c.Webhooks[i].ClientConfig)
			}
			return out
		}, base)

	env := &envtest.Environment{
		BinaryAssetsDirectory:    assets,
		CRDDirectoryPaths:        []string{filepath.Join(root, "example", "crds")},
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: 90 * time.Second,
		ControlPlaneStopTimeout:  30 * time.Second,
		WebhookInstallOptions: envtest.WebhookInstallOptions{
			ValidatingWebhooks: []*admissionregistrationv1.ValidatingWebhookConfiguration{validating, amcValidating},
			MutatingWebhooks:   []*admissionregistrationv1.MutatingWebhookConfiguration{mutating},
			LocalServingHost:   "127.0.0.1",
			LocalServingPort:   port,
		},
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting control plane: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping control plane: %v", err)
		}
	})

	srv := ctrlwebhook.NewServer(ctrlwebhook.Options{
		Host:    env.WebhookInstallOptions.LocalServingHost,
		Port:    env.WebhookInstallOptions.LocalServingPort,
		CertDir: env.WebhookInstallOptions.LocalServingCertDir,
	})
	if err := webhook.Register(srv, webhook.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := webhook.RegisterAlertmanagerConfig(srv, &webhook.AlertmanagerConfigValidator{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("webhook server: %v", err)
		}
	})
	ready := srv.StartedChecker()
	deadline := time.Now().Add(30 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, base, nil)
		if err := ready(req); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("webhook server did not start: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}

	c, err := client.New(cfg, client.Options{Scheme: operator.NewScheme()})
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"team-a"} {
		if err := c.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}
	waitForAdmission(t, c)
	patchConversion(t, c, root, base+webhook.ConvertPath, env.WebhookInstallOptions.LocalServingCAData)
	return &webhookEnv{client: c}
}

// patchConversion applies example/webhook/alertmanagerconfig-v1beta1.yaml to the
// AlertmanagerConfig CRD as the install guide does (kubectl patch --type json), with the
// clientConfig pointed at url. Before it the CRD serves v1alpha1 alone, as
// prometheus-operator's default CRDs do (issue 33); after it, v1beta1 too, converted.
func patchConversion(t *testing.T, c client.Client, root, url string, ca []byte) {
	t.Helper()
	ctx := context.Background()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := c.Get(ctx, types.NamespacedName{Name: "alertmanagerconfigs.monitoring.coreos.com"}, crd); err != nil {
		t.Fatal(err)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Name != "v1alpha1" || crd.Spec.Conversion != nil && crd.Spec.Conversion.Strategy != apiextensionsv1.NoneConverter {
		t.Fatalf("the default AlertmanagerConfig CRD serves %+v with conversion %+v; want v1alpha1 alone, as upstream's", crd.Spec.Versions, crd.Spec.Conversion)
	}
	data, err := os.ReadFile(filepath.Join(root, "example", "webhook", "alertmanagerconfig-v1beta1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var ops []map[string]any
	if err := yaml.Unmarshal(data, &ops); err != nil {
		t.Fatal(err)
	}
	converted := false
	for _, op := range ops {
		if op["path"] != "/spec/conversion" {
			continue
		}
		wh := op["value"].(map[string]any)["webhook"].(map[string]any)
		cc := wh["clientConfig"].(map[string]any)
		if svc := cc["service"].(map[string]any); svc["path"] != webhook.ConvertPath {
			t.Fatalf("the shipped conversion webhook calls %v, the operator serves %s", svc["path"], webhook.ConvertPath)
		}
		wh["clientConfig"] = map[string]any{"url": url, "caBundle": ca}
		converted = true
	}
	if !converted {
		t.Fatal("the shipped patch sets no conversion webhook")
	}
	raw, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Patch(ctx, crd, client.RawPatch(types.JSONPatchType, raw)); err != nil {
		t.Fatalf("patching the AlertmanagerConfig CRD: %v", err)
	}
	if crd.Spec.Conversion == nil || crd.Spec.Conversion.Strategy != apiextensionsv1.WebhookConverter || len(crd.Spec.Versions) != 2 {
		t.Fatalf("the CRD after the patch: conversion %+v, %d versions", crd.Spec.Conversion, len(crd.Spec.Versions))
	}
	// The API server serves the new version once it has read the CRD again.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := c.List(ctx, &monitoringv1beta1.AlertmanagerConfigList{}, client.InNamespace("team-a"))
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("v1beta1 not served 30s after the patch: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitForAdmission waits until the API server calls the validating webhook: it loads
// webhook configurations through an informer, and with failurePolicy Ignore a request
// made before that goes through unchecked.
func waitForAdmission(t *testing.T, c client.Client) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for {
		probe := promRule("probe", monitoringv1.RuleGroup{Name: "empty"})
		err := c.Create(ctx, probe)
		if err != nil && strings.Contains(err.Error(), "denied the request") {
			return
		}
		if err == nil {
			if err := c.Delete(ctx, probe); err != nil {
				t.Fatal(err)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the API server does not call the webhook: last result %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func promRule(name string, groups ...monitoringv1.RuleGroup) *monitoringv1.PrometheusRule {
	return &monitoringv1.PrometheusRule{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "team-a"},
		Spec:       monitoringv1.PrometheusRuleSpec{Groups: groups},
	}
}

func TestWebhooksThroughAPIServer(t *testing.T) {
	e := startWebhookEnv(t)
	ctx := context.Background()
	// The CRD schema already refuses malformed durations and duplicate group names;
	// these problems only the webhook finds.
	invalid := promRule("invalid", monitoringv1.RuleGroup{Name: "node", Rules: []monitoringv1.Rule{
		{Alert: "NodeDown", Expr: intstr.FromString("up{job=\"node\"} ==")},
		{Alert: "NodeSlow", Expr: intstr.FromString("rate(node_load1)"),
			Annotations: map[string]string{"summary": "{{ $labels.instance"}},
	}}, monitoringv1.RuleGroup{Name: "empty"})

	t.Run("validating webhook rejects invalid rules with every problem", func(t *testing.T) {
		err := e.client.Create(ctx, invalid.DeepCopy())
		if err == nil {
			t.Fatal("invalid PrometheusRule was stored")
		}
		want := `admission webhook "prometheusrules.lookout.dev" denied the request: 4 problems:
spec.groups[0].rules[0].expr (group "node", alert "NodeDown"): could not parse expression: 1:18: parse error: unexpected end of input
spec.groups[0].rules[1].annotations[summary] (group "node", alert "NodeSlow"): invalid template: template: __alert_NodeSlow:1: unclosed action
spec.groups[0].rules[1].expr (group "node", alert "NodeSlow"): could not parse expression: 1:6: parse error: expected type range vector in call to function "rate", got instant vector
spec.groups[1].rules (group "empty"): group has no rules`
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error:\n%v\nwant it to contain:\n%s", err, want)
		}
		if !apierrors.IsInvalid(err) {
			t.Errorf("error reason %q, want Invalid", apierrors.ReasonForError(err))
		}
	})

	t.Run("valid rules are stored, and an edit breaking them is rejected", func(t *testing.T) {
		good := promRule("good", monitoringv1.RuleGroup{Name: "node", Rules: []monitoringv1.Rule{
			{Alert: "NodeDown", Expr: intstr.FromString(`up{job="node"} == 0`), Labels: map[string]string{"severity": "page"}},
		}})
		if err := e.client.Create(ctx, good); err != nil {
			t.Fatalf("valid PrometheusRule refused: %v", err)
		}
		broken := good.DeepCopy()
		broken.Spec.Groups = append(broken.Spec.Groups, monitoringv1.RuleGroup{Name: "empty"})
		err := e.client.Update(ctx, broken)
		if err == nil || !strings.Contains(err.Error(), `denied the request: spec.groups[1].rules (group "empty"): group has no rules`) {
			t.Errorf("breaking edit: error %v", err)
		}
		// Labels can still be changed on a stored object.
		good.Labels = map[string]string{"team": "a"}
		if err := e.client.Update(ctx, good); err != nil {
			t.Errorf("metadata-only update refused: %v", err)
		}
	})

	t.Run("mutating webhook turns numeric and boolean labels into strings", func(t *testing.T) {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "monitoring.coreos.com/v1",
			"kind":       "PrometheusRule",
			"metadata":   map[string]any{"name": "numeric", "namespace": "team-a"},
			"spec": map[string]any{"groups": []any{map[string]any{
				"name": "g",
				"rules": []any{map[string]any{
					"alert":       "A",
					"expr":        "up == 0",
					"labels":      map[string]any{"severity": int64(1), "page": true},
					"annotations": map[string]any{"priority": 2.5},
				}},
			}}},
		}}
		if err := e.client.Create(ctx, u); err != nil {
			t.Fatalf("PrometheusRule with numeric labels refused: %v", err)
		}
		var got monitoringv1.PrometheusRule
		if err := e.client.Get(ctx, client.ObjectKey{Namespace: "team-a", Name: "numeric"}, &got); err != nil {
			t.Fatal(err)
		}
		r := got.Spec.Groups[0].Rules[0]
		if r.Labels["severity"] != "1" || r.Labels["page"] != "true" || r.Annotations["priority"] != "2.5" {
			t.Errorf("stored labels %v annotations %v, want severity=\"1\" page=\"true\" priority=\"2.5\"", r.Labels, r.Annotations)
		}
	})

	t.Run("objects labelled out of the webhooks are not checked", func(t *testing.T) {
		optOut := invalid.DeepCopy()
		optOut.Name = "opted-out"
		optOut.Labels = map[string]string{"lookout.dev/rule-webhook": "disabled"}
		if err := e.client.Create(ctx, optOut); err != nil {
			t.Fatalf("opted-out object refused: %v", err)
		}
		// Without the mutating webhook, the schema refuses a numeric label: the
		// conversion above was the webhook's doing.
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "monitoring.coreos.com/v1",
			"kind":       "PrometheusRule",
			"metadata": map[string]any{"name": "numeric-opted-out", "namespace": "team-a",
				"labels": map[string]any{"lookout.dev/rule-webhook": "disabled"}},
			"spec": map[string]any{"groups": []any{map[string]any{
				"name":  "g",
				"rules": []any{map[string]any{"alert": "A", "expr": "up", "labels": map[string]any{"severity": int64(1)}}},
			}}},
		}}
		err := e.client.Create(ctx, u)
		var status apierrors.APIStatus
		if err == nil || !errors.As(err, &status) || !strings.Contains(err.Error(), "must be of type string") {
			t.Errorf("numeric label without the mutating webhook: error %v, want a schema error", err)
		}
		// Deleting is never checked.
		if err := e.client.Delete(ctx, optOut); err != nil {
			t.Errorf("delete refused: %v", err)
		}
	})
}

// TestAlertmanagerConfigsThroughAPIServer: the shipped AlertmanagerConfig webhook refuses
// an invalid object, and with the shipped conversion patch a v1beta1 object using most
// of the API is stored (as v1alpha1), read back in both versions and edited in v1alpha1
// without losing anything of its v1beta1 form.
func TestAlertmanagerConfigsThroughAPIServer(t *testing.T) {
	e := startWebhookEnv(t)
	ctx := context.Background()

	t.Run("validating webhook refuses an invalid object", func(t *testing.T) {
		bad := &monitoringv1alpha1.AlertmanagerConfig{
			ObjectMeta: metav1.ObjectMeta{Name: "bad", Namespace: "team-a"},
			Spec: monitoringv1alpha1.AlertmanagerConfigSpec{
				Route:     &monitoringv1alpha1.Route{Receiver: "nope"},
				Receivers: []monitoringv1alpha1.Receiver{{Name: "r"}},
			},
		}
		err := e.client.Create(ctx, bad)
		want := `admission webhook "alertmanagerconfigs.lookout.dev" denied the request: spec.route.receiver: receiver "nope" not found in spec.receivers`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want it to contain %q", err, want)
		}
	})

	t.Run("v1beta1 and v1alpha1 round trip through the conversion webhook", func(t *testing.T) {
		data, err := os.ReadFile("testdata/alertmanagerconfig-v1beta1.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var beta monitoringv1beta1.AlertmanagerConfig
		if err := yaml.UnmarshalStrict(data, &beta); err != nil {
			t.Fatal(err)
		}
		beta.Namespace, beta.ResourceVersion = "team-a", ""
		want := beta.Spec.DeepCopy()
		var wantAlpha monitoringv1alpha1.AlertmanagerConfig
		if err := beta.ConvertTo(&wantAlpha); err != nil {
			t.Fatal(err)
		}
		// The API server reads the CRD's conversion settings from its own cache: until it
		// has the webhook, a create fails or, worse, is stored through the None strategy,
		// which prunes what v1alpha1 names differently (timeIntervals). Such an early
		// object is deleted and created again.
		key := client.ObjectKey{Namespace: "team-a", Name: beta.Name}
		var alpha monitoringv1alpha1.AlertmanagerConfig
		deadline := time.Now().Add(30 * time.Second)
		for {
			err := e.client.Create(ctx, beta.DeepCopy())
			if err == nil {
				if err := e.client.Get(ctx, key, &alpha); err != nil {
					t.Fatalf("reading it as v1alpha1: %v", err)
				}
				if len(alpha.Spec.MuteTimeIntervals) == len(wantAlpha.Spec.MuteTimeIntervals) {
					break
				}
				if err := e.client.Delete(ctx, &alpha); err != nil {
					t.Fatalf("deleting an object stored before the conversion webhook was in use: %v", err)
				}
				err = errors.New("stored before the conversion webhook was in use")
			}
			if time.Now().After(deadline) {
				t.Fatalf("creating the v1beta1 object: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
		}
		if !webhook.SameJSON(t, alpha.Spec, wantAlpha.Spec) {
			t.Errorf("v1alpha1 read back differs from the module's conversion:\n got %+v\nwant %+v", alpha.Spec, wantAlpha.Spec)
		}
		alpha.Labels = map[string]string{"edited": "v1alpha1"}
		if err := e.client.Update(ctx, &alpha); err != nil {
			t.Fatalf("updating it as v1alpha1: %v", err)
		}
		var back monitoringv1beta1.AlertmanagerConfig
		if err := e.client.Get(ctx, key, &back); err != nil {
			t.Fatalf("reading it as v1beta1: %v", err)
		}
		if back.Labels["edited"] != "v1alpha1" {
			t.Errorf("the v1alpha1 edit is missing from the v1beta1 object: labels %v", back.Labels)
		}
		if !webhook.SameJSON(t, back.Spec, *want) {
			t.Errorf("v1beta1 spec after the round trip differs:\n got %+v\nwant %+v", back.Spec, *want)
		}
	})
}
