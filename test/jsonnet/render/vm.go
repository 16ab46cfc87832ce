package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-jsonnet"
)

const modulePath = "github.com/lookout-operator/lookout"

// RepoRoot walks up from the working directory to the directory of the project's go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module "+modulePath+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root not found: no go.mod of " + modulePath + " above the working directory")
		}
		dir = parent
	}
}

// VM returns a jsonnet VM whose library path is the repository's jsonnet/ directory, so
// `import 'lookout/main.libsonnet'` and `import 'mixin/mixin.libsonnet'` resolve.
func VM(root string) *jsonnet.VM {
	vm := jsonnet.MakeVM()
	vm.Importer(&jsonnet.FileImporter{JPaths: []string{filepath.Join(root, "jsonnet")}})
	return vm
}

// EvaluateFile evaluates a jsonnet file (relative to root) and returns its JSON.
func EvaluateFile(root, file string) (string, error) {
	out, err := VM(root).EvaluateFile(filepath.Join(root, file))
	if err != nil {
		return "", fmt.Errorf("evaluating %s: %w", file, err)
	}
	return out, nil
}

// EvaluateInto evaluates a jsonnet file and decodes its JSON into v.
func EvaluateInto(root, file string, v any) error {
	out, err := EvaluateFile(root, file)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		return fmt.Errorf("decoding the output of %s: %w", file, err)
	}
	return nil
}

// EvaluateSnippet evaluates jsonnet code with the repository's library path and decodes
// its JSON into v.
func EvaluateSnippet(root, code string, v any) error {
	out, err := VM(root).EvaluateAnonymousSnippet("snippet.jsonnet", code)
	if err != nil {
		return fmt.Errorf("evaluating snippet: %w", err)
	}
	return json.Unmarshal([]byte(out), v)
}
