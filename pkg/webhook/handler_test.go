package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	jsonpatch5 "github.com/evanphx/json-patch/v5"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

var ruleKind = metav1.GroupVersionKind{Group: "monitoring.coreos.com", Version: "v1", Kind: "PrometheusRule"}

// request builds an admission request for a PrometheusRule given as JSON.
func request(op admissionv1.Operation, object, old string) admission.Request {
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		UID: "1", Kind: ruleKind, Operation: op, Name: "r", Namespace: "ns",
		Object: runtime.RawExtension{Raw: []byte(object)},
	}}
	if old != "" {
		req.OldObject = runtime.RawExtension{Raw: []byte(old)}
	}
	return req
}

func ruleJSON(spec string) string {
	return `{"apiVersion":"monitoring.coreos.com/v1","kind":"PrometheusRule","metadata":{"name":"r","namespace":"ns"},"spec":` + spec + `}`
}

const (
	validSpec   = `{"groups":[{"name":"g","rules":[{"alert":"A","expr":"up == 0","for":"5m","labels":{"severity":"page"}}]}]}`
	invalidSpec = `{"groups":[{"name":"g","rules":[{"alert":"A","expr":"up ==","for":"5x"}]},{"name":"g"}]}`
)

func newTestValidator(t *testing.T) *Validator {
	t.Helper()
	v, err := NewValidator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestValidatorAllowsValidRule(t *testing.T) {
	resp := newTestValidator(t).Handle(context.Background(), request(admissionv1.Create, ruleJSON(validSpec), ""))
	if !resp.Allowed {
		t.Fatalf("valid rule denied: %v", resp.Result)
	}
}

func TestValidatorDeniesWithEveryProblem(t *testing.T) {
	resp := newTestValidator(t).Handle(context.Background(), request(admissionv1.Create, ruleJSON(invalidSpec), ""))
	if resp.Allowed {
		t.Fatal("invalid rule allowed")
	}
	want := `4 problems:
spec.groups[0].rules[0].expr (group "g", alert "A"): could not parse expression: 1:6: parse error: unexpected end of input
spec.groups[0].rules[0].for (group "g", alert "A"): unknown unit "x" in duration "5x"
spec.groups[1].name (group "g"): group name "g" is already used by spec.groups[0]: group names must be unique within a PrometheusRule
spec.groups[1].rules (group "g"): group has no rules`
	if resp.Result.Message != want {
		t.Errorf("message:\n%s\nwant:\n%s", resp.Result.Message, want)
	}
	if resp.Result.Code != http.StatusUnprocessableEntity || resp.Result.Reason != metav1.StatusReasonInvalid {
		t.Errorf("code %d reason %s, want 422 Invalid", resp.Result.Code, resp.Result.Reason)
	}
	causes := resp.Result.Details.Causes
	if len(causes) != 4 || causes[1].Field != "spec.groups[0].rules[0].for" || causes[1].Message != `unknown unit "x" in duration "5x"` {
		t.Errorf("causes = %+v", causes)
	}
}

func TestValidatorSingleProblemMessage(t *testing.T) {
	resp := newTestValidator(t).Handle(context.Background(), request(admissionv1.Create,
		ruleJSON(`{"groups":[{"name":"g","rules":[{"record":"r","expr":"up[5m]"}]}]}`), ""))
	want := `spec.groups[0].rules[0].expr (group "g", record "r"): expression must evaluate to an instant vector or a scalar, not a range vector`
	if resp.Allowed || resp.Result.Message != want {
		t.Errorf("allowed %v, message %q, want %q", resp.Allowed, resp.Result.Message, want)
	}
}

func TestValidatorListsAtMostFiftyProblems(t *testing.T) {
	var rules []string
	for i := range 60 {
		rules = append(rules, fmt.Sprintf(`{"alert":"A%d","expr":"up ==","labels":{"s":"x"}}`, i))
	}
	spec := `{"groups":[{"name":"g","rules":[` + strings.Join(rules, ",") + `]}]}`
	resp := newTestValidator(t).Handle(context.Background(), request(admissionv1.Create, ruleJSON(spec), ""))
	lines := strings.Split(resp.Result.Message, "\n")
	if lines[0] != "60 problems:" || lines[len(lines)-1] != "... and 10 more" || len(lines) != 52 {
		t.Errorf("message has %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if len(resp.Result.Details.Causes) != 50 {
		t.Errorf("%d causes, want 50", len(resp.Result.Details.Causes))
	}
}

func TestValidatorOperations(t *testing.T) {
	v := newTestValidator(t)
	ctx := context.Background()
	bad, good := ruleJSON(invalidSpec), ruleJSON(validSpec)
	relabelled := strings.Replace(bad, `"namespace":"ns"`, `"namespace":"ns","labels":{"x":"y"}`, 1)
	for _, c := range []struct {
		name    string
		req     admission.Request
		allowed bool
	}{
		{"delete of an invalid rule", request(admissionv1.Delete, "", bad), true},
		{"connect", request(admissionv1.Connect, "", ""), true},
		{"update leaving an invalid spec unchanged", request(admissionv1.Update, relabelled, bad), true},
		{"update making a valid rule invalid", request(admissionv1.Update, bad, good), false},
		{"update fixing an invalid rule", request(admissionv1.Update, good, bad), true},
		{"update with an unreadable old object", request(admissionv1.Update, bad, "{"), false},
	} {
		if resp := v.Handle(ctx, c.req); resp.Allowed != c.allowed {
			t.Errorf("%s: allowed %v, want %v (%v)", c.name, resp.Allowed, c.allowed, resp.Result)
		}
	}
}

func TestValidatorBadRequests(t *testing.T) {
	v := newTestValidator(t)
	req := request(admissionv1.Create, ruleJSON(validSpec), "")
	req.Kind = metav1.GroupVersionKind{Group: "", Version: "v1", Kind: "ConfigMap"}
	if resp := v.Handle(context.Background(), req); resp.Allowed || resp.Result.Code != http.StatusBadRequest ||
		resp.Result.Message != "this webhook handles PrometheusRule.monitoring.coreos.com objects, not ConfigMap." {
		t.Errorf("wrong kind: %+v", resp.Result)
	}
	resp := v.Handle(context.Background(), request(admissionv1.Create, ruleJSON(`{"groups":[{"name":"g","rules":[{"alert":"A","expr":"up","labels":{"s":1}}]}]}`), ""))
	want := "cannot read the PrometheusRule: json: cannot unmarshal number into Go struct field Rule.spec.groups.rules.labels of type string"
	if resp.Allowed || resp.Result.Message != want {
		t.Errorf("wrong types: allowed %v, message %q, want %q", resp.Allowed, resp.Result.Message, want)
	}
}

func TestValidatorVersionOption(t *testing.T) {
	if _, err := NewValidator(Options{PrometheusVersion: "x"}); err == nil {
		t.Error("an unreadable version was accepted")
	}
	v, err := NewValidator(Options{PrometheusVersion: "2.41.0", EnableFeatures: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	spec := `{"groups":[{"name":"g","rules":[{"alert":"A","expr":"up","keep_firing_for":"5m"}]}]}`
	if resp := v.Handle(context.Background(), request(admissionv1.Create, ruleJSON(spec), "")); resp.Allowed {
		t.Error("keep_firing_for allowed for Prometheus 2.41.0")
	}
	// By default every feature flag is assumed: experimental functions pass.
	spec = `{"groups":[{"name":"g","rules":[{"alert":"A","expr":"sort_by_label(up, \"job\")"}]}]}`
	if resp := newTestValidator(t).Handle(context.Background(), request(admissionv1.Create, ruleJSON(spec), "")); !resp.Allowed {
		t.Errorf("experimental function denied by default: %v", resp.Result)
	}
}

// applyPatch applies the response's patch to the request object.
func applyPatch(t *testing.T, object string, resp admission.Response) []byte {
	t.Helper()
	ops, err := json.Marshal(resp.Patches)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := jsonpatch5.DecodePatch(ops)
	if err != nil {
		t.Fatal(err)
	}
	out, err := patch.Apply([]byte(object))
	if err != nil {
		t.Fatalf("patch does not apply: %v\n%s", err, ops)
	}
	return out
}

func TestMutatorStringifiesNumbersAndBooleans(t *testing.T) {
	object := ruleJSON(`{"groups":[{"name":"g","labels":{"tier":2},"rules":[
		{"alert":"A","expr":"up","labels":{"severity":1,"page":true,"team":"x","a/b~c":0.50,"nil":null},"annotations":{"runbook":"x","priority":1e3}},
		{"record":"r","expr":1},
		{"record":"s","expr":"vector(1)"}]}]}`)
	// Through admission.Webhook, as the server calls it: it completes the response.
	resp := (&admission.Webhook{Handler: Mutator{}}).Handle(context.Background(), request(admissionv1.Create, object, ""))
	if !resp.Allowed {
		t.Fatalf("denied: %v", resp.Result)
	}
	var paths []string
	for _, op := range resp.Patches {
		paths = append(paths, fmt.Sprintf("%s %s=%v", op.Operation, op.Path, op.Value))
	}
	want := []string{
		"replace /spec/groups/0/labels/tier=2",
		"replace /spec/groups/0/rules/0/labels/a~1b~0c=0.50",
		"replace /spec/groups/0/rules/0/labels/page=true",
		"replace /spec/groups/0/rules/0/labels/severity=1",
		"replace /spec/groups/0/rules/0/annotations/priority=1e3",
		"replace /spec/groups/0/rules/1/expr=1",
	}
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("patch:\n%s\nwant:\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
	if resp.PatchType == nil || *resp.PatchType != admissionv1.PatchTypeJSONPatch {
		t.Errorf("patch type %v", resp.PatchType)
	}
	// After the patch the object decodes into the typed API, with the values as text.
	var rule monitoringv1.PrometheusRule
	if err := json.Unmarshal(applyPatch(t, object, resp), &rule); err != nil {
		t.Fatalf("patched object still does not decode: %v", err)
	}
	r := rule.Spec.Groups[0].Rules[0]
	if r.Labels["severity"] != "1" || r.Labels["page"] != "true" || r.Labels["a/b~c"] != "0.50" || r.Annotations["priority"] != "1e3" ||
		rule.Spec.Groups[0].Labels["tier"] != "2" || rule.Spec.Groups[0].Rules[1].Expr.String() != "1" {
		t.Errorf("patched rule: %+v", rule.Spec)
	}
}

func TestMutatorLeavesOtherObjectsAlone(t *testing.T) {
	for name, object := range map[string]string{
		"already strings":  ruleJSON(validSpec),
		"no spec":          `{"kind":"PrometheusRule"}`,
		"odd shapes":       ruleJSON(`{"groups":[1,{"name":"g","labels":"x","rules":[2,{"labels":[1]}]}]}`),
		"groups not array": ruleJSON(`{"groups":{"a":1}}`),
	} {
		resp := Mutator{}.Handle(context.Background(), request(admissionv1.Create, object, ""))
		if !resp.Allowed || len(resp.Patches) != 0 {
			t.Errorf("%s: allowed %v, patches %v", name, resp.Allowed, resp.Patches)
		}
	}
	if resp := (Mutator{}).Handle(context.Background(), request(admissionv1.Create, "{", "")); resp.Allowed || resp.Result.Code != http.StatusBadRequest {
		t.Errorf("broken JSON: %+v", resp)
	}
	if resp := (Mutator{}).Handle(context.Background(), request(admissionv1.Delete, "", "")); !resp.Allowed {
		t.Error("delete denied")
	}
}

func FuzzMutator(f *testing.F) {
	f.Add(ruleJSON(`{"groups":[{"name":"g","rules":[{"alert":"A","expr":2,"labels":{"s":1}}]}]}`))
	f.Fuzz(func(t *testing.T, object string) {
		resp := Mutator{}.Handle(context.Background(), request(admissionv1.Create, object, ""))
		if len(resp.Patches) == 0 {
			return
		}
		ops, _ := json.Marshal(resp.Patches)
		patch, err := jsonpatch5.DecodePatch(ops)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := patch.Apply([]byte(object)); err != nil {
			t.Fatalf("patch %s does not apply to %s: %v", ops, object, err)
		}
	})
}
