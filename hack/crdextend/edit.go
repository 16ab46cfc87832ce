package main

import (
	"bytes"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// checkCRD decodes crd strictly as a CustomResourceDefinition.
func checkCRD(crd []byte) error {
	var c apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(crd, &c); err != nil {
		return err
	}
	if c.Kind != "CustomResourceDefinition" || len(c.Spec.Versions) == 0 {
		return fmt.Errorf("kind %q with %d versions", c.Kind, len(c.Spec.Versions))
	}
	return nil
}

// lines splits a file into lines without their newlines (the last line is empty when
// the file ends with a newline).
func lines(b []byte) []string { return strings.Split(string(b), "\n") }

func join(ls []string) []byte { return []byte(strings.Join(ls, "\n")) }

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// addEnumValue adds value to every enum list that holds after and not value yet: the line
// "- <value>" goes right after "- <after>", at its indentation. It fails when no enum
// holds after.
func addEnumValue(crd []byte, after, value string) ([]byte, error) {
	ls := lines(crd)
	var out []string
	found := 0
	for i := 0; i < len(ls); i++ {
		out = append(out, ls[i])
		if strings.TrimSpace(ls[i]) != "- "+after || i == 0 {
			continue
		}
		// Only items of an enum: walk up the list to its key.
		ind := indentOf(ls[i])
		k := i - 1
		for k >= 0 && indentOf(ls[k]) == ind && strings.HasPrefix(strings.TrimSpace(ls[k]), "- ") {
			k--
		}
		if k < 0 || strings.TrimSpace(ls[k]) != "enum:" {
			continue
		}
		found++
		present := false
		for j := i + 1; j < len(ls) && indentOf(ls[j]) == ind && strings.HasPrefix(strings.TrimSpace(ls[j]), "- "); j++ {
			if strings.TrimSpace(ls[j]) == "- "+value {
				present = true
			}
		}
		if !present {
			out = append(out, strings.Repeat(" ", ind)+"- "+value)
		}
	}
	if found == 0 {
		return nil, fmt.Errorf("no enum holds %q", after)
	}
	return join(out), nil
}

// column is one additionalPrinterColumns entry.
type column struct {
	Name, Type, JSONPath, Description string
	Priority                          int
}

// yamlLines is the entry as controller-gen writes it (keys sorted), as a list item at
// indentation ind.
func (c column) yamlLines(ind int) []string {
	pad := strings.Repeat(" ", ind)
	var out []string
	first := true
	add := func(k, v string) {
		if v == "" {
			return
		}
		p := pad + "  "
		if first {
			p, first = pad+"- ", false
		}
		out = append(out, p+k+": "+v)
	}
	add("description", c.Description)
	add("jsonPath", quoteIfNeeded(c.JSONPath))
	add("name", c.Name)
	if c.Priority != 0 {
		add("priority", fmt.Sprint(c.Priority))
	}
	add("type", c.Type)
	return out
}

// quoteIfNeeded quotes a JSONPath the way sigs.k8s.io/yaml would.
func quoteIfNeeded(s string) string {
	b, err := yaml.Marshal(s)
	if err != nil {
		return s
	}
	return strings.TrimSuffix(string(bytes.TrimSpace(b)), "\n")
}

// addPrinterColumn adds col at the end of the additionalPrinterColumns of every version
// (creating the list where there is none) unless a column of that name is there.
func addPrinterColumn(crd []byte, col column) ([]byte, error) {
	ls := lines(crd)
	start := -1
	for i, l := range ls {
		if l == "  versions:" {
			start = i
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no spec.versions")
	}
	var out []string
	out = append(out, ls[:start+1]...)
	versions := 0
	for i := start + 1; i < len(ls); i++ {
		l := ls[i]
		if !strings.HasPrefix(l, "  - ") {
			out = append(out, l)
			continue
		}
		versions++
		// A version item: "  - additionalPrinterColumns:" or "  - name: ..." (keys sorted).
		if strings.TrimSpace(l) == "- additionalPrinterColumns:" {
			out = append(out, l)
			j := i + 1
			has := false
			for ; j < len(ls) && (strings.HasPrefix(ls[j], "    - ") || strings.HasPrefix(ls[j], "      ")); j++ {
				if strings.TrimSpace(ls[j]) == "name: "+col.Name || strings.TrimSpace(ls[j]) == "- name: "+col.Name {
					has = true
				}
				out = append(out, ls[j])
			}
			if !has {
				out = append(out, col.yamlLines(4)...)
			}
			i = j - 1
			continue
		}
		out = append(out, "  - additionalPrinterColumns:")
		out = append(out, col.yamlLines(4)...)
		out = append(out, "    "+strings.TrimPrefix(l, "  - "))
	}
	if versions == 0 {
		return nil, fmt.Errorf("no version in spec.versions")
	}
	return join(out), nil
}
