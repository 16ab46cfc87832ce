package amcfg

import (
	"errors"
	"strings"

	yaml "go.yaml.in/yaml/v2"
)

// The configuration is written as text from pieces each marshalled once: an object's
// route, receivers, inhibit rules and time intervals are marshalled when it is converted
// and spliced into the base's text. Marshalling a 1,000-object document as one tree costs
// several times more than the splicing, and a Generator's cache key is these bytes. The
// result is loaded by Alertmanager's loader like any other, so a splicing mistake cannot
// reach the caller.

// partText is the YAML of one part's list items ("- ...\n" lines, not indented).
type partText struct {
	route, receivers, inhibit, intervals string
}

func listText(items []any) (string, error) {
	if len(items) == 0 {
		return "", nil
	}
	b, err := yaml.Marshal(items)
	return string(b), err
}

func (pt *part) text() (*partText, error) {
	if pt.txt != nil {
		return pt.txt, nil
	}
	t := &partText{}
	var err error
	if pt.route != nil {
		if t.route, err = listText([]any{pt.route.ms}); err != nil {
			return nil, err
		}
	}
	if t.receivers, err = listText(pt.receivers); err != nil {
		return nil, err
	}
	if t.inhibit, err = listText(pt.inhibit); err != nil {
		return nil, err
	}
	if t.intervals, err = listText(pt.intervals); err != nil {
		return nil, err
	}
	pt.txt = t
	return t, nil
}

// baseText is the base marshalled in pieces: each top-level key on its own, the
// top-level route without its routes, and the lists parts extend.
type baseText struct {
	keys []string
	// other holds "key: ...\n" text for keys that are copied as they are.
	other map[string]string
	// routeHead is the top-level route's mapping without routes, indented under route:.
	routeHead, routes string
	lists             map[string]string
}

var extended = []string{"receivers", "inhibit_rules", "time_intervals", "mute_time_intervals"}

func (b *base) text() (*baseText, error) {
	if b.txt != nil {
		return b.txt, nil
	}
	t := &baseText{other: map[string]string{}, lists: map[string]string{}}
	for _, it := range b.doc.ms {
		k, _ := it.Key.(string)
		t.keys = append(t.keys, k)
		switch {
		case k == "route":
			rms, ok := it.Value.(yaml.MapSlice)
			if !ok {
				return nil, errors.New("the top-level route is not a mapping")
			}
			head := yaml.MapSlice{}
			for _, ri := range rms {
				if rk, _ := ri.Key.(string); rk == "routes" {
					list, _ := ri.Value.([]any)
					s, err := listText(list)
					if err != nil {
						return nil, err
					}
					t.routes = s
					continue
				}
				head = append(head, ri)
			}
			if len(head) > 0 {
				s, err := yaml.Marshal(head)
				if err != nil {
					return nil, err
				}
				t.routeHead = indent(string(s))
			}
		case contains(extended, k):
			list, _ := it.Value.([]any)
			s, err := listText(list)
			if err != nil {
				return nil, err
			}
			t.lists[k] = s
		default:
			s, err := yaml.Marshal(yaml.MapSlice{it})
			if err != nil {
				return nil, err
			}
			t.other[k] = string(s)
		}
	}
	b.txt = t
	return t, nil
}

// indent puts two spaces before every non-empty line.
func indent(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + len(s)/8)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		line := s
		if i >= 0 {
			line, s = s[:i+1], s[i+1:]
		} else {
			s = ""
		}
		if line != "\n" {
			sb.WriteString("  ")
		}
		sb.WriteString(line)
	}
	return sb.String()
}

// render adds the parts to the base: their routes first under the top-level route, their
// receivers, inhibit rules and time intervals after the base's.
func render(b *base, parts []*part, o options) ([]byte, error) {
	bt, err := b.text()
	if err != nil {
		return nil, err
	}
	texts := make([]*partText, len(parts))
	size := 256
	for i, pt := range parts {
		if texts[i], err = pt.text(); err != nil {
			return nil, err
		}
		size += len(texts[i].route)*5/4 + len(texts[i].receivers) + len(texts[i].inhibit) + len(texts[i].intervals)
	}
	var sb strings.Builder
	sb.Grow(size)
	list := func(key string, pick func(*partText) string) {
		old := bt.lists[key]
		n := len(old)
		for _, t := range texts {
			n += len(pick(t))
		}
		if n == 0 {
			return
		}
		sb.WriteString(key + ":\n")
		sb.WriteString(old)
		for _, t := range texts {
			sb.WriteString(pick(t))
		}
	}
	ik := o.intervalsKey()
	written := map[string]bool{}
	for _, k := range bt.keys {
		written[k] = true
		switch {
		case k == "route":
			sb.WriteString("route:\n")
			sb.WriteString(bt.routeHead)
			hasRoutes := bt.routes != ""
			for _, t := range texts {
				hasRoutes = hasRoutes || t.route != ""
			}
			if hasRoutes {
				sb.WriteString("  routes:\n")
				for _, t := range texts {
					sb.WriteString(indent(t.route))
				}
				sb.WriteString(indent(bt.routes))
			}
		case k == "receivers":
			list(k, func(t *partText) string { return t.receivers })
		case k == "inhibit_rules":
			list(k, func(t *partText) string { return t.inhibit })
		case k == ik:
			list(k, func(t *partText) string { return t.intervals })
		case contains(extended, k):
			sb.WriteString(k + ":\n" + bt.lists[k])
		default:
			sb.WriteString(bt.other[k])
		}
	}
	for _, k := range []string{"receivers", "inhibit_rules", ik} {
		if written[k] {
			continue
		}
		switch k {
		case "receivers":
			list(k, func(t *partText) string { return t.receivers })
		case "inhibit_rules":
			list(k, func(t *partText) string { return t.inhibit })
		default:
			list(k, func(t *partText) string { return t.intervals })
		}
	}
	return []byte(sb.String()), nil
}
