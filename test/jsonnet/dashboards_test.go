package jsonnet

import (
	"slices"
	"testing"
)

// TestDashboards checks the dashboards: unique uids and titles, the required template
// variables, a unit, a description and the datasource variable on every panel, targets
// that only use defined variables, and a layout without overlaps.
func TestDashboards(t *testing.T) {
	m := loadMixin(t)
	ds := m.dashboards(t)
	if len(ds) != 4 {
		t.Errorf("%d dashboards, want 4 (operator, config-reloader, Prometheus, Alertmanager)", len(ds))
	}
	uids, titles := map[string]string{}, map[string]string{}
	for file, d := range ds {
		t.Run(file, func(t *testing.T) {
			if d.UID == "" || len(d.UID) > 40 {
				t.Errorf("uid %q: must be set and at most 40 characters", d.UID)
			}
			if other, dup := uids[d.UID]; dup {
				t.Errorf("uid %q also used by %s", d.UID, other)
			}
			uids[d.UID] = file
			if other, dup := titles[d.Title]; dup {
				t.Errorf("title %q also used by %s", d.Title, other)
			}
			titles[d.Title] = file

			defined := map[string]bool{}
			for _, v := range d.Templating.List {
				defined[v.Name] = true
			}
			for _, want := range []string{"datasource", "cluster", "namespace", "job"} {
				if !defined[want] {
					t.Errorf("no %s variable", want)
				}
			}
			ids := map[int]bool{}
			occupied := map[[2]int]string{}
			panels := 0
			for _, p := range d.Panels {
				if ids[p.ID] {
					t.Errorf("panel id %d used twice", p.ID)
				}
				ids[p.ID] = true
				if p.GridPos.W <= 0 || p.GridPos.H <= 0 || p.GridPos.X < 0 || p.GridPos.X+p.GridPos.W > 24 {
					t.Errorf("panel %q is outside the 24-column grid: %+v", p.Title, p.GridPos)
				}
				for x := p.GridPos.X; x < p.GridPos.X+p.GridPos.W; x++ {
					for y := p.GridPos.Y; y < p.GridPos.Y+p.GridPos.H; y++ {
						if other, ok := occupied[[2]int{x, y}]; ok {
							t.Fatalf("panel %q overlaps panel %q at %d,%d", p.Title, other, x, y)
						}
						occupied[[2]int{x, y}] = p.Title
					}
				}
				if p.Type == "row" {
					continue
				}
				panels++
				if p.FieldConfig.Defaults.Unit == "" {
					t.Errorf("panel %q has no unit", p.Title)
				}
				if p.Description == "" {
					t.Errorf("panel %q has no description", p.Title)
				}
				if p.Datasource.UID != "${datasource}" {
					t.Errorf("panel %q uses datasource %q, want ${datasource}", p.Title, p.Datasource.UID)
				}
				if len(p.Targets) == 0 {
					t.Errorf("panel %q has no targets", p.Title)
				}
				for _, tg := range p.Targets {
					if tg.Datasource.UID != "${datasource}" {
						t.Errorf("panel %q target %s uses datasource %q", p.Title, tg.RefID, tg.Datasource.UID)
					}
					for _, m := range grafanaVar.FindAllStringSubmatch(tg.Expr, -1) {
						if _, builtin := grafanaBuiltins[m[1]]; !builtin && !defined[m[1]] {
							t.Errorf("panel %q uses undefined variable $%s", p.Title, m[1])
						}
					}
				}
			}
			if panels < 10 {
				t.Errorf("only %d panels", panels)
			}
		})
	}
	if !slices.Contains(mapsKeys(uids), "lookout-operator") {
		t.Errorf("the operator dashboard's uid changed: %v (uids must stay stable)", mapsKeys(uids))
	}
}

func mapsKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
