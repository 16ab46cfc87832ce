package faults

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/webhook"
)

// interceptor is a test-only validating admission webhook that can hold one write in
// flight: the API server has received the operator's request and waits for the webhook's
// answer, the operator waits for the API server. The test kills the operator meanwhile
// and then has the write refused, which leaves the cluster exactly as a crash between
// the previous write and this one would. Nothing in the operator knows about it.
type interceptor struct {
	ns  string
	srv *http.Server

	mu      sync.Mutex
	armed   string // resource[/subresource] whose next write is held, "" for none
	held    chan string
	allow   chan bool
	aborted chan struct{}
}

// The writes the interceptor can hold, by resource[/subresource].
const (
	statefulSetWrites      = "statefulsets"
	prometheusStatusWrites = "prometheuses/status"
	secretWrites           = "secrets"
)

var interceptedRules = map[string]admissionregistrationv1.RuleWithOperations{
	statefulSetWrites: {
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Resources: []string{"statefulsets"}},
	},
	prometheusStatusWrites: {
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{"monitoring.coreos.com"}, APIVersions: []string{"v1"}, Resources: []string{"prometheuses/status"}},
	},
	secretWrites: {
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"secrets"}},
	},
}

// startInterceptor serves the webhook on loopback and registers it on the control
// plane, with failurePolicy Fail, for the named writes in ns.
func startInterceptor(t *testing.T, on *controlPlane, ns string, writes ...string) *interceptor {
	t.Helper()
	dir := t.TempDir()
	if err := webhook.EnsureSelfSignedCert(dir, []string{"127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"))
	if err != nil {
		t.Fatal(err)
	}
	ca, err := os.ReadFile(filepath.Join(dir, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	ic := &interceptor{ns: ns, held: make(chan string, 1), allow: make(chan bool), aborted: make(chan struct{}, 1)}
	ic.srv = &http.Server{Handler: http.HandlerFunc(ic.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = ic.srv.Serve(l) }()
	t.Cleanup(func() { _ = ic.srv.Close() })

	var rules []admissionregistrationv1.RuleWithOperations
	for _, w := range writes {
		rules = append(rules, interceptedRules[w])
	}
	url := fmt.Sprintf("https://%s/validate", l.Addr().(*net.TCPAddr).String())
	vwc := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "faults-interceptor-" + ns},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:                    "interceptor.faults.lookout.dev",
			AdmissionReviewVersions: []string{"v1"},
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: ca},
			Rules:                   rules,
			FailurePolicy:           ptr.To(admissionregistrationv1.Fail),
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			TimeoutSeconds:          ptr.To[int32](30),
			NamespaceSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: ns}},
		}},
	}
	on.mustCreate(t, vwc)
	t.Cleanup(func() { _ = on.c.Delete(ctx, vwc) })
	return ic
}

// arm holds the next write of resource ("statefulsets", "prometheuses/status").
func (ic *interceptor) arm(resource string) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	ic.armed = resource
}

// waitHeld waits until a write of the armed resource is held.
func (ic *interceptor) waitHeld(t *testing.T, timeout time.Duration, ops []*operator) {
	t.Helper()
	deadline := time.After(timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ic.held:
			return
		case <-deadline:
			t.Fatalf("no %s write held within %s", ic.armed, timeout)
		case <-tick.C:
			for _, o := range ops {
				if err := o.alive(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// release answers the held write: refused or allowed. When the operator was killed, the
// API server may have aborted the request already (its client went away): the write
// does not happen either way. It returns what ended the held write.
func (ic *interceptor) release(t *testing.T, allowed bool) string {
	t.Helper()
	select {
	case ic.allow <- allowed:
		if allowed {
			return "allowed by the webhook"
		}
		return "refused by the webhook"
	case <-ic.aborted:
		return "aborted by the API server (its client was gone)"
	case <-time.After(10 * time.Second):
		t.Fatal("the held write neither answered nor aborted")
		return ""
	}
}

func (ic *interceptor) serve(w http.ResponseWriter, r *http.Request) {
	var review admissionv1.AdmissionReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
		http.Error(w, "bad admission review", http.StatusBadRequest)
		return
	}
	req := review.Request
	resource := req.Resource.Resource
	if req.SubResource != "" {
		resource += "/" + req.SubResource
	}
	allowed := true
	ic.mu.Lock()
	hold := req.Namespace == ic.ns && ic.armed == resource
	if hold {
		ic.armed = ""
	}
	ic.mu.Unlock()
	if hold {
		select {
		case ic.held <- resource:
		default:
		}
		select {
		case allowed = <-ic.allow:
		case <-r.Context().Done():
			ic.aborted <- struct{}{}
			return
		}
	}
	resp := admissionv1.AdmissionReview{
		TypeMeta: review.TypeMeta,
		Response: &admissionv1.AdmissionResponse{UID: req.UID, Allowed: allowed},
	}
	if !allowed {
		resp.Response.Result = &metav1.Status{Message: "refused by the fault test: the operator was killed before this write"}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}
