//lint:file-ignore SA1019 Prometheus's endpoints role reads core/v1 Endpoints, which the test creates

package integration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/explain"
	"github.com/lookout-operator/lookout/pkg/manifest"
)

// TestExplainLive runs explain against the control plane: as the admin, and as a user
// bound only to the Roles Documentation/troubleshooting.md documents
// (example/explain/rbac.yaml); with one permission taken away, the missing permission is
// named.
func TestExplainLive(t *testing.T) {
	mon := newNamespace(t, nil)
	app := newNamespace(t, map[string]string{"team": "a"})
	create(t, newPrometheus(mon, "k8s", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: "true"} // the shared operator leaves it alone
		p.Spec.ServiceMonitorNamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	}))
	create(t, newServiceMonitor(app, "api"), newServiceMonitor(app, "rpc"))
	addService(t, app, "api", "web", "10.1.0.10")
	addService(t, app, "rpc", "grpc", "10.1.0.20")

	run := func(t *testing.T, cfg *rest.Config, name string) *explain.Report {
		t.Helper()
		subject := explain.Subject{Kind: explain.KindServiceMonitor, Namespace: app, Name: name}
		opts := explain.Options{Prometheus: mon + "/k8s", Timeout: 20 * time.Second}
		start := time.Now()
		in, err := explain.Live(context.Background(), cfg, subject, opts)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := explain.Explain(context.Background(), in, subject, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("explain %s: %s", name, time.Since(start))
		return rep
	}
	check := func(t *testing.T, cfg *rest.Config) {
		rep := run(t, cfg, "api")
		if !rep.OK {
			t.Fatalf("api not OK: %+v", rep)
		}
		ep := rep.Instances[0].Monitors[0].Endpoints[0]
		if ep.Kept != 1 || ep.Targets[0].URL != "http://10.1.0.10:8080/metrics" || ep.Targets[0].Labels["service"] != "api" {
			t.Errorf("api endpoint %+v", ep)
		}
		rep = run(t, cfg, "rpc")
		ep = rep.Instances[0].Monitors[0].Endpoints[0]
		found := false
		for _, tg := range ep.Targets {
			if tg.Service == "rpc" && tg.Drop != nil && tg.Drop.Cause == `port name is "grpc"; the endpoint asks for "web"` && tg.Drop.Rule == 2 {
				found = true
			}
		}
		if rep.OK || !found {
			t.Errorf("rpc: ok %v, targets %+v", rep.OK, ep.Targets)
		}
	}
	t.Run("admin", func(t *testing.T) { check(t, env.Config) })

	user := rest.CopyConfig(env.Config)
	user.Impersonate = rest.ImpersonationConfig{UserName: "alice", Groups: []string{"team-a"}}
	applyExplainRBAC(t, mon, app, false)
	t.Run("documented role", func(t *testing.T) {
		eventually(t, 10*time.Second, "the Role applies", func() error {
			_, err := explain.Live(context.Background(), user, explain.Subject{Kind: explain.KindServiceMonitor, Namespace: app, Name: "api"}, explain.Options{Prometheus: mon + "/k8s"})
			return err
		})
		check(t, user)
	})
	t.Run("missing permission", func(t *testing.T) {
		applyExplainRBAC(t, mon, app, true)
		var ep explain.Endpoint
		eventually(t, 10*time.Second, "the narrowed Role applies", func() error {
			rep := run(t, user, "api")
			ep = rep.Instances[0].Monitors[0].Endpoints[0]
			if ep.Error == "" {
				return os.ErrExist
			}
			return nil
		})
		if !strings.Contains(ep.Error, `cannot list resource "endpoints" in API group "" in the namespace "`+app+`"`) {
			t.Errorf("error %q does not name the missing permission", ep.Error)
		}
	})
}

// addService creates a Service with one port and its Endpoints and EndpointSlice with
// one ready address (no controller manager runs here).
func addService(t *testing.T, ns, name, port, ip string) {
	t.Helper()
	lbl := map[string]string{"app": name}
	create(t,
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbl}, Spec: corev1.ServiceSpec{ClusterIP: "None", Ports: []corev1.ServicePort{{Name: port, Port: 8080}}}},
		&corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbl}, Subsets: []corev1.EndpointSubset{{
			Addresses: []corev1.EndpointAddress{{IP: ip}}, Ports: []corev1.EndpointPort{{Name: port, Port: 8080, Protocol: corev1.ProtocolTCP}}}}},
		&discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-1", Labels: map[string]string{"app": name, discoveryv1.LabelServiceName: name}},
			AddressType: discoveryv1.AddressTypeIPv4,
			Ports:       []discoveryv1.EndpointPort{{Name: ptr.To(port), Port: ptr.To[int32](8080), Protocol: ptr.To(corev1.ProtocolTCP)}},
			Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{ip}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}}},
	)
}

// applyExplainRBAC creates example/explain/rbac.yaml's objects for the test's
// namespaces (team-a is app, monitoring is mon; the group keeps its name team-a);
// narrowed instead takes endpoints out of the team Role.
func applyExplainRBAC(t *testing.T, mon, app string, narrowed bool) {
	t.Helper()
	docs, err := manifest.ReadPaths(filepath.Join("..", "..", "example", "explain", "rbac.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	nsOf := func(ns string) string {
		if ns == "monitoring" {
			return mon
		}
		return app
	}
	for _, d := range docs {
		data, err := yaml.Marshal(d.Object)
		if err != nil {
			t.Fatal(err)
		}
		var obj client.Object
		switch d.GetKind() {
		case "Role":
			obj = &rbacv1.Role{}
		case "RoleBinding":
			obj = &rbacv1.RoleBinding{}
		case "ClusterRole":
			obj = &rbacv1.ClusterRole{}
		case "ClusterRoleBinding":
			obj = &rbacv1.ClusterRoleBinding{}
		default:
			t.Fatalf("unexpected %s", d.GetKind())
		}
		if err := yaml.Unmarshal(data, obj); err != nil {
			t.Fatal(err)
		}
		if obj.GetNamespace() != "" {
			obj.SetNamespace(nsOf(obj.GetNamespace()))
		}
		switch o := obj.(type) {
		case *rbacv1.ClusterRole:
			o.Name += "-" + app
			o.Rules[0].ResourceNames = []string{app}
		case *rbacv1.ClusterRoleBinding:
			o.Name += "-" + app
			o.RoleRef.Name += "-" + app
		case *rbacv1.Role:
			if narrowed {
				if o.Namespace != app {
					continue
				}
				cur := &rbacv1.Role{}
				if err := k8s.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: o.Name}, cur); err != nil {
					t.Fatal(err)
				}
				cur.Rules = o.Rules
				cur.Rules[1].Resources = []string{"services", "pods"}
				if err := k8s.Update(ctx, cur); err != nil {
					t.Fatal(err)
				}
				continue
			}
		}
		if narrowed {
			continue
		}
		create(t, obj)
	}
}
