package rules

import (
	"strings"
	"testing"
)

func TestParseHeaderRoundTrip(t *testing.T) {
	rule := newRule("monitoring", "node-rules", 42)
	rule.UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
	file, err := RenderFile(rule, specFrom(t, alert(`expr: up`)))
	if err != nil {
		t.Fatal(err)
	}
	h, ok := ParseHeader(file)
	if !ok {
		t.Fatalf("no header found in\n%s", file)
	}
	want := Header{Namespace: "monitoring", Name: "node-rules", UID: "1b4e28ba-2fa1-11d2-883f-0016d3cca427", Generation: 42}
	if h != want {
		t.Errorf("header = %+v, want %+v", h, want)
	}
}

func TestParseHeaderRejects(t *testing.T) {
	for name, content := range map[string]string{
		"empty":                "",
		"no comment":           "groups: []\n",
		"other comments only":  "# hello\n# world\ngroups: []\n",
		"header after content": "groups: []\n" + headerPrefix + `{"namespace":"a","name":"b","uid":"c","generation":1}` + "\n",
		"broken JSON":          headerTitle + headerPrefix + `{"namespace":"a","name":` + "\n",
		"missing uid":          headerPrefix + `{"namespace":"a","name":"b","generation":1}` + "\n",
		"wrong type":           headerPrefix + `{"namespace":"a","name":"b","uid":"c","generation":"1"}` + "\n",
		"very long line":       "#" + strings.Repeat("x", 100000) + "\n" + headerPrefix + `{"namespace":"a","name":"b","uid":"c","generation":1}` + "\n",
	} {
		if h, ok := ParseHeader([]byte(content)); ok {
			t.Errorf("%s: ParseHeader found %+v", name, h)
		}
	}
}

func TestParseHeaderAcceptsUnknownFields(t *testing.T) {
	// A header written by a later Lookout with more fields still reads.
	h, ok := ParseHeader([]byte(headerTitle + headerPrefix + `{"namespace":"a","name":"b","uid":"c","generation":3,"hash":"x"}` + "\ngroups: []\n"))
	if !ok || h != (Header{Namespace: "a", Name: "b", UID: "c", Generation: 3}) {
		t.Errorf("got %+v, %v", h, ok)
	}
}

func FuzzParseHeader(f *testing.F) {
	f.Add([]byte(headerTitle + headerPrefix + `{"namespace":"a","name":"b","uid":"c","generation":1}` + "\n"))
	f.Add([]byte("# x\n"))
	f.Fuzz(func(t *testing.T, content []byte) {
		h, ok := ParseHeader(content)
		if ok && (h.Namespace == "" || h.Name == "" || h.UID == "") {
			t.Errorf("incomplete header accepted: %+v", h)
		}
	})
}
