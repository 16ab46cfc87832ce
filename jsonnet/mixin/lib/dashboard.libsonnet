// dashboard.libsonnet: the small Grafana helper library of the Lookout mixin.
//
// Dashboards are described as rows of panels. Every panel says how wide it is (`span`, on
// Grafana's 24-column grid) and how tall (`height`); `dashboard.new` places the panels row
// after row, numbers them, and wraps a line when the next panel does not fit.
//
//   local d = import 'dashboard.libsonnet';
//   d.dashboard.new('my-uid', 'My dashboard', variables=[d.variable.datasource()], rows=[
//     d.row('Overview', [
//       d.panel.stat('Up', 'short', [d.target('sum(up)')], span=6),
//       d.panel.timeseries('Samples', 'ops', [d.target('rate(x[$__rate_interval])', '{{pod}}')]),
//     ]),
//   ])
//
// Every panel has a unit (fieldConfig.defaults.unit) and uses the `datasource` variable.
{
  local gridWidth = 24,

  // datasource is the data source reference every panel, target and variable uses.
  datasource:: { type: 'prometheus', uid: '${datasource}' },

  // target is one PromQL query of a panel. Instant targets (for stat and table panels)
  // return one value per series.
  target(expr, legend='', instant=false, format='time_series'):: {
    datasource: $.datasource,
    expr: expr,
    legendFormat: legend,
    instant: instant,
    range: !instant,
    format: format,
  },

  // thresholds builds Grafana's absolute threshold steps from [[value, color], ...]; the
  // first step starts at minus infinity.
  thresholds(base='green', steps=[]):: {
    mode: 'absolute',
    steps: [{ color: base, value: null }] + [{ color: s[1], value: s[0] } for s in steps],
  },

  panel:: {
    // base is what every panel has; the constructors below add the type's own options.
    base(type, title, unit, targets, description, span, height):: {
      assert std.length(targets) > 0 : 'panel %s has no targets' % title,
      assert unit != '' : 'panel %s has no unit' % title,
      type: type,
      title: title,
      description: description,
      datasource: $.datasource,
      targets: [targets[i] { refId: std.char(std.codepoint('A') + i) } for i in std.range(0, std.length(targets) - 1)],
      fieldConfig: { defaults: { unit: unit }, overrides: [] },
      span:: span,
      height:: height,
    },

    // timeseries is a graph over time. stack draws the series on top of each other.
    timeseries(title, unit, targets, description='', span=12, height=8, stack=false, min=null, max=null, thresholds=null)::
      self.base('timeseries', title, unit, targets, description, span, height) {
        fieldConfig+: {
          defaults+: {
            [if min != null then 'min']: min,
            [if max != null then 'max']: max,
            custom: {
              drawStyle: 'line',
              lineWidth: 1,
              fillOpacity: if stack then 30 else 10,
              showPoints: 'never',
              spanNulls: false,
              stacking: { mode: if stack then 'normal' else 'none', group: 'A' },
              thresholdsStyle: { mode: if thresholds == null then 'off' else 'line' },
            },
            [if thresholds != null then 'thresholds']: thresholds,
          },
        },
        options: {
          legend: { displayMode: 'table', placement: 'bottom', showLegend: true, calcs: ['lastNotNull', 'max'] },
          tooltip: { mode: 'multi', sort: 'desc' },
        },
      },

    // stat shows the last value of each series in big digits. mappings turn values into
    // text ([[value, text, color], ...]).
    stat(title, unit, targets, description='', span=4, height=4, thresholds=null, mappings=[])::
      self.base('stat', title, unit, targets, description, span, height) {
        fieldConfig+: {
          defaults+: {
            thresholds: if thresholds == null then $.thresholds() else thresholds,
            mappings: [
              { type: 'value', options: { [std.toString(m[0])]: { text: m[1], color: m[2], index: i } } }
              for i in std.range(0, std.length(mappings) - 1)
              for m in [mappings[i]]
            ],
          },
        },
        options: {
          reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
          colorMode: 'value',
          graphMode: 'area',
          justifyMode: 'auto',
          orientation: 'auto',
          textMode: 'auto',
        },
      },

    // gauge shows the last value of each series against min and max.
    gauge(title, unit, targets, description='', span=6, height=8, min=0, max=1, thresholds=null)::
      self.base('gauge', title, unit, targets, description, span, height) {
        fieldConfig+: {
          defaults+: {
            min: min,
            max: max,
            thresholds: if thresholds == null then $.thresholds() else thresholds,
          },
        },
        options: {
          reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false },
          showThresholdLabels: false,
          showThresholdMarkers: true,
        },
      },

    // table lists the labels of instant series; hide names the columns to leave out.
    table(title, unit, targets, description='', span=12, height=8, hide=['Time'])::
      self.base('table', title, unit, [t { instant: true, range: false, format: 'table' } for t in targets], description, span, height) {
        options: { showHeader: true, cellHeight: 'sm', footer: { show: false } },
        transformations: [{ id: 'organize', options: { excludeByName: { [h]: true for h in hide } } }],
      },
  },

  // row groups panels under a title.
  row(title, panels):: { title: title, panels: panels },

  variable:: {
    // datasource lets the viewer pick a Prometheus data source.
    datasource(name='datasource', label='Data source'):: {
      type: 'datasource',
      name: name,
      label: label,
      query: 'prometheus',
      regex: '',
      hide: 0,
      refresh: 1,
      current: {},
    },

    // query offers the values of `label` on the series `selector` selects
    // (label_values). includeAll adds an "All" entry matching allValue.
    query(name, label, selector, labelName, includeAll=false, multi=false, hide=false, allValue='.+', sortOrder=1):: {
      type: 'query',
      name: name,
      label: label,
      datasource: $.datasource,
      query: 'label_values(%s, %s)' % [selector, labelName],
      definition: self.query,
      refresh: 2,
      regex: '',
      sort: sortOrder,
      hide: if hide then 2 else 0,
      includeAll: includeAll,
      multi: multi,
      [if includeAll then 'allValue']: allValue,
      current: if includeAll then { text: 'All', value: '$__all' } else {},
      options: [],
    },
  },

  // layout gives the panels of the rows their grid positions and ids.
  layout(rows)::
    local placeRow(state, row) =
      local header = {
        type: 'row',
        title: row.title,
        collapsed: false,
        panels: [],
        gridPos: { h: 1, w: gridWidth, x: 0, y: state.y },
      };
      local placed = std.foldl(
        function(s, p)
          local wrap = s.x + p.span > gridWidth;
          local x = if wrap then 0 else s.x;
          local y = if wrap then s.y + s.lineHeight else s.y;
          local lineHeight = if wrap then p.height else std.max(s.lineHeight, p.height);
          s {
            x: x + p.span,
            y: y,
            lineHeight: lineHeight,
            out+: [p { gridPos: { h: p.height, w: p.span, x: x, y: y } }],
          },
        row.panels,
        { x: 0, y: state.y + 1, lineHeight: 0, out: [] }
      );
      { y: placed.y + placed.lineHeight, out: state.out + [header] + placed.out };
    local all = std.foldl(placeRow, rows, { y: 0, out: [] }).out;
    [all[i] { id: i + 1 } for i in std.range(0, std.length(all) - 1)],

  dashboard:: {
    // new builds a dashboard. uid must stay the same across versions: links and
    // provisioning refer to it.
    new(uid, title, rows, variables=[], tags=[], description='', refresh='30s', from='now-1h', timezone='utc'):: {
      assert std.length(uid) <= 40 : 'Grafana uids are at most 40 characters: ' + uid,
      uid: uid,
      title: title,
      description: description,
      tags: tags,
      editable: true,
      graphTooltip: 1,
      schemaVersion: 39,
      version: 1,
      refresh: refresh,
      timezone: timezone,
      time: { from: from, to: 'now' },
      timepicker: {},
      annotations: { list: [] },
      links: [],
      templating: { list: variables },
      panels: $.layout(rows),
    },
  },
}
