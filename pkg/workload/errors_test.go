package workload

import (
	"strings"
	"testing"
)

func TestPatchContainerJSONReportsMergeErrors(t *testing.T) {
	// An env entry without its merge key cannot be merged into a list keyed by name.
	_, err := patchContainerJSON([]byte(`{"name":"prometheus","env":[{"name":"A","value":"1"}]}`), []byte(`{"env":[{"value":"2"}]}`))
	if err == nil || !strings.Contains(err.Error(), "strategic merge patch") {
		t.Fatalf("want a strategic merge patch error, got %v", err)
	}
	_, err = patchContainerJSON([]byte(`{"name":"prometheus"}`), []byte(`{"env": 3`))
	if err == nil {
		t.Fatal("malformed patch: no error")
	}
}
