package lint

import (
	"os"

	"github.com/lookout-operator/lookout/pkg/clusterread"
	"github.com/lookout-operator/lookout/pkg/manifest"
	"github.com/lookout-operator/lookout/pkg/render"
)

// Options choose what a run checks.
type Options struct {
	// Enable, when not empty, runs only these checks; Disable switches checks off.
	Enable, Disable []string
	// DefaultNamespace is the namespace of objects that name none ("default" when empty).
	DefaultNamespace string
	// Live, when set, is live mode: the documents are laid over the cluster's objects.
	Live *Live
}

// Result is what a run found.
type Result struct {
	// Checks are the checks that ran, sorted by name.
	Checks []*Check
	// Findings are sorted by file, line, object and check.
	Findings []Finding
	// Suppressed counts the findings a file comment or an annotation switched off.
	Suppressed int
	// Objects counts the documents read.
	Objects int
	// ClusterOnly counts, in live mode with files, the findings on objects of the
	// cluster only, which are not reported.
	ClusterOnly int
	// Notes say what live mode could not read or measure.
	Notes []string
}

// Worst returns the highest severity among the findings, and false when there are none.
func (r *Result) Worst() (Severity, bool) {
	worst, any := Info, false
	for _, f := range r.Findings {
		worst, any = max(worst, f.Severity), true
	}
	return worst, any
}

// LintPaths reads the manifest files and directories of paths and lints them. Errors
// are the files' (unreadable, not YAML, unknown fields) or the options'.
func LintPaths(paths []string, opts Options) (*Result, error) {
	docs, err := manifest.ReadPaths(paths...)
	if err != nil {
		return nil, err
	}
	files := map[string]Disabled{}
	for _, d := range docs {
		if _, seen := files[d.File]; seen || d.File == "<stdin>" {
			continue
		}
		data, err := os.ReadFile(d.File)
		if err != nil {
			return nil, err
		}
		files[d.File] = FileDisabled(data)
	}
	return Lint(docs, files, opts)
}

// Lint runs the checks of opts over documents read by pkg/manifest; fileDisabled holds
// the checks each file's comments switch off (by manifest.Object.File).
func Lint(docs []manifest.Object, fileDisabled map[string]Disabled, opts Options) (*Result, error) {
	checks, err := selectChecks(opts.Enable, opts.Disable)
	if err != nil {
		return nil, err
	}
	ns := opts.DefaultNamespace
	if ns == "" {
		ns = "default"
	}
	files := len(docs) > 0
	if opts.Live != nil {
		docs = clusterread.Overlay(opts.Live.Cluster, docs, ns)
	}
	objs, err := render.FromDocuments(ns, docs)
	if err != nil {
		return nil, err
	}
	in, err := NewInputs(objs)
	if err != nil {
		return nil, err
	}
	where := map[string]manifest.Object{}
	for _, d := range docs {
		where[key(d.GetKind(), d.GetNamespace(), d.GetName())] = d
	}
	res := &Result{Checks: checks, Objects: len(docs)}
	if opts.Live != nil {
		res.Notes = append(res.Notes, opts.Live.Notes...)
		if err := in.goLive(opts.Live, checks, res); err != nil {
			return nil, err
		}
	}
	for _, c := range checks {
		for _, f := range c.Run(in) {
			f.Check = c.Name
			if !f.own {
				f.Severity = c.Severity
			}
			d, ok := where[key(f.Kind, f.Namespace, f.Name)]
			if opts.Live != nil && files && (!ok || d.Source == clusterread.Source) {
				res.ClusterOnly++
				continue
			}
			if ok {
				f.File, f.Line = d.File, d.Line
				if fileDisabled[d.File].Has(c.Name) || annotationDisabled(d.GetAnnotations()).Has(c.Name) {
					res.Suppressed++
					continue
				}
			}
			res.Findings = append(res.Findings, f)
		}
	}
	sortFindings(res.Findings)
	return res, nil
}
