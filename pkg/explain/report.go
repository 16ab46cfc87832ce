package explain

// Subject kinds explain accepts.
const (
	KindServiceMonitor = "ServiceMonitor"
	KindPodMonitor     = "PodMonitor"
	KindProbe          = "Probe"
	KindScrapeConfig   = "ScrapeConfig"
	KindService        = "Service"
	KindPod            = "Pod"
)

// Subject is what is explained.
type Subject struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

func (s Subject) String() string { return s.Kind + " " + s.Namespace + "/" + s.Name }

// Report is the chain for one subject, for every Prometheus and PrometheusAgent.
type Report struct {
	Subject   Subject    `json:"subject"`
	Instances []Instance `json:"prometheuses"`
	// NearMisses are, for a Service or Pod, the monitors in reach that do not select it.
	NearMisses []NearMiss `json:"nearMisses,omitempty"`
	// Problems are findings outside any Prometheus (nothing selects the subject, ...).
	Problems []string `json:"problems,omitempty"`
	// OK: at least one Prometheus uses a monitor of the subject, and every endpoint of
	// every such monitor has at least one kept target.
	OK bool `json:"ok"`
	// Unknown (OK is then false): at least one Prometheus uses a monitor of the subject,
	// and every endpoint of every such monitor has a kept target except endpoints the
	// input cannot answer for (Endpoint.Unknown; offline files without the Endpoints,
	// EndpointSlices or Pods of a selected Service).
	Unknown bool `json:"unknown,omitempty"`
}

// Step is one link of the chain: it holds (OK) or breaks, and says why.
type Step struct {
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

// Instance is the chain through one Prometheus or PrometheusAgent.
type Instance struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Managed: the operator's instance selector, controller ID and watched namespaces.
	Managed Step `json:"managed"`
	// Error is a Prometheus-level error: its configuration cannot be generated.
	Error    string    `json:"error,omitempty"`
	Monitors []Monitor `json:"monitors,omitempty"`
}

// Monitor is the chain of one monitor through one Prometheus.
type Monitor struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// NamespaceSelection: watched by the operator and selected by the namespace selector.
	NamespaceSelection Step `json:"namespaceSelection"`
	// Selection: the monitor selector.
	Selection Step `json:"selection"`
	// Verdict: accepted, or rejected with the field.
	Verdict   Step       `json:"verdict"`
	Reason    string     `json:"reason"`
	Endpoints []Endpoint `json:"endpoints,omitempty"`
}

// Used reports whether the Prometheus uses the monitor.
func (m Monitor) Used() bool { return m.Verdict.OK }

// Endpoint is one endpoint of a monitor: its generated job, what discovery finds and
// what relabeling keeps.
type Endpoint struct {
	Index int    `json:"index"`
	Job   string `json:"job"`
	// Port is the port the endpoint asks for, as written.
	Port string `json:"port,omitempty"`
	// Discovery says what the job discovers (role, namespaces).
	Discovery string `json:"discovery"`
	// Error is a discovery failure (a list the API server refused, ...).
	Error   string   `json:"error,omitempty"`
	Targets []Target `json:"targets"`
	Kept    int      `json:"kept"`
	// Unknown says, for each Service the job would discover whose endpoints the input
	// cannot answer for, what is missing.
	Unknown []string `json:"unknown,omitempty"`
	// Seconds is how long discovery and relabeling took.
	Seconds float64 `json:"seconds"`
}

// Undetermined reports whether the endpoint has no kept target and the input cannot
// say whether it would have one: no error, and a selected Service the input cannot
// answer for.
func (ep Endpoint) Undetermined() bool {
	return ep.Kept == 0 && ep.Error == "" && len(ep.Unknown) > 0
}

// NearMiss is a monitor that could reach a Service or Pod but does not select it.
type NearMiss struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Message   string `json:"message"`
}
