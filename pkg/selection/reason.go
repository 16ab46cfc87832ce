package selection

// Reason says why an object was or was not used. The values appear verbatim in status
// conditions, events and metrics labels.
type Reason string

const (
	// Accepted: the object is selected and valid.
	Accepted Reason = "Accepted"
	// NotSelectedByLabels: the object's labels do not match the Prometheus's selector, or
	// the selector is absent (a nil selector selects nothing).
	NotSelectedByLabels Reason = "NotSelectedByLabels"
	// NamespaceNotSelected: the object's namespace does not match the namespace selector.
	NamespaceNotSelected Reason = "NamespaceNotSelected"
	// NamespaceNotWatched: the object lives outside the namespaces the operator watches.
	NamespaceNotWatched Reason = "NamespaceNotWatched"
	// InvalidConfiguration: the object is selected but cannot be turned into valid
	// configuration; the message says why.
	InvalidConfiguration Reason = "InvalidConfiguration"
)

// Verdict is the outcome for one object considered by one Prometheus.
type Verdict struct {
	Kind      string
	Namespace string
	Name      string
	// Generation is the object's metadata.generation when it was judged.
	Generation int64
	Reason     Reason
	Message    string
}

// Used reports whether the object ends up in the configuration.
func (v Verdict) Used() bool { return v.Reason == Accepted }

// MarkInvalid turns the accepted verdicts of the objects that problems names (by
// "namespace/name") into InvalidConfiguration with the problem as message.
func MarkInvalid(verdicts []Verdict, problems map[string]string) {
	for i := range verdicts {
		v := &verdicts[i]
		if msg, bad := problems[v.Namespace+"/"+v.Name]; bad && v.Used() {
			v.Reason, v.Message = InvalidConfiguration, msg
		}
	}
}

// Key returns "Kind namespace/name".
func (v Verdict) Key() string { return v.Kind + " " + v.Namespace + "/" + v.Name }

// Binds reports whether the object was selected, used or rejected as invalid: such an
// object gets a status binding for the Prometheus that judged it.
func (v Verdict) Binds() bool { return v.Reason == Accepted || v.Reason == InvalidConfiguration }
