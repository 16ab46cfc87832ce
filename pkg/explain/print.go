package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Style colours the text output (zero: plain).
type Style struct{ Good, Bad, Dim, Reset string }

// Colour is the style of a terminal.
var Colour = Style{Good: "\x1b[32m", Bad: "\x1b[31m", Dim: "\x1b[2m", Reset: "\x1b[0m"}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report for people, the chain in order, one link a line.
func WriteText(w io.Writer, r *Report, st Style) {
	mark := func(ok bool) string {
		if ok {
			return st.Good + "ok  " + st.Reset
		}
		return st.Bad + "FAIL" + st.Reset
	}
	fmt.Fprintf(w, "%s\n", r.Subject)
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s %s\n", mark(false), p)
	}
	for _, n := range r.NearMisses {
		fmt.Fprintf(w, "  %snear miss%s: %s %s/%s %s\n", st.Dim, st.Reset, n.Kind, n.Namespace, n.Name, n.Message)
	}
	for _, inst := range r.Instances {
		fmt.Fprintf(w, "\n%s %s/%s\n", inst.Kind, inst.Namespace, inst.Name)
		fmt.Fprintf(w, "  %s instance: %s\n", mark(inst.Managed.OK), inst.Managed.Message)
		if inst.Error != "" {
			fmt.Fprintf(w, "  %s %s\n", mark(false), inst.Error)
		}
		for _, m := range inst.Monitors {
			if len(inst.Monitors) > 1 || r.Subject.Kind == KindService || r.Subject.Kind == KindPod {
				fmt.Fprintf(w, "  %s %s/%s\n", m.Kind, m.Namespace, m.Name)
			}
			fmt.Fprintf(w, "  %s namespace: %s\n", mark(m.NamespaceSelection.OK), m.NamespaceSelection.Message)
			if !m.NamespaceSelection.OK {
				continue
			}
			fmt.Fprintf(w, "  %s selector: %s\n", mark(m.Selection.OK), m.Selection.Message)
			if !m.Selection.OK {
				continue
			}
			fmt.Fprintf(w, "  %s %s: %s\n", mark(m.Verdict.OK), strings.ToLower(m.Kind), m.Verdict.Message)
			for _, ep := range m.Endpoints {
				writeEndpoint(w, ep, st, mark)
			}
		}
	}
	fmt.Fprintln(w)
	switch {
	case r.OK:
		fmt.Fprintf(w, "%sresult: every endpoint has a kept target%s\n", st.Good, st.Reset)
	case r.Unknown:
		fmt.Fprintf(w, "%sresult: unknown: the files cannot say whether some endpoint has a target (see UNKNOWN above); every other endpoint has a kept target%s\n", st.Dim, st.Reset)
	default:
		fmt.Fprintf(w, "%sresult: the chain breaks (see FAIL above)%s\n", st.Bad, st.Reset)
	}
}

func writeEndpoint(w io.Writer, ep Endpoint, st Style, mark func(bool) string) {
	port := ""
	if ep.Port != "" {
		port = " (" + ep.Port + ")"
	}
	m := mark(ep.Error == "" && ep.Kept > 0)
	if ep.Undetermined() {
		m = st.Dim + "UNKNOWN" + st.Reset
	}
	fmt.Fprintf(w, "  %s endpoint %d%s: job %s, discovery %s: %d target(s), %d kept\n", m, ep.Index, port, ep.Job, ep.Discovery, len(ep.Targets), ep.Kept)
	if ep.Error != "" {
		fmt.Fprintf(w, "      %s\n", ep.Error)
	}
	for _, u := range ep.Unknown {
		fmt.Fprintf(w, "      %sunknown%s %s\n", st.Dim, st.Reset, u)
	}
	// Addresses of other objects the selector rules drop, one line per rule.
	others := map[int][]string{}
	var rules []int
	for _, t := range ep.Targets {
		if t.Drop != nil && t.Drop.Mismatch {
			if others[t.Drop.Rule] == nil {
				rules = append(rules, t.Drop.Rule)
			}
			others[t.Drop.Rule] = append(others[t.Drop.Rule], otherName(t))
		}
	}
	for _, t := range ep.Targets {
		if t.Drop != nil && t.Drop.Mismatch {
			continue
		}
		obj := targetObject(t)
		switch {
		case t.Kept:
			extra := ""
			if t.Shard != nil {
				extra += fmt.Sprintf(", shard %d", *t.Shard)
			}
			if t.NotReady {
				extra += ", not ready (scraped anyway)"
			}
			fmt.Fprintf(w, "      %skept%s %s%s%s %s\n", st.Good, st.Reset, t.URL, obj, extra, labelString(t.Labels))
		case t.Error != "":
			fmt.Fprintf(w, "      %srefused%s %s%s: %s\n", st.Bad, st.Reset, t.Address, obj, t.Error)
		default:
			fmt.Fprintf(w, "      %sdropped%s %s%s by relabel_configs[%d]: %s\n", st.Bad, st.Reset, t.Address, obj, t.Drop.Rule, t.Drop.Cause)
		}
	}
	sort.Ints(rules)
	for _, r := range rules {
		names := uniq(others[r])
		fmt.Fprintf(w, "      %sdropped%s %d address(es) of %s by relabel_configs[%d], the label selector: %s\n", st.Dim, st.Reset, len(others[r]), plural(len(names)), r, strings.Join(names, ", "))
	}
}

// otherName names the object of a target a selector rule dropped, with the value seen.
func otherName(t Target) string {
	var v []string
	for k, val := range t.Drop.Saw {
		if strings.Contains(k, "_labelpresent_") {
			continue
		}
		v = append(v, fmt.Sprintf("%s=%q", k[strings.LastIndex(k, "_label_")+len("_label_"):], val))
	}
	sort.Strings(v)
	name := t.Service
	if name == "" {
		name = t.Pod
	}
	return name + " (" + strings.Join(v, ",") + ")"
}

func plural(n int) string {
	if n == 1 {
		return "another object"
	}
	return fmt.Sprintf("%d other objects", n)
}

func uniq(s []string) []string {
	sort.Strings(s)
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func targetObject(t Target) string {
	var parts []string
	if t.Service != "" {
		parts = append(parts, "service "+t.Service)
	}
	if t.Pod != "" {
		parts = append(parts, "pod "+t.Pod)
	}
	if t.PortName != "" {
		parts = append(parts, "port "+t.PortName)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func labelString(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%q", k, l[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
