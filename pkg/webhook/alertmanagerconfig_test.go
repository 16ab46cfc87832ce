package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	monitoringv1beta1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1beta1"
	admissionv1 "k8s.io/api/admission/v1"
	apix "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/diff"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

func amcRequest(version string, op admissionv1.Operation, object, old string) admission.Request {
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		UID:       "1",
		Kind:      metav1.GroupVersionKind{Group: "monitoring.coreos.com", Version: version, Kind: "AlertmanagerConfig"},
		Operation: op, Name: "a", Namespace: "ns",
		Object: runtime.RawExtension{Raw: []byte(object)},
	}}
	if old != "" {
		req.OldObject = runtime.RawExtension{Raw: []byte(old)}
	}
	return req
}

func amcJSON(t *testing.T, version, specYAML string) string {
	t.Helper()
	var spec any
	if err := yaml.Unmarshal([]byte(specYAML), &spec); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{
		"apiVersion": "monitoring.coreos.com/" + version, "kind": "AlertmanagerConfig",
		"metadata": map[string]any{"name": "a", "namespace": "ns"}, "spec": spec,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	validAlphaSpec = `
route: {receiver: r}
receivers:
- name: r
  slackConfigs:
  - apiURL: {name: s, key: url}`
	invalidAlphaSpec = `
route: {receiver: nope}
receivers:
- name: r`
	validBetaSpec = `
route: {receiver: r}
receivers:
- name: r
  slackConfigs:
  - apiURL: {name: s, key: url}`
	invalidBetaSpec = `
route:
  receiver: r
  matchers: [{name: a, value: "(", matchType: "=~"}]
receivers:
- name: r`
)

func TestAlertmanagerConfigValidator(t *testing.T) {
	v := &AlertmanagerConfigValidator{}
	for _, c := range []struct {
		name, version, spec string
		op                  admissionv1.Operation
		allowed             bool
		message             string
	}{
		{"v1alpha1 valid (Secret not readable here)", "v1alpha1", validAlphaSpec, admissionv1.Create, true, ""},
		{"v1alpha1 unknown receiver", "v1alpha1", invalidAlphaSpec, admissionv1.Create, false, `spec.route.receiver: receiver "nope" not found in spec.receivers`},
		{"v1beta1 valid", "v1beta1", validBetaSpec, admissionv1.Create, true, ""},
		{"v1beta1 bad regex", "v1beta1", invalidBetaSpec, admissionv1.Update, false, "spec.route.matchers[0]: invalid matcher: error parsing regexp: missing closing ): `^(?:()$`"},
		{"delete never checked", "v1alpha1", invalidAlphaSpec, admissionv1.Delete, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := v.Handle(context.Background(), amcRequest(c.version, c.op, amcJSON(t, c.version, c.spec), ""))
			if resp.Allowed != c.allowed {
				t.Fatalf("allowed = %v: %v", resp.Allowed, resp.Result)
			}
			if !c.allowed {
				if resp.Result.Message != c.message {
					t.Errorf("message\n got: %s\nwant: %s", resp.Result.Message, c.message)
				}
				if resp.Result.Code != http.StatusUnprocessableEntity || resp.Result.Details.Kind != "AlertmanagerConfig" {
					t.Errorf("result %+v", resp.Result)
				}
			}
		})
	}
}

func TestAlertmanagerConfigValidatorMissingSecret(t *testing.T) {
	v := &AlertmanagerConfigValidator{Assets: amcfg.MapAssets{}}
	resp := v.Handle(context.Background(), amcRequest("v1alpha1", admissionv1.Create, amcJSON(t, "v1alpha1", validAlphaSpec), ""))
	if resp.Allowed || !strings.Contains(resp.Result.Message, `secret ns/s key "url": not found`) {
		t.Fatalf("got %v", resp.Result)
	}
}

func TestAlertmanagerConfigValidatorUnchangedSpec(t *testing.T) {
	obj := amcJSON(t, "v1alpha1", invalidAlphaSpec)
	resp := (&AlertmanagerConfigValidator{}).Handle(context.Background(), amcRequest("v1alpha1", admissionv1.Update, obj, obj))
	if !resp.Allowed {
		t.Fatalf("an update leaving the spec unchanged was denied: %v", resp.Result)
	}
}

func TestAlertmanagerConfigValidatorWrongKind(t *testing.T) {
	req := amcRequest("v1alpha1", admissionv1.Create, "{}", "")
	req.Kind.Kind = "Prometheus"
	if resp := (&AlertmanagerConfigValidator{}).Handle(context.Background(), req); resp.Allowed || resp.Result.Code != http.StatusBadRequest {
		t.Fatalf("got %v", resp.Result)
	}
}

