package integration

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// TestReloaderPodStatusConfinedToItsPod: the Role --reloader-report-config grants lets a
// reloader patch the status of every pod of its namespace; the optional policy of
// example/rbac-optional/reloader-report-config-own-pod.yaml confines a pod-bound token to
// its own pod's status (issue 32, item 11). Without the policy a replica's token patches
// its sibling's status; with it, only its own.
func TestReloaderPodStatusConfinedToItsPod(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	const sa = "prometheus"
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reloader"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"pods/status"}, Verbs: []string{"patch", "get"}}}}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "reloader"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "reloader"},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: sa}}}
	create(t, role, binding)
	var pods []*corev1.Pod
	for i := range 2 {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("prometheus-k8s-%d", i),
				Labels: map[string]string{"operator.prometheus.io/name": "k8s"}},
			Spec: corev1.PodSpec{ServiceAccountName: sa, Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus"}}},
		}
		create(t, p)
		pods = append(pods, p)
	}
	// The token of replica 0, as the API server authenticates a projected token.
	cfg := rest.CopyConfig(env.Config)
	cfg.Impersonate = rest.ImpersonationConfig{
		UserName: "system:serviceaccount:" + ns + ":" + sa,
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
		Extra:    map[string][]string{"authentication.kubernetes.io/pod-name": {pods[0].Name}},
	}
	replica0, err := client.New(cfg, client.Options{Scheme: k8s.Scheme()})
	if err != nil {
		t.Fatal(err)
	}
	patch := func(p *corev1.Pod, value string) error {
		body := fmt.Appendf(nil, `{"status":{"conditions":[{"type":"lookout.dev/ConfigHash","status":"True","reason":%q}]}}`, value)
		return replica0.Status().Patch(context.Background(), p.DeepCopy(), client.RawPatch("application/strategic-merge-patch+json", body))
	}
	if err := patch(pods[1], "sibling"); err != nil {
		t.Fatalf("without the policy the Role lets a replica patch its sibling (the trust boundary documented): %v", err)
	}

	objs, err := manifest.ReadPaths(filepath.Join("..", "..", "example", "rbac-optional", "reloader-report-config-own-pod.yaml"))
	if err != nil || len(objs) != 2 {
		t.Fatalf("reading the policy: %d objects, %v", len(objs), err)
	}
	for _, o := range objs {
		u := o.Unstructured.DeepCopy()
		u.SetName(u.GetName() + "-" + ns)
		if u.GetKind() == "ValidatingAdmissionPolicyBinding" {
			// Only this test's namespace: the other tests run beside it.
			_ = unstructured.SetNestedField(u.Object, u.GetName(), "spec", "policyName")
			_ = unstructured.SetNestedStringMap(u.Object, map[string]string{"kubernetes.io/metadata.name": ns}, "spec", "matchResources", "namespaceSelector", "matchLabels")
		}
		if err := k8s.Create(ctx, u); err != nil {
			t.Fatalf("creating %s: %v", o.Source, err)
		}
		t.Cleanup(func() { _ = k8s.Delete(context.Background(), u) })
	}
	eventually(t, 30*time.Second, "the sibling's status refused", func() error {
		err := patch(pods[1], "sibling-again")
		if err == nil {
			return fmt.Errorf("patched the sibling's status")
		}
		if !strings.Contains(err.Error(), "a config-reloader may patch only the status of its own pod "+pods[0].Name+", not of "+pods[1].Name) {
			return fmt.Errorf("refused with another message: %v", err)
		}
		return nil
	})
	if err := patch(pods[0], "own"); err != nil {
		t.Fatalf("its own pod's status: %v", err)
	}
	// Labels through the status subresource, even of its own pod: refused.
	relabel := []byte(`{"metadata":{"labels":{"operator.prometheus.io/name":"other"}}}`)
	err = replica0.Status().Patch(context.Background(), pods[0].DeepCopy(), client.RawPatch("application/strategic-merge-patch+json", relabel))
	if err == nil || !strings.Contains(err.Error(), "may not change labels or annotations through pods/status") {
		t.Fatalf("a label change through its own pod's status: %v", err)
	}
}
