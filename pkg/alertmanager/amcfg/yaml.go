package amcfg

import (
	"sort"

	yaml "go.yaml.in/yaml/v2"
)

// obj is an ordered YAML mapping. Keys are emitted in the order they are set, so output is
// deterministic; empty values are left out like omitempty.
type obj struct{ ms yaml.MapSlice }

func (o *obj) set(key string, v any) *obj {
	switch x := v.(type) {
	case nil:
		return o
	case string:
		if x == "" {
			return o
		}
	case *string:
		if x == nil || *x == "" {
			return o
		}
		v = *x
	case *bool:
		if x == nil {
			return o
		}
		v = *x
	case bool:
		if !x {
			return o
		}
	case int, int32, int64:
		if x == 0 || x == int32(0) || x == int64(0) {
			return o
		}
	case *int64:
		if x == nil {
			return o
		}
		v = *x
	case []string:
		if len(x) == 0 {
			return o
		}
	case []any:
		if len(x) == 0 {
			return o
		}
	case map[string]string:
		if len(x) == 0 {
			return o
		}
		v = sortedMap(x)
	case *obj:
		if x == nil || len(x.ms) == 0 {
			return o
		}
		v = x.ms
	case yaml.MapSlice:
		if len(x) == 0 {
			return o
		}
	}
	o.ms = append(o.ms, yaml.MapItem{Key: key, Value: v})
	return o
}

// get returns the value under key and whether it is present.
func (o *obj) get(key string) (any, bool) {
	for _, it := range o.ms {
		if k, _ := it.Key.(string); k == key {
			return it.Value, true
		}
	}
	return nil, false
}

// put replaces the value under key, or appends it.
func (o *obj) put(key string, v any) {
	for i, it := range o.ms {
		if k, _ := it.Key.(string); k == key {
			o.ms[i].Value = v
			return
		}
	}
	o.ms = append(o.ms, yaml.MapItem{Key: key, Value: v})
}

func sortedMap(m map[string]string) yaml.MapSlice {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(yaml.MapSlice, len(keys))
	for i, k := range keys {
		out[i] = yaml.MapItem{Key: k, Value: m[k]}
	}
	return out
}

func marshal(o *obj) ([]byte, error) { return yaml.Marshal(o.ms) }
