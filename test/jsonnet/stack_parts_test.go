package jsonnet

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// stackParts are the switchable parts of the stack: the values field that turns each off
// and the objects each brings.
var stackParts = []struct {
	component, off string
	objects        []string
}{
	{"nodeExporter", "nodeExporter+: { enabled: false }", []string{"serviceAccount", "daemonSet", "service", "serviceMonitor", "networkPolicy"}},
	{"kubeStateMetrics", "kubeStateMetrics+: { enabled: false }", []string{"serviceAccount", "clusterRole", "clusterRoleBinding", "deployment", "service", "serviceMonitor", "networkPolicy"}},
	{"grafana", "grafana+: { enabled: false }", []string{"serviceAccount", "datasources", "dashboardProviders", "deployment", "service", "serviceMonitor", "networkPolicy"}},
	{"blackboxExporter", "blackboxExporter+: { enabled: false }", []string{"serviceAccount", "configuration", "deployment", "service", "serviceMonitor", "networkPolicy"}},
	{"kubernetesControlPlane", "kubernetesControlPlane+: { kubelet: false, apiServer: false, coreDNS: false, kubeScheduler: false, kubeControllerManager: false }",
		[]string{"serviceMonitorKubelet", "serviceMonitorApiServer", "serviceMonitorCoreDNS", "serviceMonitorKubeScheduler", "serviceMonitorKubeControllerManager"}},
}

func keys(m map[string]object) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// matches reports whether every label of selector is on labels.
func matches(selector, labels any) bool {
	s, _ := selector.(map[string]any)
	l, _ := labels.(map[string]any)
	if len(s) == 0 {
		return false
	}
	for k, v := range s {
		if l[k] != v {
			return false
		}
	}
	return true
}

// TestStackParts checks that each part of the stack is there by default with the objects
// it needs, and that its switch removes all of them and nothing else.
func TestStackParts(t *testing.T) {
	def := evaluateStack(t, "{}")
	total := 0
	for _, objs := range def {
		total += len(objs)
	}
	for _, p := range stackParts {
		t.Run(p.component, func(t *testing.T) {
			if got := keys(def[p.component]); !slices.Equal(got, slices.Sorted(slices.Values(p.objects))) {
				t.Errorf("%s has %v, want %v", p.component, got, p.objects)
			}
			off := evaluateStack(t, "{ "+p.off+" }")
			if n := len(off[p.component]); n != 0 {
				t.Errorf("%s still has %d objects with %s", p.component, n, p.off)
			}
			left := 0
			for _, objs := range off {
				left += len(objs)
			}
			if want := total - len(p.objects); left != want && p.component != "kubernetesControlPlane" {
				t.Errorf("turning %s off leaves %d objects, want %d", p.component, left, want)
			}
		})
	}
	// Without the kubelet ServiceMonitor the operator does not keep the kubelet Service.
	off := evaluateStack(t, "{ kubernetesControlPlane+: { kubelet: false } }")
	if slices.ContainsFunc(off["operator"]["deployment"].get("spec", "template", "spec", "containers", 0, "args").([]any), func(a any) bool {
		return strings.HasPrefix(fmt.Sprint(a), "--kubelet-service")
	}) {
		t.Errorf("the operator gets --kubelet-service with the kubelet ServiceMonitor off")
	}
	noNP := evaluateStack(t, "{ common+: { networkPolicies: false } }")
	for c, objs := range noNP {
		for name, o := range objs {
			if o.str("kind") == "NetworkPolicy" {
				t.Errorf("%s %s is a NetworkPolicy with common.networkPolicies false", c, name)
			}
		}
	}
	one := evaluateStack(t, "{ prometheus+: { replicas: 1 }, alertmanager+: { replicas: 1 } }")
	for _, c := range []string{"prometheus", "alertmanager"} {
		if _, ok := def[c]["podDisruptionBudget"]; !ok {
			t.Errorf("%s has no PodDisruptionBudget", c)
		}
		if _, ok := one[c]["podDisruptionBudget"]; ok {
			t.Errorf("%s with one replica has a PodDisruptionBudget, which would block every drain", c)
		}
	}
}

