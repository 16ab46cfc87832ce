package confdiff

import (
	"strings"
)

// monitorJobPrefixes start the names of the jobs generated from monitors:
// "serviceMonitor/<ns>/<name>/<i>", "podMonitor/...", "probe/<ns>/<name>",
// "scrapeConfig/<ns>/<name>...".
var monitorJobPrefixes = []string{"serviceMonitor/", "podMonitor/", "probe/", "scrapeConfig/"}

// Causes names the objects that caused a hunk of f: the monitor of each scrape job it
// changes (its job name, "serviceMonitor/<ns>/<name>/<i>"), the PrometheusRule and group
// of a rule file, the AlertmanagerConfig of a receiver or route, and otherwise the
// instance's own spec (or its config Secret) and the part of the file.
func Causes(in InstanceDiff, f FileDiff, h Hunk) []string {
	var out []string
	seen := map[string]bool{}
	add := func(c string) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	self := in.Kind + " " + in.Namespace + "/" + in.Name
	// The line naming a keyed list ("scrape_configs:") is its elements' when they are in
	// the hunk too.
	elements := map[string]bool{}
	for _, o := range h.Owners {
		if o.Key != "" {
			elements[o.Section] = true
		}
	}
	for _, o := range h.Owners {
		if o.Key == "" && elements[o.Section] {
			continue
		}
		switch {
		case f.Kind == PrometheusConfig && o.Section == "scrape_configs":
			if monitorJob(o.Key) {
				add(o.Key)
			} else {
				add("job " + o.Key + " (" + self + ": additionalScrapeConfigs or spec)")
			}
		case f.Kind == RuleFile && f.Source != "":
			if o.Section == "groups" && o.Key != "" {
				add(f.Source + " group " + o.Key)
			} else {
				add(f.Source)
			}
		case f.Kind == AlertmanagerConfig && o.Key != "":
			add(amOwner(self, o.Section, o.Key))
		case f.Kind == AlertmanagerConfig:
			// A route names its receivers: "<ns>/<name>/<receiver>" come from
			// AlertmanagerConfigs.
			found := false
			for _, l := range h.Lines {
				if l.Op == ' ' {
					continue
				}
				if _, v, ok := strings.Cut(l.Text, "receiver: "); ok {
					if ac := amConfigOf(strings.Trim(v, `"' `)); ac != "" {
						add(ac)
						found = true
					}
				}
			}
			if !found {
				add(self + " " + sectionName(o.Section))
			}
		default:
			add(self + " " + sectionName(o.Section))
		}
	}
	return out
}

func monitorJob(job string) bool {
	for _, p := range monitorJobPrefixes {
		if strings.HasPrefix(job, p) {
			return true
		}
	}
	return false
}

// amOwner names the source of an Alertmanager receiver or time interval.
func amOwner(self, section, key string) string {
	if ac := amConfigOf(key); ac != "" {
		return ac + " (" + section + " " + key + ")"
	}
	return self + " config Secret or spec (" + section + " " + key + ")"
}

// amConfigOf is "AlertmanagerConfig <ns>/<name>" for a name the operator prefixed with
// the AlertmanagerConfig's namespace and name, or "".
func amConfigOf(name string) string {
	parts := strings.SplitN(name, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return ""
	}
	return "AlertmanagerConfig " + parts[0] + "/" + parts[1]
}

func sectionName(s string) string {
	if s == "" {
		return "(whole file)"
	}
	return "(" + s + ")"
}
