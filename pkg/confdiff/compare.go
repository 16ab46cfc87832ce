package confdiff

import (
	"bytes"
	"fmt"
	"sort"
)

// FileKind says what a generated file is, and so which of its lists are keyed.
type FileKind int

// The kinds of generated files.
const (
	PrometheusConfig FileKind = iota
	RuleFile
	AlertmanagerConfig
)

// Instance is what the operator generates for one Prometheus, PrometheusAgent,
// Alertmanager or ThanosRuler.
type Instance struct {
	Kind, Namespace, Name string
	Files                 []File
}

// ID names the instance: "Kind namespace/name".
func (in Instance) ID() string { return in.Kind + " " + in.Namespace + "/" + in.Name }

// File is one generated file.
type File struct {
	// Path is the file's name in the diff ("monitoring/main/prometheus.yaml").
	Path string
	Kind FileKind
	// Source names the object the whole file comes from ("PrometheusRule ns/name"), or
	// is empty when each part has its own (scrape jobs, receivers).
	Source string
	Data   []byte
}

// Status says whether an instance or file is only in the old tree, only in the new one,
// or in both and different.
type Status string

// The statuses.
const (
	Added   Status = "added"
	Removed Status = "removed"
	Changed Status = "changed"
)

// Result is every difference between two trees.
type Result struct {
	Instances []InstanceDiff
}

// Empty reports whether the trees generate the same configuration.
func (r *Result) Empty() bool { return len(r.Instances) == 0 }

// InstanceDiff is the difference for one instance.
type InstanceDiff struct {
	Kind, Namespace, Name string
	Status                Status
	Files                 []FileDiff
}

// FileDiff is the difference for one file: its hunks and the keyed elements (jobs, rule
// groups, receivers) added, removed or changed.
type FileDiff struct {
	Path   string
	Kind   FileKind
	Source string
	Status Status
	Hunks  []Hunk
	Items  []ItemChange
}

// ItemChange is one element of a keyed list added, removed or changed.
type ItemChange struct {
	Owner  Owner
	Status Status
}

// Compare compares the files of old and new instance by instance (matched by kind,
// namespace and name) and file by file (matched by path). Files that are equal as data
// are not reported. A file that does not parse as YAML is the error.
func Compare(old, new []Instance) (*Result, error) {
	byID := func(ins []Instance) map[string]Instance {
		m := make(map[string]Instance, len(ins))
		for _, in := range ins {
			m[in.ID()] = in
		}
		return m
	}
	o, n := byID(old), byID(new)
	ids := make([]string, 0, len(o)+len(n))
	for id := range o {
		ids = append(ids, id)
	}
	for id := range n {
		if _, ok := o[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return instanceLess(pick(o, n, ids[i]), pick(o, n, ids[j])) })
	res := &Result{}
	for _, id := range ids {
		oi, inOld := o[id]
		ni, inNew := n[id]
		d := InstanceDiff{Status: Changed}
		switch {
		case !inOld:
			d.Status = Added
		case !inNew:
			d.Status = Removed
		}
		in := pick(o, n, id)
		d.Kind, d.Namespace, d.Name = in.Kind, in.Namespace, in.Name
		files, err := compareFiles(oi.Files, ni.Files)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		d.Files = files
		if len(files) > 0 || d.Status != Changed {
			res.Instances = append(res.Instances, d)
		}
	}
	return res, nil
}

func pick(o, n map[string]Instance, id string) Instance {
	if in, ok := n[id]; ok {
		return in
	}
	return o[id]
}

// instanceLess orders instances by namespace, name and kind.
func instanceLess(a, b Instance) bool {
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return a.Kind < b.Kind
}

// compareFiles compares two instances' files by path, in path order.
func compareFiles(old, new []File) ([]FileDiff, error) {
	o, n := map[string]File{}, map[string]File{}
	var paths []string
	for _, f := range old {
		o[f.Path] = f
		paths = append(paths, f.Path)
	}
	for _, f := range new {
		if _, ok := o[f.Path]; !ok {
			paths = append(paths, f.Path)
		}
		n[f.Path] = f
	}
	sort.Strings(paths)
	var out []FileDiff
	for _, p := range paths {
		of, inOld := o[p]
		nf, inNew := n[p]
		if inOld && inNew && bytes.Equal(of.Data, nf.Data) {
			continue // the same bytes are the same data
		}
		f := nf
		if !inNew {
			f = of
		}
		d, err := compareFile(f, of.Data, nf.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		switch {
		case !inOld:
			d.Status = Added
		case !inNew:
			d.Status = Removed
		}
		if len(d.Hunks) > 0 || d.Status != Changed {
			out = append(out, d)
		}
	}
	return out, nil
}

// compareFile compares one file's old and new data as data.
func compareFile(f File, old, new []byte) (FileDiff, error) {
	d := FileDiff{Path: f.Path, Kind: f.Kind, Source: f.Source, Status: Changed}
	oc, err := canonicalize(f.Kind, old)
	if err != nil {
		return d, fmt.Errorf("old: %w", err)
	}
	nc, err := canonicalize(f.Kind, new)
	if err != nil {
		return d, fmt.Errorf("new: %w", err)
	}
	d.Hunks = hunks(oc, nc, contextLines)
	d.Items = itemChanges(oc.items, nc.items)
	return d, nil
}

// itemChanges lists the keyed elements added, removed or changed, in owner order.
func itemChanges(old, new map[Owner]string) []ItemChange {
	var out []ItemChange
	for o, text := range old {
		switch nt, ok := new[o]; {
		case !ok:
			out = append(out, ItemChange{o, Removed})
		case nt != text:
			out = append(out, ItemChange{o, Changed})
		}
	}
	for o := range new {
		if _, ok := old[o]; !ok {
			out = append(out, ItemChange{o, Added})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Owner.Section != out[j].Owner.Section {
			return out[i].Owner.Section < out[j].Owner.Section
		}
		return out[i].Owner.Key < out[j].Owner.Key
	})
	return out
}
