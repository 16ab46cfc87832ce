package promcfg

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// The config-reloader expands every $(NAME) in the configuration with its own environment
// before Prometheus reads it (pkg/reloader). The Prometheus-level sections are written by
// the Prometheus's owner, who may use any variable. In what monitors contribute, tenants
// write the text, so only the variables the operator places there ($(POD_NAME),
// $(SHARD)) and the ones the owner declares for the reloader containers and shares
// (ShareableEnvAnnotation) may appear:
// anything else could copy the reloader's environment (a proxy URL with credentials, say)
// into a tenant's scrape request.

// reloaderEnvRef matches $(NAME), the references the config-reloader expands (the pattern
// of pkg/reloader; TestEnvRefsMatchReloader keeps them equal).
var reloaderEnvRef = regexp.MustCompile(`\$\(([A-Za-z0-9_]+)\)`)

// expandAsReloader replaces the references to the variables in env by their values, as
// the config-reloader does; references to other variables are left as they are.
func expandAsReloader(text []byte, env map[string]string) []byte {
	if !bytes.Contains(text, []byte("$(")) {
		return text
	}
	return reloaderEnvRef.ReplaceAllFunc(text, func(ref []byte) []byte {
		if v, ok := env[string(ref[2:len(ref)-1])]; ok {
			return []byte(v)
		}
		return ref
	})
}

// Names of the reloader containers in the pod, as pkg/workload names them; entries of
// spec.containers and spec.initContainers with these names patch them.
const (
	reloaderContainerName     = "config-reloader"
	reloaderInitContainerName = "init-config-reloader"
)

// ShareableEnvAnnotation, on a Prometheus or PrometheusAgent, names the variables of its
// config-reloader containers (comma-separated) that the owner shares with the monitors'
// authors, beyond $(POD_NAME), $(SHARD) and $(NODE_NAME), which the operator sets.
const ShareableEnvAnnotation = "lookout.dev/shareable-reloader-env"

// reloaderEnv returns the variables the config-reloader expands, each with the value the
// checks substitute for it (nil when it is not known in advance, as for a value from a
// Secret): those the operator sets and those the owner declares for the reloader
// containers.
func reloaderEnv(p *promserver.Server) map[string]*string {
	env := map[string]*string{
		"POD_NAME": strp(podPrefix(p) + p.Name + "-0"),
		"SHARD":    strp("0"),
	}
	if p.DaemonSetMode() {
		env["NODE_NAME"] = strp("node-0")
	}
	if zone := p.ZoneOfShard(0); zone != "" {
		env["TOPOLOGY_ZONE"] = strp(zone)
		env["INZONE_SHARD"] = strp("0")
	}
	declare := func(containers []corev1.Container, name string) {
		for _, c := range containers {
			if c.Name != name {
				continue
			}
			for _, e := range c.Env {
				if e.ValueFrom == nil {
					env[e.Name] = strp(e.Value)
				} else {
					env[e.Name] = nil
				}
			}
		}
	}
	declare(p.Spec.Containers, reloaderContainerName)
	declare(p.Spec.InitContainers, reloaderInitContainerName)
	return env
}

// tenantEnv returns the variables of env monitors may refer to: those the operator sets
// ($(POD_NAME), $(SHARD), $(NODE_NAME), $(TOPOLOGY_ZONE) and $(INZONE_SHARD)) and those the owner shares
// (ShareableEnvAnnotation). A variable the owner declares for the reloader without
// sharing it (a proxy URL with credentials, a token from a Secret) stays the owner's
// (issue 32, item 6).
func tenantEnv(p *promserver.Server, env map[string]*string) map[string]*string {
	shared := map[string]bool{"POD_NAME": true, "SHARD": true, "NODE_NAME": true, "TOPOLOGY_ZONE": true, "INZONE_SHARD": true}
	for _, n := range strings.Split(p.Annotations[ShareableEnvAnnotation], ",") {
		if n = strings.TrimSpace(n); n != "" {
			shared[n] = true
		}
	}
	out := map[string]*string{}
	for k, v := range env {
		if shared[k] {
			out[k] = v
		}
	}
	return out
}

// knownValues returns the variables of env whose value is known.
func knownValues(env map[string]*string) map[string]string {
	out := make(map[string]string, len(env))
	for k, v := range env {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}

// checkEnvRefs reports the first reference in a monitor's rendered jobs (text, as
// written) to a variable it may not use. The jobs locate the reference for the message;
// values read from Secrets (secrets) are described without their content.
func checkEnvRefs(text []byte, jobs []M, allowed map[string]*string, secrets map[string]bool) error {
	var bad []string
	for _, m := range reloaderEnvRef.FindAllSubmatch(text, -1) {
		if _, ok := allowed[string(m[1])]; !ok {
			bad = append(bad, string(m[1]))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	names := make([]string, 0, len(allowed))
	for n := range allowed {
		names = append(names, "$("+n+")")
	}
	sort.Strings(names)
	why := fmt.Sprintf("the config-reloader would replace it with a value from its own environment; monitors may refer only to %s (the owner shares more of the %s container's env entries with the %s annotation)",
		strings.Join(names, ", "), reloaderContainerName, ShareableEnvAnnotation)
	for _, j := range jobs {
		jobName, _ := j.Get("job_name")
		if f := findEnvRef(j, "", allowed); f != nil {
			if secrets[f.value] {
				return fmt.Errorf("job %v: %s, read from a Secret, refers to an environment variable as $(NAME): %s", jobName, f.path, why)
			}
			return fmt.Errorf("job %v: %s refers to $(%s): %s", jobName, f.path, f.name, why)
		}
	}
	return fmt.Errorf("the rendered jobs refer to $(%s): %s", bad[0], why)
}

// envRefAt is a disallowed reference found at path, in value.
type envRefAt struct {
	path, name, value string
}

// findEnvRef walks v (path is where it is) for a string, or a mapping key, with a
// reference to a variable not in allowed.
func findEnvRef(v any, path string, allowed map[string]*string) *envRefAt {
	at := func(s, where string) *envRefAt {
		for _, m := range reloaderEnvRef.FindAllStringSubmatch(s, -1) {
			if _, ok := allowed[m[1]]; !ok {
				return &envRefAt{path: where, name: m[1], value: s}
			}
		}
		return nil
	}
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	switch t := v.(type) {
	case string:
		return at(t, path)
	case []string:
		for i, s := range t {
			if f := at(s, path+"["+strconv.Itoa(i)+"]"); f != nil {
				return f
			}
		}
	case M:
		for _, kv := range t {
			if f := at(kv.K, join(kv.K)+" (the key)"); f != nil {
				return f
			}
			if f := findEnvRef(kv.V, join(kv.K), allowed); f != nil {
				return f
			}
		}
	case []M:
		for i, m := range t {
			if f := findEnvRef(m, path+"["+strconv.Itoa(i)+"]", allowed); f != nil {
				return f
			}
		}
	case []any:
		for i, x := range t {
			if f := findEnvRef(x, path+"["+strconv.Itoa(i)+"]", allowed); f != nil {
				return f
			}
		}
	}
	return nil
}
