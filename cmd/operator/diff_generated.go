package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/lookout-operator/lookout/pkg/confdiff"
	"github.com/lookout-operator/lookout/pkg/render"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// generated renders every Prometheus, PrometheusAgent, Alertmanager and ThanosRuler of
// objs (the tree called side) with pkg/render and returns the files each would get: its
// prometheus.yaml or alertmanager.yaml and its rule files, named after their
// PrometheusRules (not after the file names, which carry the object's UID). Monitors
// the operator would reject are warnings on w; an instance that cannot be rendered is
// the error.
func generated(objs *render.Objects, opts render.Options, side string, w io.Writer) ([]confdiff.Instance, error) {
	ruleOf := map[string]string{}
	for _, r := range objs.PrometheusRules {
		ruleOf[rules.FileName(r)] = r.Namespace + "/" + r.Name
	}
	ruleFiles := func(ns, name string, files map[string]string) []confdiff.File {
		var out []confdiff.File
		for file, data := range files {
			f := confdiff.File{Path: ns + "/" + name + "/rules/" + file, Kind: confdiff.RuleFile, Data: []byte(data)}
			if r, ok := ruleOf[file]; ok {
				f.Path, f.Source = ns+"/"+name+"/rules/"+r+".yaml", "PrometheusRule "+r
			}
			out = append(out, f)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return out
	}
	warn := func(kind, ns, name string, vs []selection.Verdict) {
		for _, v := range vs {
			if v.Reason == selection.InvalidConfiguration {
				fmt.Fprintf(w, "warning: %s: %s %s/%s: %s %s/%s rejected (left out): %s\n", side, kind, ns, name, v.Kind, v.Namespace, v.Name, v.Message)
			}
		}
	}
	var out []confdiff.Instance
	for _, renderKind := range []func(*render.Objects, render.Options) ([]render.Output, error){render.Render, render.RenderAgents} {
		outs, err := renderKind(objs, opts)
		if err != nil {
			return nil, err
		}
		for _, o := range outs {
			p := o.Prometheus
			in := confdiff.Instance{Kind: p.Kind(), Namespace: p.Namespace, Name: p.Name}
			if o.Err != nil {
				return nil, fmt.Errorf("%s: %s: %w", side, in.ID(), o.Err)
			}
			warn(in.Kind, in.Namespace, in.Name, o.Verdicts)
			in.Files = append(in.Files, confdiff.File{Path: p.Namespace + "/" + p.Name + "/prometheus.yaml", Kind: confdiff.PrometheusConfig, Data: o.Result.Config})
			files := map[string]string{}
			for f, data := range o.RuleFiles {
				files[f] = string(data)
			}
			in.Files = append(in.Files, ruleFiles(p.Namespace, p.Name, files)...)
			out = append(out, in)
		}
	}
	ams, err := render.RenderAlertmanagers(objs, opts)
	if err != nil {
		return nil, err
	}
	for _, o := range ams {
		a := o.Alertmanager
		in := confdiff.Instance{Kind: "Alertmanager", Namespace: a.Namespace, Name: a.Name}
		if o.Err != nil {
			return nil, fmt.Errorf("%s: %s: %w", side, in.ID(), o.Err)
		}
		warn(in.Kind, a.Namespace, a.Name, o.Verdicts)
		in.Files = []confdiff.File{{Path: a.Namespace + "/" + a.Name + "/alertmanager.yaml", Kind: confdiff.AlertmanagerConfig, Data: o.Config}}
		out = append(out, in)
	}
	trs, err := render.RenderThanosRulers(objs, opts)
	if err != nil {
		return nil, err
	}
	for _, o := range trs {
		t := o.ThanosRuler
		in := confdiff.Instance{Kind: "ThanosRuler", Namespace: t.Namespace, Name: t.Name}
		if o.Err != nil {
			return nil, fmt.Errorf("%s: %s: %w", side, in.ID(), o.Err)
		}
		warn(in.Kind, t.Namespace, t.Name, o.Verdicts)
		files := map[string]string{}
		for _, cm := range o.RuleConfigMaps {
			for f, data := range cm {
				files[f] = data
			}
		}
		in.Files = ruleFiles(t.Namespace, t.Name, files)
		out = append(out, in)
	}
	return out, nil
}
