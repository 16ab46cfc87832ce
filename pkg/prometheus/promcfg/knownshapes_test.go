package promcfg

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
)

// k8sJob is a job as the generator writes a ServiceMonitor's, with extra keys at the end,
// then a selector rule whose regex is regex.
func k8sJob(name string, namespaces []string, extra ...KV) []byte {
	return k8sJobRegex(name, namespaces, "(app);true", extra...)
}

func k8sJobRegex(name string, namespaces []string, regex string, extra ...KV) []byte {
	sd := M{{"role", "endpoints"}}
	if namespaces != nil {
		sd = append(sd, KV{"namespaces", M{{"names", namespaces}}})
	}
	m := M{{"job_name", name}, {"kubernetes_sd_configs", []M{sd}}, {"scrape_interval", "30s"}}
	m = append(m, extra...)
	m = append(m, KV{"relabel_configs", []M{
		{{"source_labels", []string{"job"}}, {"target_label", "__tmp_job"}},
		{{"source_labels", []string{"__meta_kubernetes_service_label_app"}}, {"regex", regex}, {"action", "keep"}},
	}})
	return EncodeListItem(m)
}

// TestJobShape: jobs differing only in their name and their discovery's namespace names
// have one shape; any other difference, a name or namespace that is not a plain token, or
// another global section makes another.
func TestJobShape(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	c := newFileCheck(newLoader(), nil, false, global)
	shape := func(job []byte) (shapeKey, string, bool) {
		t.Helper()
		return c.jobShape(job)
	}
	base, name, ok := shape(k8sJob("serviceMonitor/ns-a/web/0", []string{"ns-a"}))
	if !ok || name != "serviceMonitor/ns-a/web/0" {
		t.Fatalf("name %q, ok %v", name, ok)
	}
	if k, _, _ := shape(k8sJobRegex("serviceMonitor/other/api/1", []string{"other"}, "(api|web);true")); k != base {
		t.Error("another name, namespace and simple regex made another shape")
	}
	differ := map[string][]byte{
		"two namespaces":      k8sJob("j", []string{"a", "b"}),
		"no namespaces":       k8sJob("j", nil),
		"interval":            k8sJob("j", []string{"a"}, KV{"scrape_timeout", "40s"}),
		"regex with a class":  k8sJobRegex("j", []string{"a"}, "[a-z]+"),
		"default regex":       k8sJobRegex("j", []string{"a"}, "(.*)"),
		"quoted regex":        k8sJobRegex("j", []string{"a"}, "a: b"),
		"quoted namespace":    k8sJob("j", []string{"true "}),
		"null namespace":      k8sJob("j", []string{"null"}),
		"own namespace":       EncodeListItem(M{{"job_name", "j"}, {"kubernetes_sd_configs", []M{{{"role", "endpoints"}, {"namespaces", M{{"own_namespace", true}, {"names", []string{"a"}}}}}}}, {"scrape_interval", "30s"}, {"relabel_configs", []M{{{"source_labels", []string{"job"}}, {"target_label", "__tmp_job"}}}}}),
		"names of another sd": EncodeListItem(M{{"job_name", "j"}, {"consul_sd_configs", []M{{{"services", []string{"a"}}}}}}),
	}
	for what, job := range differ {
		if k, _, ok := shape(job); ok && k == base {
			t.Errorf("%s: same shape as the base job", what)
		}
	}
	if _, _, ok := shape(k8sJob("null", []string{"a"})); ok {
		t.Error("a job named null has a shape")
	}
	if _, _, ok := shape(k8sJob("a b", []string{"a"})); ok {
		t.Error("a job name that is not a token has a shape")
	}
	other := newFileCheck(c.loader, nil, false, Encode(M{{"global", M{{"scrape_interval", "1m"}}}}))
	if k, _, _ := other.jobShape(k8sJob("serviceMonitor/ns-a/web/0", []string{"ns-a"})); k == base {
		t.Error("another global section made the same shape")
	}
}