// TestStackWiring checks how the new parts fit together: workloads select their pods,
// Services their pods, ServiceMonitors their Services, every component has a
// NetworkPolicy that lets Prometheus in on the ports it scrapes, the operator keeps the
// kubelet Service the kubelet ServiceMonitor selects, and Grafana queries the stack's
// Prometheus and mounts every dashboard ConfigMap.
func TestStackWiring(t *testing.T) {
	s := evaluateStack(t, "{}")
	prom := s["prometheus"]["prometheus"]
	promPods := map[string]any{"app.kubernetes.io/name": "prometheus", "app.kubernetes.io/instance": prom.str("metadata", "name")}
	for c, objs := range s {
		var pods any
		for _, o := range objs {
			switch o.str("kind") {
			case "Deployment", "DaemonSet":
				pods = o.get("spec", "template", "metadata", "labels")
				if !matches(o.get("spec", "selector", "matchLabels"), pods) {
					t.Errorf("%s %s: the selector does not match its pods", c, o.str("kind"))
				}
			case "Prometheus", "Alertmanager":
				pods = objs["service"].get("spec", "selector")
			}
		}
		svc, ok := objs["service"]
		if !ok || pods == nil {
			continue
		}
		if !matches(svc.get("spec", "selector"), pods) {
			t.Errorf("%s: the Service does not select the pods", c)
		}
		sm := objs["serviceMonitor"]
		if !matches(sm.get("spec", "selector", "matchLabels"), svc.get("metadata", "labels")) {
			t.Errorf("%s: the ServiceMonitor does not select the Service", c)
		}
		var svcPorts []string
		portNumbers := map[string]float64{}
		for _, p := range svc.get("spec", "ports").([]any) {
			name := p.(map[string]any)["name"].(string)
			svcPorts = append(svcPorts, name)
			portNumbers[name] = p.(map[string]any)["port"].(float64)
		}
		np, ok := objs["networkPolicy"]
		if !ok {
			t.Errorf("%s has no NetworkPolicy", c)
			continue
		}
		if !matches(np.get("spec", "podSelector", "matchLabels"), pods) {
			t.Errorf("%s: the NetworkPolicy does not select the pods", c)
		}
		for _, e := range sm.get("spec", "endpoints").([]any) {
			port := e.(map[string]any)["port"].(string)
			if !slices.Contains(svcPorts, port) {
				t.Errorf("%s: the ServiceMonitor scrapes port %s, which the Service lacks (%v)", c, port, svcPorts)
			}
			allowed := false
			for _, rule := range np.get("spec", "ingress").([]any) {
				r := object(rule.(map[string]any))
				fromProm := r.get("from") == nil
				for _, f := range asSlice(r.get("from")) {
					fromProm = fromProm || matches(object(f.(map[string]any)).get("podSelector", "matchLabels"), promPods)
				}
				for _, rp := range asSlice(r.get("ports")) {
					if fromProm && rp.(map[string]any)["port"] == portNumbers[port] {
						allowed = true
					}
				}
			}
			if !allowed {
				t.Errorf("%s: the NetworkPolicy does not let Prometheus scrape port %s (%v)", c, port, portNumbers[port])
			}
		}
	}

	// The kubelet.
	kubelet := s["kubernetesControlPlane"]["serviceMonitorKubelet"]
	args := s["operator"]["deployment"].get("spec", "template", "spec", "containers", 0, "args").([]any)
	if !slices.Contains(args, any("--kubelet-service=kube-system/kubelet")) {
		t.Errorf("the operator lacks --kubelet-service=kube-system/kubelet: %v", args)
	}
	if kubelet.get("spec", "namespaceSelector", "matchNames", 0) != "kube-system" ||
		kubelet.get("spec", "selector", "matchLabels", "app.kubernetes.io/name") != "kubelet" {
		t.Errorf("the kubelet ServiceMonitor does not select the Service the operator keeps: %v", kubelet.get("spec"))
	}
	var paths []string
	for _, e := range kubelet.get("spec", "endpoints").([]any) {
		ep := e.(map[string]any)
		if ep["port"] != "https-metrics" || ep["scheme"] != "https" {
			t.Errorf("kubelet endpoint %v: want port https-metrics over https", ep)
		}
		p, _ := ep["path"].(string)
		paths = append(paths, p)
	}
	if !slices.Equal(paths, []string{"", "/metrics/cadvisor", "/metrics/probes"}) {
		t.Errorf("kubelet paths %v", paths)
	}

	// Grafana.
	g := s["grafana"]
	var ds struct {
		Datasources []struct {
			URL       string `json:"url"`
			Type      string `json:"type"`
			IsDefault bool   `json:"isDefault"`
		} `json:"datasources"`
	}
	if err := yaml.Unmarshal([]byte(g["datasources"].str("stringData", "datasources.yaml")), &ds); err != nil || len(ds.Datasources) != 1 {
		t.Fatalf("datasources.yaml: %v %v", err, ds)
	}
	promSvc := s["prometheus"]["service"]
	if want := fmt.Sprintf("http://%s.%s.svc:9090", promSvc.str("metadata", "name"), promSvc.str("metadata", "namespace")); ds.Datasources[0].URL != want || ds.Datasources[0].Type != "prometheus" || !ds.Datasources[0].IsDefault {
		t.Errorf("Grafana data source %+v, want the default prometheus one at %s", ds.Datasources[0], want)
	}
	var mounted []string
	for _, vol := range g["deployment"].get("spec", "template", "spec", "volumes").([]any) {
		if cm, ok := vol.(map[string]any)["configMap"].(map[string]any); ok {
			mounted = append(mounted, cm["name"].(string))
		}
	}
	for name, cm := range s["dashboards"] {
		if !slices.Contains(mounted, cm.str("metadata", "name")) {
			t.Errorf("Grafana does not mount the dashboard ConfigMap %s", name)
		}
	}
	if !slices.Contains(mounted, g["dashboardProviders"].str("metadata", "name")) {
		t.Errorf("Grafana does not mount its dashboard provider ConfigMap")
	}

	// kube-state-metrics can list and watch what the mixin's alert reads.
	perms := permissions(s["kubeStateMetrics"]["clusterRole"])
	for _, p := range []string{"apps/deployments:list", "apps/deployments:watch", "/pods:list", "/nodes:watch"} {
		if !perms[p] {
			t.Errorf("the kube-state-metrics ClusterRole lacks %s", p)
		}
	}
	for p := range perms {
		if v := p[strings.LastIndex(p, ":")+1:]; v != "list" && v != "watch" {
			t.Errorf("the kube-state-metrics ClusterRole grants %s: it only needs list and watch", p)
		}
	}

	// node-exporter runs on the host like kube-prometheus's.
	ds0 := s["nodeExporter"]["daemonSet"].get("spec", "template", "spec").(map[string]any)
	if ds0["hostNetwork"] != true || ds0["hostPID"] != true {
		t.Errorf("node-exporter: hostNetwork %v, hostPID %v", ds0["hostNetwork"], ds0["hostPID"])
	}
}

func asSlice(v any) []any { a, _ := v.([]any); return a }
