package integration

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/explain"
)

// TestExplainProxyRefusesOtherProcesses: while live explain runs its discovery, another
// process of the host finds its loopback proxy (the test learns the address from the
// proxied requests, faster than any port scan) and tries to use the admin's credentials
// the proxy adds: list kube-system Secrets, create a ClusterRoleBinding, delete a Pod.
// Every attempt is refused and nothing reaches the API server; explain's answer is
// unchanged (issue 32, item 1).
func TestExplainProxyRefusesOtherProcesses(t *testing.T) {
	mon := newNamespace(t, nil)
	app := newNamespace(t, map[string]string{"team": "a"})
	create(t, newPrometheus(mon, "k8s", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: "true"}
		p.Spec.ServiceMonitorNamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	}))
	create(t, newServiceMonitor(app, "api"))
	addService(t, app, "api", "web", "10.1.0.10")
	victim := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: app, Name: "victim"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "x"}}}}
	create(t, victim)

	subject := explain.Subject{Kind: explain.KindServiceMonitor, Namespace: app, Name: "api"}
	opts := explain.Options{Prometheus: mon + "/k8s", Timeout: 20 * time.Second}
	in, err := explain.Live(context.Background(), env.Config, subject, opts)
	if err != nil {
		t.Fatal(err)
	}
	var (
		once    sync.Once
		results = map[string]int{}
		mu      sync.Mutex
	)
	attack := func(host string) {
		try := func(what, method, path, body string) {
			req, _ := http.NewRequest(method, "http://"+host+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			code := -1
			if err == nil {
				code = resp.StatusCode
				resp.Body.Close()
			}
			mu.Lock()
			results[what] = code
			mu.Unlock()
		}
		try("list kube-system Secrets", http.MethodGet, "/api/v1/namespaces/kube-system/secrets", "")
		try("list Pods", http.MethodGet, "/api/v1/namespaces/"+app+"/pods", "")
		try("create a ClusterRoleBinding", http.MethodPost, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
			`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"pwned"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"cluster-admin"},"subjects":[{"kind":"User","name":"mallory","apiGroup":"rbac.authorization.k8s.io"}]}`)
		try("delete a Pod", http.MethodDelete, "/api/v1/namespaces/"+app+"/pods/victim", "")
	}
	api := in.API
	attacked := make(chan struct{})
	in.API = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			go func() { defer close(attacked); attack(r.Host) }()
		})
		api.ServeHTTP(w, r)
	})
	rep, err := explain.Explain(context.Background(), in, subject, opts)
	if err != nil {
		t.Fatal(err)
	}
	<-attacked
	if ep := rep.Instances[0].Monitors[0].Endpoints[0]; !rep.OK || ep.Kept != 1 {
		t.Errorf("explain's answer changed: ok %v, endpoint %+v", rep.OK, ep)
	}
	if len(results) != 4 {
		t.Fatalf("the attack did not run: %v", results)
	}
	for what, code := range results {
		if code != http.StatusUnauthorized {
			t.Errorf("%s without the run's token: HTTP %d, want 401", what, code)
		}
	}
	if err := k8s.Get(ctx, types.NamespacedName{Name: "pwned"}, &rbacv1.ClusterRoleBinding{}); !apierrors.IsNotFound(err) {
		t.Errorf("the ClusterRoleBinding was created through the proxy (%v)", err)
	}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: app, Name: "victim"}, &corev1.Pod{}); err != nil {
		t.Errorf("the Pod was deleted through the proxy: %v", err)
	}
}
