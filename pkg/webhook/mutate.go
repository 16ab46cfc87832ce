package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"gomodules.xyz/jsonpatch/v2"
	admissionv1 "k8s.io/api/admission/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// Mutator is the mutating admission handler for PrometheusRules.
type Mutator struct{}

var _ admission.Handler = Mutator{}

// Handle returns a JSONPatch that replaces every number or boolean among the values of
// spec.groups[*].labels, spec.groups[*].rules[*].labels and .annotations, and every
// numeric spec.groups[*].rules[*].expr, with its text. YAML reads `severity: 1` or
// `page: true` as a number or a boolean, which the PrometheusRule schema (strings only)
// would otherwise refuse. It works on the request's raw JSON, since decoding a number
// into the typed object's map[string]string fails. The number keeps the text the JSON
// had ("1", "0.50", "1e3"). Anything else is left alone for the validating webhook
// and the API server's schema to judge.
func (Mutator) Handle(_ context.Context, req admission.Request) admission.Response {
	if req.Operation != admissionv1.Create && req.Operation != admissionv1.Update {
		return admission.Allowed("")
	}
	if err := checkKind(req); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	ops, err := stringifyPatch(req.Object.Raw)
	if err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if len(ops) == 0 {
		return admission.Allowed("")
	}
	return admission.Patched(fmt.Sprintf("%d values turned into strings", len(ops)), ops...)
}

// stringifyPatch computes the patch operations for a PrometheusRule in JSON.
func stringifyPatch(raw []byte) ([]jsonpatch.JsonPatchOperation, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("decoding the PrometheusRule: %w", err)
	}
	spec, _ := obj["spec"].(map[string]any)
	groups, _ := spec["groups"].([]any)
	var ops []jsonpatch.JsonPatchOperation
	for gi, g := range groups {
		group, ok := g.(map[string]any)
		if !ok {
			continue
		}
		gpath := fmt.Sprintf("/spec/groups/%d", gi)
		ops = append(ops, stringifyValues(group["labels"], gpath+"/labels")...)
		rules, _ := group["rules"].([]any)
		for ri, r := range rules {
			rule, ok := r.(map[string]any)
			if !ok {
				continue
			}
			rpath := fmt.Sprintf("%s/rules/%d", gpath, ri)
			if n, ok := rule["expr"].(json.Number); ok {
				ops = append(ops, jsonpatch.NewOperation("replace", rpath+"/expr", n.String()))
			}
			ops = append(ops, stringifyValues(rule["labels"], rpath+"/labels")...)
			ops = append(ops, stringifyValues(rule["annotations"], rpath+"/annotations")...)
		}
	}
	return ops, nil
}

// stringifyValues returns replace operations for the number and boolean values of a JSON
// object, in key order.
func stringifyValues(v any, path string) []jsonpatch.JsonPatchOperation {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var ops []jsonpatch.JsonPatchOperation
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var s string
		switch x := m[k].(type) {
		case json.Number:
			s = x.String()
		case bool:
			s = strconv.FormatBool(x)
		default:
			continue
		}
		ops = append(ops, jsonpatch.NewOperation("replace", path+"/"+escapePointer(k), s))
	}
	return ops
}

// escapePointer escapes a key for a JSON pointer (RFC 6901).
func escapePointer(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
