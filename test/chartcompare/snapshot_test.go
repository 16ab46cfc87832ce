package chartcompare

import (
	"bytes"
	"compress/gzip"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// snapshot is what one operator generated for a case, as data: one entry per aspect
// compared, keyed "<Kind>/<namespace>/<name>" (and "objects" for the names, "rules/..."
// for a family of rule ConfigMaps taken together). Values are maps, lists and strings, so
// that go-cmp prints a readable diff.
type snapshot map[string]any

var rulefilesName = regexp.MustCompile(`^(.*-rulefiles)-[0-9]+$`)

// take turns the generated objects into a snapshot.
func take(g *generated) snapshot {
	s := snapshot{}
	var names []string
	add := func(kind, ns, name string) string {
		k := kind + "/" + ns + "/" + name
		names = append(names, k)
		return k
	}
	for _, o := range g.StatefulSets {
		k := add("StatefulSet", o.Namespace, o.Name)
		replicas := int32(1)
		if o.Spec.Replicas != nil {
			replicas = *o.Spec.Replicas
		}
		s[k] = map[string]any{
			"replicas":       int64(replicas),
			"serviceName":    o.Spec.ServiceName,
			"selector":       stringMap(o.Spec.Selector.MatchLabels),
			"initContainers": containers(o.Spec.Template.Spec.InitContainers),
			"containers":     containers(o.Spec.Template.Spec.Containers),
		}
	}
	for _, o := range g.Services {
		k := add("Service", o.Namespace, o.Name)
		var ports []any
		for _, p := range o.Spec.Ports {
			ports = append(ports, map[string]any{"name": p.Name, "port": int64(p.Port), "targetPort": p.TargetPort.String(), "protocol": string(p.Protocol)})
		}
		headless := o.Spec.ClusterIP == corev1.ClusterIPNone
		s[k] = map[string]any{"type": string(o.Spec.Type), "headless": headless, "selector": stringMap(o.Spec.Selector), "ports": ports}
	}
	for _, o := range g.Secrets {
		k := add("Secret", o.Namespace, o.Name)
		data := map[string]any{}
		for key, v := range o.Data {
			data[key] = decode(key, v)
		}
		s[k] = map[string]any{"type": string(o.Type), "data": data}
	}
	rules := map[string]map[string]any{}
	for _, o := range g.ConfigMaps {
		k := add("ConfigMap", o.Namespace, o.Name)
		data := map[string]any{}
		for key, v := range o.Data {
			data[key] = decode(key, []byte(v))
		}
		if m := rulefilesName.FindStringSubmatch(o.Name); m != nil {
			// Rule files are compared together, whatever ConfigMap each was packed in.
			rk := "rules/" + o.Namespace + "/" + m[1]
			if rules[rk] == nil {
				rules[rk] = map[string]any{}
			}
			for key, v := range data {
				rules[rk][key] = v
			}
			continue
		}
		s[k] = map[string]any{"data": data}
	}
	for k, v := range rules {
		s[k] = v
	}
	for _, o := range g.Roles {
		k := add("Role", o.Namespace, o.Name)
		s[k] = toData(o.Rules)
	}
	for _, o := range g.RoleBindings {
		k := add("RoleBinding", o.Namespace, o.Name)
		s[k] = map[string]any{"roleRef": toData(o.RoleRef), "subjects": toData(o.Subjects)}
	}
	for _, o := range g.Endpoints {
		k := add("Endpoints", o.Namespace, o.Name)
		var subsets []any
		for _, ss := range o.Subsets {
			var addrs, ports []any
			for _, a := range ss.Addresses {
				ref := ""
				if a.TargetRef != nil {
					ref = a.TargetRef.Kind + "/" + a.TargetRef.Name
				}
				addrs = append(addrs, map[string]any{"ip": a.IP, "targetRef": ref})
			}
			for _, p := range ss.Ports {
				ports = append(ports, map[string]any{"name": p.Name, "port": int64(p.Port)})
			}
			subsets = append(subsets, map[string]any{"addresses": addrs, "ports": ports})
		}
		s[k] = subsets
	}
	// EndpointSlices have generated names: compared per Service, by content.
	slicesBySvc := map[string][]any{}
	for _, o := range g.EndpointSlices {
		svc := "EndpointSlices/" + o.Namespace + "/" + o.Labels["kubernetes.io/service-name"]
		var eps, ports []any
		for _, e := range o.Endpoints {
			eps = append(eps, map[string]any{"addresses": toData(e.Addresses), "nodeName": toData(e.NodeName)})
		}
		for _, p := range o.Ports {
			ports = append(ports, toData(p))
		}
		slicesBySvc[svc] = append(slicesBySvc[svc], map[string]any{"addressType": string(o.AddressType), "endpoints": eps, "ports": ports})
	}
	for k, v := range slicesBySvc {
		s[k] = v
	}
	sort.Strings(names)
	s["objects"] = names
	return s
}

// containers keeps what the comparison looks at: name, image and arguments. Arguments
// are compared as a sorted list: the programs read their flags in any order.
func containers(cs []corev1.Container) []any {
	var out []any
	for _, c := range cs {
		args := slices.Clone(c.Args)
		sort.Strings(args)
		out = append(out, map[string]any{"name": c.Name, "image": c.Image, "command": strings.Join(c.Command, " "), "args": args})
	}
	return out
}

func stringMap(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// decode reads a generated value as data: gunzipped when the key ends in .gz, then as
// YAML when it is a map or a list (comments, key order and quoting do not count), else
// as the string it is.
func decode(key string, v []byte) any {
	if strings.HasSuffix(key, ".gz") {
		r, err := gzip.NewReader(bytes.NewReader(v))
		if err != nil {
			return unreadablePrefix + "not gzip: " + err.Error()
		}
		b, err := io.ReadAll(r)
		if err != nil {
			return unreadablePrefix + "bad gzip: " + err.Error()
		}
		v = b
	}
	var data any
	if err := yaml.Unmarshal(v, &data); err == nil {
		switch data.(type) {
		case map[string]any, []any:
			return data
		}
	}
	return string(v)
}

// toData turns a typed value into plain maps and lists through its JSON form.
func toData(v any) any {
	b, err := yaml.Marshal(v)
	if err != nil {
		return unreadablePrefix + "unmarshalable: " + err.Error()
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		return unreadablePrefix + "unreadable: " + err.Error()
	}
	return out
}
