// alert.libsonnet: builds alerting rules the same way for every group of the mixin: a
// severity label, summary and description annotations, and a runbook link made from the
// alert name.
{
  // kebab turns a CamelCase name into kebab-case: LookoutTSDBFailing -> lookout-tsdb-failing.
  kebab(name)::
    local chars = std.stringChars(name);
    local n = std.length(chars);
    local isUpper(c) = c >= 'A' && c <= 'Z';
    local isLower(c) = c >= 'a' && c <= 'z';
    local dash(i) =
      i > 0 && isUpper(chars[i]) && (
        !isUpper(chars[i - 1]) || (i + 1 < n && isLower(chars[i + 1]))
      );
    std.join('', [(if dash(i) then '-' else '') + std.asciiLower(chars[i]) for i in std.range(0, n - 1)]),

  // by lists the group labels of the config followed by extra, for `by (...)` and `on (...)`.
  by(config, extra=[]):: std.join(', ', config.groupLabels + extra),

  // new builds one alerting rule.
  new(config, name, expr, severity, summary, description, forDuration='')::
    {
      alert: name,
      expr: expr,
      [if forDuration != '' then 'for']: forDuration,
      labels: { severity: severity } + config.commonAlertLabels,
      annotations: {
        summary: summary,
        description: description,
        runbook_url: config.runbookURLPattern % $.kebab(name),
      },
    },
}