// populatedBeta is a v1beta1 object using most of the API (testdata, shared with the
// conversion test through a real API server in test/packaging).
var populatedBeta = func() string {
	b, err := os.ReadFile("testdata/alertmanagerconfig-v1beta1.yaml")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// sameJSON compares two values by their JSON, so child routes (raw JSON in the API) are
// compared by content, not key order.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	var x, y any
	for _, p := range []struct {
		in  any
		out *any
	}{{a, &x}, {b, &y}} {
		raw, err := json.Marshal(p.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, p.out); err != nil {
			t.Fatal(err)
		}
	}
	return equality.Semantic.DeepEqual(x, y)
}

func TestConversionRoundTrip(t *testing.T) {
	var beta monitoringv1beta1.AlertmanagerConfig
	if err := yaml.UnmarshalStrict([]byte(populatedBeta), &beta); err != nil {
		t.Fatal(err)
	}
	// v1beta1 -> v1alpha1 -> v1beta1.
	var alpha monitoringv1alpha1.AlertmanagerConfig
	if err := beta.ConvertTo(&alpha); err != nil {
		t.Fatal(err)
	}
	if len(alpha.Spec.Receivers) != 1 || len(alpha.Spec.Receivers[0].RocketChatConfigs) != 1 || len(alpha.Spec.MuteTimeIntervals) != 2 {
		t.Fatalf("conversion lost fields: %+v", alpha.Spec)
	}
	var back monitoringv1beta1.AlertmanagerConfig
	if err := back.ConvertFrom(&alpha); err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, beta.Spec, back.Spec) || !equality.Semantic.DeepEqual(beta.ObjectMeta, back.ObjectMeta) {
		t.Fatalf("v1beta1 round trip differs:\n%s", diff.Diff(beta, back))
	}
	// v1alpha1 -> v1beta1 -> v1alpha1.
	var beta2 monitoringv1beta1.AlertmanagerConfig
	if err := beta2.ConvertFrom(&alpha); err != nil {
		t.Fatal(err)
	}
	var alpha2 monitoringv1alpha1.AlertmanagerConfig
	if err := beta2.ConvertTo(&alpha2); err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, alpha.Spec, alpha2.Spec) {
		t.Fatalf("v1alpha1 round trip differs:\n%s", diff.Diff(alpha.Spec, alpha2.Spec))
	}
	// The converted object is valid for Lookout's generator.
	if v := amcfg.Check(nil, &alpha, nil); !v.Accepted {
		t.Fatalf("the converted object is rejected: %+v", v)
	}
}

// TestConversionHandler sends ConversionReviews through the HTTP handler both ways.
func TestConversionHandler(t *testing.T) {
	h, err := NewConversionHandler()
	if err != nil {
		t.Fatal(err)
	}
	betaJSON, err := yaml.YAMLToJSON([]byte(populatedBeta))
	if err != nil {
		t.Fatal(err)
	}
	convert := func(obj []byte, to string) []byte {
		t.Helper()
		review := apix.ConversionReview{
			TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "ConversionReview"},
			Request: &apix.ConversionRequest{UID: "1", DesiredAPIVersion: to,
				Objects: []runtime.RawExtension{{Raw: obj}}},
		}
		body, _ := json.Marshal(review)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, ConvertPath, bytes.NewReader(body)))
		var out apix.ConversionReview
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%v: %s", err, rec.Body.String())
		}
		if out.Response == nil || out.Response.Result.Status != metav1.StatusSuccess || len(out.Response.ConvertedObjects) != 1 {
			t.Fatalf("conversion failed: %s", rec.Body.String())
		}
		return out.Response.ConvertedObjects[0].Raw
	}
	alphaJSON := convert(betaJSON, "monitoring.coreos.com/v1alpha1")
	if !strings.Contains(string(alphaJSON), `"apiVersion":"monitoring.coreos.com/v1alpha1"`) || !strings.Contains(string(alphaJSON), `"muteTimeIntervals"`) {
		t.Fatalf("not a v1alpha1 object: %s", alphaJSON)
	}
	backJSON := convert(alphaJSON, "monitoring.coreos.com/v1beta1")
	var want, got monitoringv1beta1.AlertmanagerConfig
	if err := json.Unmarshal(betaJSON, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(backJSON, &got); err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, want.Spec, got.Spec) {
		t.Fatalf("round trip through the handler differs:\n%s", diff.Diff(want.Spec, got.Spec))
	}
}
