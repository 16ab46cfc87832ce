package manifest

import "testing"

func TestDecodeRecordsFileAndLine(t *testing.T) {
	data := "---\n# a comment\napiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\n\n---  # empty\n\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: c"
	objs, err := Decode([]byte(data), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		line int
	}{{"a", 3}, {"p", 11}, {"c", 19}}
	if len(objs) != len(want) {
		t.Fatalf("got %d objects, want %d", len(objs), len(want))
	}
	for i, w := range want {
		if objs[i].GetName() != w.name || objs[i].Line != w.line || objs[i].File != "x.yaml" {
			t.Errorf("object %d: %s at %s:%d, want %s at line %d", i, objs[i].GetName(), objs[i].File, objs[i].Line, w.name, w.line)
		}
	}
}
