package atomicdir

import (
	"strings"
	"testing"
)

func TestValidateKeyAccepts(t *testing.T) {
	t.Parallel()
	for _, key := range []string{
		"a", "prometheus.yaml.gz", "sub/b", "a..b", ".hidden", "a/..b", "a/.b",
		strings.Repeat("n", maxFileNameLength),
		strings.Repeat(strings.Repeat("d", 99)+"/", 40) + strings.Repeat("f", 96), // 4096 bytes
	} {
		if err := validateKey(key); err != nil {
			t.Errorf("key %.40q rejected: %v", key, err)
		}
	}
}

func TestValidateKeyRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ key, why string }{
		{"", "empty"},
		{".", "directory itself"},
		{"/abs", "relative"},
		{"..", "'..'"},
		{"../up", "'..'"},
		{"a/../../b", "'..'"},
		{"a/..", "'..'"},
		{"..data", "start with '..'"},
		{"..data/x", "start with '..'"},
		{"..data_tmp", "start with '..'"},
		{"..x/y", "start with '..'"},
		{"..2026_01_02_03_04_05.1", "start with '..'"},
		// Finding 10: the kubelet's rules alone let this one through, and cleaning it
		// makes it the writer's own link.
		{"./..data", "not a clean path"},
		{"./a", "not a clean path"},
		{"a/./b", "not a clean path"},
		{"a//b", "not a clean path"},
		{"a/", "not a clean path"},
		{"a\x00b", "NUL"},
		{strings.Repeat("n", maxFileNameLength+1), "longer than 255"},
		{"d/" + strings.Repeat("n", maxFileNameLength+1), "longer than 255"},
		{strings.Repeat("d/", maxPathLength/2) + "f", "longer than 4096"},
	} {
		err := validateKey(tc.key)
		if err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("key %.40q: error %v, want one saying %q", tc.key, err, tc.why)
		}
	}
}

func TestValidatePayloadFileAndDirectory(t *testing.T) {
	t.Parallel()
	err := validatePayload(map[string][]byte{"a": nil, "a/b/c": nil})
	if err == nil || !strings.Contains(err.Error(), "a file and a directory") {
		t.Fatalf("error %v", err)
	}
	if err := validatePayload(map[string][]byte{"a/x": nil, "a/b/c": nil, "ab": nil}); err != nil {
		t.Fatal(err)
	}
}

func TestWriteRejectsBadKeys(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"", "/abs", "../up", "a/../../b", "..data", "./..data", "..x/y", ".", strings.Repeat("n", 256)} {
		dir := t.TempDir()
		if _, err := Write(dir, map[string][]byte{key: []byte("x")}); err == nil {
			t.Errorf("key %q accepted", key)
		}
		if names := listDir(t, dir); len(names) != 0 {
			t.Errorf("key %q left %v behind", key, names)
		}
	}
}