// TestShapeTokenAsYAML: where shapeToken says a scalar is a plain token, yaml.v2 reads it
// as itself into a job name and into a namespace name, for random scalars over its
// alphabet and the words YAML resolves to other types.
func TestShapeTokenAsYAML(t *testing.T) {
	const alphabet = "aZ09._/-:# '\"~!&*?|>%@`,[]{}"
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []string{"null", "Null", "NULL", "true", "False", "yes", "off", "y", "1", "0x10", "0o7", ".inf", "-.inf", ".NaN", "1e3", "1_000", "-1", "2024-01-02", "12:30", "a/b"}
	for range 20000 {
		b := make([]byte, 1+rng.IntN(8))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	tokens := 0
	for _, raw := range cases {
		if !shapeToken([]byte(raw)) {
			continue
		}
		tokens++
		var v struct {
			Name       string `yaml:"job_name"`
			Namespaces struct {
				Names []string `yaml:"names"`
			} `yaml:"namespaces"`
		}
		doc := "job_name: " + raw + "\nnamespaces:\n  names:\n  - " + raw + "\n"
		if err := yaml.UnmarshalStrict([]byte(doc), &v); err != nil || v.Name != raw || len(v.Namespaces.Names) != 1 || v.Namespaces.Names[0] != raw {
			t.Errorf("%q: yaml.v2 read %q and %q (%v)", raw, v.Name, v.Namespaces.Names, err)
		}
	}
	if tokens < 500 {
		t.Errorf("only %d tokens among the cases", tokens)
	}
}

// TestKnownShapesKeepVerdicts: batches of Kubernetes discovery jobs drawn from valid and
// invalid settings, under random names and namespaces, get the same verdict with the
// jobs of known shapes left out as loaded as written; and shapes are left out.
func TestKnownShapesKeepVerdicts(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	extras := [][]KV{
		nil,
		{{"scrape_timeout", "10s"}},
		{{"scrape_timeout", "40s"}}, // longer than the interval
		{{"metrics_path", "/m"}},
		{{"scheme", "gopher"}},      // invalid
		{{"sample_limit", 100}},     // valid
		{{"honor_labels", "maybe"}}, // not a bool
	}
	regexes := []string{"(a);true", "(b|c);true", "web", "(.*)", "[a-z]+", "(unclosed", "a)(b", "", "a: b"}
	words := []string{"ns", "a", "b-1", "true", "1e3", "0x10", "kube-system", "x.y", "null", "a b", "-a", "Null", ""}
	rng := rand.New(rand.NewPCG(7, 8))
	job := func(i int) ([]byte, string) {
		name := fmt.Sprintf("serviceMonitor/%s/m%d/0", words[rng.IntN(len(words))], i)
		if rng.IntN(10) == 0 {
			name = words[rng.IntN(len(words))] // perhaps null, empty or quoted
		}
		var ns []string
		for range rng.IntN(3) {
			ns = append(ns, words[rng.IntN(len(words))])
		}
		return k8sJobRegex(name, ns, regexes[rng.IntN(len(regexes))], extras[rng.IntN(len(extras))]...), name
	}
	c := newFileCheck(newLoader(), nil, false, global)
	accepted := sameVerdictsElided(t, c, global, 400, func(i int) (texts [][]byte, names [][]string) {
		seen := map[string]bool{}
		for k := range 1 + rng.IntN(4) {
			text, name := job(i*10 + k)
			if seen[name] {
				continue // the generator never writes one name twice (claimJobNames)
			}
			seen[name] = true
			texts, names = append(texts, text), append(names, []string{name})
		}
		return texts, names
	})
	if accepted < 40 || accepted > 360 {
		t.Errorf("%d of 400 batches accepted: the cases do not exercise both verdicts", accepted)
	}
	if c.loader.shapesLeftOut < 100 {
		t.Errorf("%d jobs left out by their shape: the cases do not exercise it", c.loader.shapesLeftOut)
	}
	t.Logf("%d of 400 batches accepted, %d jobs left out by their shape, %d loads", accepted, c.loader.shapesLeftOut, c.loader.loads)
	if !strings.Contains(string(k8sJob("a", []string{"b"})), "      - b\n") {
		t.Fatal("the test's jobs are not written as the generator writes them")
	}
}

// TestKnownShapeNameChecked: a job left out by its shape still has the name rendered:
// one written with another name is loaded, and refused as the load refuses it.
func TestKnownShapeNameChecked(t *testing.T) {
	global := Encode(M{{"global", M{{"scrape_interval", "30s"}}}})
	c := newFileCheck(newLoader(), nil, false, global)
	if err := c.jobs([][]byte{k8sJob("a", []string{"x"})}, [][]string{{"a"}}, true); err != nil {
		t.Fatal(err)
	}
	loads := c.loader.loads
	if err := c.jobs([][]byte{k8sJob("b", []string{"z"})}, [][]string{{"b"}}, true); err != nil || c.loader.loads != loads {
		t.Errorf("a job of a known shape: %v, %d loads (want %d)", err, c.loader.loads, loads)
	}
	if err := c.jobs([][]byte{k8sJob("c", []string{"z"})}, [][]string{{"other"}}, true); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("a job written under another name than rendered: %v", err)
	}
}
