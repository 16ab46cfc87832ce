package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/lookout-operator/lookout/pkg/rules"
)

// maxListedProblems bounds how many problems one denial spells out; the count of the rest
// is given.
const maxListedProblems = 50

// Validator is the validating admission handler for PrometheusRules.
type Validator struct {
	rules *rules.Validator
}

var _ admission.Handler = (*Validator)(nil)

// Handle allows a PrometheusRule whose spec passes rules.Validator.Validate and denies it
// otherwise, with every problem in the message and as a cause. Deletes are always
// allowed, and so are updates that leave the spec as it was (labels, annotations,
// finalizers), so that an object stored before the webhook existed can still be managed
// and deleted.
func (v *Validator) Handle(_ context.Context, req admission.Request) admission.Response {
	if req.Operation != admissionv1.Create && req.Operation != admissionv1.Update {
		return admission.Allowed("")
	}
	if err := checkKind(req); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	var rule monitoringv1.PrometheusRule
	if err := json.Unmarshal(req.Object.Raw, &rule); err != nil {
		return denied(req, []cause{{field: "", message: "cannot read the PrometheusRule: " + err.Error()}})
	}
	if req.Operation == admissionv1.Update && len(req.OldObject.Raw) > 0 {
		var old monitoringv1.PrometheusRule
		if err := json.Unmarshal(req.OldObject.Raw, &old); err == nil && equality.Semantic.DeepEqual(old.Spec, rule.Spec) {
			return admission.Allowed("spec unchanged")
		}
	}
	problems := v.rules.Validate(rule.Spec)
	if len(problems) == 0 {
		return admission.Allowed("")
	}
	causes := make([]cause, len(problems))
	for i, p := range problems {
		causes[i] = cause{field: p.Path, message: p.Message, text: p.Error()}
	}
	return denied(req, causes)
}

// checkKind refuses requests for anything but PrometheusRules, which a misconfigured
// webhook configuration could send.
func checkKind(req admission.Request) error {
	if req.Kind.Group != monitoringv1.SchemeGroupVersion.Group || req.Kind.Kind != monitoringv1.PrometheusRuleKind {
		return fmt.Errorf("this webhook handles %s.%s objects, not %s.%s",
			monitoringv1.PrometheusRuleKind, monitoringv1.SchemeGroupVersion.Group, req.Kind.Kind, req.Kind.Group)
	}
	return nil
}

type cause struct {
	field, message string
	// text is the full line for the message ("" means message).
	text string
}

// denied builds the denial: a message listing the problems one a line (the API server
// prefixes it with `admission webhook "..." denied the request: `), and one StatusCause
// per problem for clients that read them.
func denied(req admission.Request, causes []cause) admission.Response {
	return deniedKind(req, monitoringv1.PrometheusRuleKind, causes)
}

// deniedKind is denied for an object of the given kind.
func deniedKind(req admission.Request, kind string, causes []cause) admission.Response {
	lines := make([]string, 0, min(len(causes), maxListedProblems)+1)
	for i, c := range causes {
		if i == maxListedProblems {
			lines = append(lines, fmt.Sprintf("... and %d more", len(causes)-maxListedProblems))
			break
		}
		lines = append(lines, cmpOr(c.text, c.message))
	}
	msg := lines[0]
	if len(causes) > 1 {
		msg = fmt.Sprintf("%d problems:\n%s", len(causes), strings.Join(lines, "\n"))
	}
	details := &metav1.StatusDetails{
		Name:  req.Name,
		Group: monitoringv1.SchemeGroupVersion.Group,
		Kind:  kind,
	}
	for i, c := range causes {
		if i == maxListedProblems {
			break
		}
		details.Causes = append(details.Causes, metav1.StatusCause{
			Type:    metav1.CauseTypeFieldValueInvalid,
			Message: c.message,
			Field:   c.field,
		})
	}
	resp := admission.Denied(msg)
	resp.Result.Code = http.StatusUnprocessableEntity
	resp.Result.Reason = metav1.StatusReasonInvalid
	resp.Result.Details = details
	return resp
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
