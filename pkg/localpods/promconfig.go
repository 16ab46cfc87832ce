package localpods

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// isPrometheusConfig tells whether a projected file is a Prometheus configuration the
// runner must rewrite: the operator's config Secret key, plain or gzipped.
func isPrometheusConfig(name string) bool {
	return name == "prometheus.yaml" || name == "prometheus.yaml.gz"
}

// configRewrite is what a Prometheus configuration needs to run outside its pod.
type configRewrite struct {
	paths paths
	// kubeconfig is given to every kubernetes_sd_configs entry without an api_server or
	// kubeconfig_file (in-cluster discovery reads a token from a fixed path).
	kubeconfig string
	// addresses maps discovered addresses (host:port) to the local ones that stand for
	// them, as relabelings appended to every scrape job and Alertmanager set.
	addresses map[string]string
}

// rewriteFile rewrites a configuration file's content, gunzipping and gzipping again
// when name ends in .gz.
func (r configRewrite) rewriteFile(name string, data []byte) ([]byte, error) {
	if !strings.HasSuffix(name, ".gz") {
		return r.rewrite(data)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out, err := r.rewrite(plain)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(out); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// rewrite rewrites a plain configuration: mount paths in every string, a kubeconfig for
// Kubernetes discovery, and the address relabelings.
func (r configRewrite) rewrite(data []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return data, nil
	}
	r.walk(doc.Content[0])
	root := doc.Content[0]
	if root.Kind == yaml.MappingNode && len(r.addresses) > 0 {
		if jobs := mapValue(root, "scrape_configs"); jobs != nil && jobs.Kind == yaml.SequenceNode {
			for _, job := range jobs.Content {
				r.appendRelabelings(job)
			}
		}
		if alerting := mapValue(root, "alerting"); alerting != nil && alerting.Kind == yaml.MappingNode {
			if ams := mapValue(alerting, "alertmanagers"); ams != nil && ams.Kind == yaml.SequenceNode {
				for _, am := range ams.Content {
					r.appendRelabelings(am)
				}
			}
		}
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// walk rewrites mount paths in string scalars and adds the kubeconfig to Kubernetes
// discovery.
func (r configRewrite) walk(n *yaml.Node) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" || n.Tag == "" {
			n.Value = r.paths.rewrite(n.Value)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "kubernetes_sd_configs" && v.Kind == yaml.SequenceNode && r.kubeconfig != "" {
				for _, sd := range v.Content {
					if sd.Kind == yaml.MappingNode && mapValue(sd, "api_server") == nil && mapValue(sd, "kubeconfig_file") == nil {
						sd.Content = append(sd.Content, scalar("kubeconfig_file"), scalar(r.kubeconfig))
					}
				}
			}
			r.walk(v)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			r.walk(c)
		}
	}
}

// appendRelabelings adds, after a job's own relabelings, one that keeps the discovered
// address as the instance label (Prometheus would otherwise take the rewritten one) and
// one per mapped address that points __address__ at its local stand-in.
func (r configRewrite) appendRelabelings(job *yaml.Node) {
	if job.Kind != yaml.MappingNode {
		return
	}
	rc := mapValue(job, "relabel_configs")
	if rc == nil {
		rc = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		job.Content = append(job.Content, scalar("relabel_configs"), rc)
	}
	if rc.Kind != yaml.SequenceNode {
		return
	}
	rc.Content = append(rc.Content, relabeling(
		[]string{"instance", "__address__"}, ";(.+)", "instance", "${1}"))
	from := make([]string, 0, len(r.addresses))
	for a := range r.addresses {
		from = append(from, a)
	}
	sort.Strings(from)
	for _, a := range from {
		rc.Content = append(rc.Content, relabeling(
			[]string{"__address__"}, regexp.QuoteMeta(a), "__address__", r.addresses[a]))
	}
}

func relabeling(sources []string, regex, target, replacement string) *yaml.Node {
	src := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, s := range sources {
		src.Content = append(src.Content, scalar(s))
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		scalar("source_labels"), src,
		scalar("separator"), scalar(";"),
		scalar("regex"), scalar(regex),
		scalar("target_label"), scalar(target),
		scalar("replacement"), scalar(replacement),
		scalar("action"), scalar("replace"),
	}}
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

// mapValue is the value of key in a mapping node, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
