// json.libsonnet: pretty JSON for files people read (dashboards in ConfigMaps).
// std.manifestJsonEx writes an empty array or object over three lines ("[", "", "]");
// manifest writes them as [] and {}.
{
  manifest(value, indent='  ')::
    local lines = std.split(std.manifestJsonEx(value, indent), '\n');
    local n = std.length(lines);
    local at(i) = if i >= 0 && i < n then lines[i] else null;
    local opens(l) = l != null && (std.endsWith(l, '[') || std.endsWith(l, '{'));
    local closes(l) = l != null && local t = std.stripChars(l, ' '); std.startsWith(t, ']') || std.startsWith(t, '}');
    // An empty container starts at line i when i opens, i+1 is blank and i+2 closes.
    local emptyAt(i) = opens(at(i)) && at(i + 1) == '' && closes(at(i + 2));
    std.join('\n', [
      if emptyAt(i) then lines[i] + std.stripChars(lines[i + 2], ' ') else lines[i]
      for i in std.range(0, n - 1)
      if !emptyAt(i - 1) && !emptyAt(i - 2)
    ]),
}
