package rules

import (
	"bytes"
	"testing"
)

func TestFindServed(t *testing.T) {
	rule := newRule("team-a", "node", 3)
	file, err := RenderFile(rule, specFrom(t, alert(`expr: up`)))
	if err != nil {
		t.Fatal(err)
	}
	other := newRule("team-a", "other", 1)
	otherFile, err := RenderFile(other, specFrom(t, alert(`expr: up`)))
	if err != nil {
		t.Fatal(err)
	}
	limit := max(len(FileName(rule))+len(file), len(FileName(other))+len(otherFile)) + 10
	live, _ := Pack(map[string][]byte{FileName(rule): file, FileName(other): otherFile}, limit)
	if len(live) != 2 {
		t.Fatalf("test wants the files in two ConfigMaps, got %d", len(live))
	}

	// The object's new, invalid generation is 4: the served file still says 3.
	rule.Generation = 4
	got, h, ok := FindServed(live, rule)
	if !ok || !bytes.Equal(got, file) || h.Generation != 3 {
		t.Errorf("FindServed = %d bytes, %+v, %v; want the generation 3 file", len(got), h, ok)
	}

	// A file under the object's key whose header names another object is not served.
	forged := bytes.Replace(file, []byte(`"name":"node"`), []byte(`"name":"x"`), 1)
	if _, _, ok := FindServed([]map[string]string{{FileName(rule): string(forged)}}, rule); ok {
		t.Error("a file whose header names another object was served")
	}
	if _, _, ok := FindServed([]map[string]string{{FileName(rule): "groups: []\n"}}, rule); ok {
		t.Error("a file without header was served")
	}
	if _, _, ok := FindServed(nil, rule); ok {
		t.Error("found a file in no ConfigMap")
	}
}
