package lint

import (
	"fmt"
	"strings"
	"testing"
)

// serviceYAML is a Service app/NAME labelled app=NAME with one port named port.
func serviceYAML(name, port string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata: {name: %[1]s, namespace: app, labels: {app: %[1]s}}
spec:
  selector: {app: %[1]s}
  ports:
  - {name: %[2]s, port: 8080}
`, name, port)
}

// endpoints lists one ready address for the Service app/NAME on port.
func endpoints(name, port string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Endpoints
metadata: {name: %[1]s, namespace: app}
subsets:
- addresses: [{ip: 10.0.0.1}]
  ports: [{name: %[2]s, port: 8080}]
`, name, port)
}

// serviceMonitor selects app=selects in namespace app and scrapes port, with extra
// lines under the endpoint.
func serviceMonitor(selects, port, extra string) string {
	return fmt.Sprintf(`apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: sm, namespace: app}
spec:
  selector: {matchLabels: {app: %s}}
  endpoints:
  - port: %s
%s`, selects, port, extra)
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: web
        ports: [{name: metrics, containerPort: 9090}]
`

func podMonitor(selects, port string) string {
	return fmt.Sprintf(`apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: pm, namespace: app}
spec:
  selector: {matchLabels: {app: %s}}
  podMetricsEndpoints:
  - port: %s
`, selects, port)
}

func TestMonitorSelectorNoMatch(t *testing.T) {
	runCases(t, "monitor-selector-no-match", []checkCase{
		{"no Service matches", docs(serviceYAML("web", "http"), serviceMonitor("api", "http", "")), 1, "matches no Service in namespace app"},
		{"a Service matches", docs(serviceYAML("web", "http"), serviceMonitor("web", "http", "")), 0, ""},
		{"the files describe no Service there", serviceMonitor("api", "http", ""), 0, ""},
		{"no pod template matches", docs(deployment, podMonitor("api", "metrics")), 1, "matches no Pod or pod template"},
		{"a pod template matches", docs(deployment, podMonitor("web", "metrics")), 0, ""},
		{"the operator's kubelet Service", docs(`apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: app}
spec:
  selector: {matchLabels: {app: operator}}
  template:
    metadata: {labels: {app: operator}}
    spec:
      containers:
      - name: operator
        image: operator
        args: [--kubelet-service=app/kubelet]
`, serviceYAML("web", "http"), strings.Replace(serviceMonitor("kubelet", "https-metrics", ""), "app: kubelet", "k8s-app: kubelet", 1)), 0, ""},
	})
}

func TestMonitorPortNotFound(t *testing.T) {
	runCases(t, "monitor-port-not-found", []checkCase{
		{"Service port named otherwise", docs(serviceYAML("web", "http"), serviceMonitor("web", "metrics", "")), 1, `port "metrics" is not a port of the 1 selected Services (their ports: http)`},
		{"Service port", docs(serviceYAML("web", "http"), serviceMonitor("web", "http", "")), 0, ""},
		{"container port named otherwise", docs(deployment, podMonitor("web", "http")), 1, "their ports: metrics"},
		{"container port", docs(deployment, podMonitor("web", "metrics")), 0, ""},
		{"nothing selected is another check's", docs(serviceYAML("web", "http"), serviceMonitor("api", "metrics", "")), 0, ""},
	})
}

func TestMonitorTimeoutExceedsInterval(t *testing.T) {
	runCases(t, "monitor-timeout-exceeds-interval", []checkCase{
		{"longer than the endpoint's interval", serviceMonitor("web", "http", "    interval: 10s\n    scrapeTimeout: 20s\n"), 1, "scrapeTimeout 20s is longer than interval 10s"},
		{"shorter", serviceMonitor("web", "http", "    interval: 10s\n    scrapeTimeout: 5s\n"), 0, ""},
		{"longer than the default interval", serviceMonitor("web", "http", "    scrapeTimeout: 45s\n"), 1, "the Prometheus's scrapeInterval 30s"},
		{"shorter than the Prometheus's interval", docs(prometheus("  scrapeInterval: 60s\n"), serviceMonitor("web", "http", "    scrapeTimeout: 45s\n")), 0, ""},
	})
}

func TestMonitorUnselected(t *testing.T) {
	picky := `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s, namespace: mon}
spec:
  serviceMonitorSelector: {matchLabels: {team: a}}
  serviceMonitorNamespaceSelector: {}
`
	runCases(t, "monitor-unselected", []checkCase{
		{"not selected", docs(picky, serviceMonitor("web", "http", "")), 1, "NotSelectedByLabels"},
		{"selected", docs(prometheus(""), serviceMonitor("web", "http", "")), 0, ""},
		{"no Prometheus in the files", serviceMonitor("web", "http", ""), 0, ""},
		{"a PrometheusAgent in the files", docs(picky, "apiVersion: monitoring.coreos.com/v1alpha1\nkind: PrometheusAgent\nmetadata: {name: a, namespace: mon}\nspec: {}\n", serviceMonitor("web", "http", "")), 0, ""},
	})
}

func TestInvalidAndMissingReference(t *testing.T) {
	missingCA := serviceMonitor("web", "http", "    scheme: https\n    tlsConfig:\n      ca: {secret: {name: ca, key: ca.crt}}\n")
	ca := "apiVersion: v1\nkind: Secret\nmetadata: {name: ca, namespace: app}\nstringData: {ca.crt: x}\n"
	badRelabel := serviceMonitor("web", "http", "    relabelings:\n    - {action: keep, sourceLabels: [a], regex: \"(\"}\n")
	runCases(t, "missing-reference", []checkCase{
		{"Secret not in the files", docs(prometheus(""), missingCA), 1, "secret app/ca"},
		{"Secret in the files", docs(prometheus(""), missingCA, ca), 0, ""},
		{"invalid for another reason", docs(prometheus(""), badRelabel), 0, ""},
	})
	runCases(t, "invalid", []checkCase{
		{"bad regex", docs(prometheus(""), badRelabel), 1, "rejects it"},
		{"Secret not in the files is the other check's", docs(prometheus(""), missingCA), 0, ""},
		{"valid", docs(prometheus(""), serviceMonitor("web", "http", "")), 0, ""},
	})
}

func TestMonitorRelabelDropsAll(t *testing.T) {
	drop := func(regex string) string {
		return fmt.Sprintf("    relabelings:\n    - {action: drop, sourceLabels: [__meta_kubernetes_service_name], regex: %s}\n", regex)
	}
	runCases(t, "monitor-relabel-drops-all", []checkCase{
		{"drops its only target", docs(prometheus(""), serviceYAML("web", "http"), endpoints("web", "http"), serviceMonitor("web", "http", drop("web"))), 1, "the relabelings drop all 1 targets"},
		{"drops another Service", docs(prometheus(""), serviceYAML("web", "http"), endpoints("web", "http"), serviceMonitor("web", "http", drop("api"))), 0, ""},
		{"no relabelings", docs(prometheus(""), serviceYAML("web", "http"), endpoints("web", "http"), serviceMonitor("web", "http", "")), 0, ""},
		{"no Prometheus selects it", docs(serviceYAML("web", "http"), endpoints("web", "http"), serviceMonitor("web", "http", drop("web"))), 0, ""},
	})
}
