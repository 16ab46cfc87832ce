package targethealth

import "testing"

// A target's labels and its series' labels (with __name__) hash the same, whatever the
// order of the keys; another value or another name does not.
func TestHashLabelObject(t *testing.T) {
	target := HashLabels(map[string]string{"job": "api", "instance": "10.0.0.1:8080", "namespace": "app"})
	for _, tc := range []struct {
		in       string
		name     string
		sameHash bool
	}{
		{`{"job":"api","instance":"10.0.0.1:8080","namespace":"app"}`, "", true},
		{`{"namespace":"app","__name__":"scrape_series_added","instance":"10.0.0.1:8080","job":"api"}`, "scrape_series_added", true},
		{`{"job":"api","instance":"10.0.0.2:8080","namespace":"app"}`, "", false},
		{`{"job":"api","instance":"10.0.0.1:8080","namespace":"app","pod":"x"}`, "", false},
		{`{"job":"apiinstance","":"10.0.0.1:8080","namespace":"app"}`, "", false},
	} {
		h, name, err := HashLabelObject([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if name != tc.name || (h == target) != tc.sameHash {
			t.Errorf("%s: name %q, same hash %v; want %q, %v", tc.in, name, h == target, tc.name, tc.sameHash)
		}
	}
	if _, _, err := HashLabelObject([]byte(`{"job":1}`)); err == nil {
		t.Error("a number as a label value: no error")
	}
}

// The scanner agrees with encoding/json on escapes and spacing, and refuses what is not
// a flat object of strings.
func TestScanLabels(t *testing.T) {
	want := HashLabels(map[string]string{"a": `x"y`, "b": "é\n"})
	for _, in := range []string{`{"a":"x\"y","b":"é\n"}`, " { \"b\" : \"\\u00e9\\n\" ,\n\"a\":\"x\\\"y\" } "} {
		if h, _, err := HashLabelObject([]byte(in)); err != nil || h != want {
			t.Errorf("%s: %v, %v", in, h == want, err)
		}
	}
	if h, _, err := HashLabelObject([]byte(`null`)); err != nil || h != HashLabels(nil) {
		t.Errorf("null: %v", err)
	}
	if h, _, err := HashLabelObject([]byte(`{}`)); err != nil || h != HashLabels(nil) {
		t.Errorf("{}: %v", err)
	}
	for _, in := range []string{``, `{`, `[]`, `{"a"}`, `{"a":"b"`, `{"a":"b",}`, `{"a":"b"}x`, `{"a":{"b":"c"}}`, `{"a":"b" "c":"d"}`, `"a"`, `{"a":"\x"}`} {
		if _, _, err := HashLabelObject([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
