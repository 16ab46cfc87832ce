package main

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// pendingCommands are commands the CI examples run that another change adds to the
// usage. Once the usage lists one, the test fails until it is removed from here.
var pendingCommands = map[string]bool{}

// helpOf runs a command's -h, for the flags it accepts.
var helpOf = map[string]func([]string, io.Writer, io.Writer) int{
	"diff": diffCmd, "test": testCmd, "render": renderCmd, "explain": explainCmd, "lint": lintCmd,
}

// invocation is "lookout-operator COMMAND ARGS..." as a CI example writes it.
var invocation = regexp.MustCompile(`(?:lookout-operator|lookout-cli:\S+)\s+([a-z-]+)((?:\s+[^\s;|&>]+)*)`)

// TestCIExamples: the GitHub Actions workflow and the pre-commit hooks parse, and every
// command they run is a command of the CLI's usage, with flags it accepts.
func TestCIExamples(t *testing.T) {
	var workflow struct {
		On   map[string]any `json:"on"`
		Jobs map[string]struct {
			Steps []struct {
				Name string `json:"name"`
				Run  string `json:"run"`
				Uses string `json:"uses"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	readYAML(t, "../../example/ci/lookout.yaml", &workflow)
	if _, ok := workflow.On["pull_request"]; !ok {
		t.Error("the workflow does not run on pull requests")
	}
	var runs []string
	for _, j := range workflow.Jobs {
		for _, s := range j.Steps {
			runs = append(runs, s.Run)
		}
	}
	var hooks []struct {
		ID, Entry, Language string
	}
	readYAML(t, "../../.pre-commit-hooks.yaml", &hooks)
	for _, h := range hooks {
		if h.ID == "" || h.Language == "" {
			t.Errorf("hook %+v lacks an id or a language", h)
		}
		runs = append(runs, h.Entry)
	}
	var config struct {
		Repos []struct {
			Repo  string
			Hooks []struct{ ID string }
		}
	}
	readYAML(t, "../../example/ci/.pre-commit-config.yaml", &config)
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.ID] = true
	}
	for _, r := range config.Repos {
		for _, h := range r.Hooks {
			if !ids[h.ID] {
				t.Errorf("example .pre-commit-config.yaml uses hook %q, which .pre-commit-hooks.yaml lacks", h.ID)
			}
		}
	}

	usageCmds := map[string]bool{}
	for _, l := range commandLines() {
		usageCmds[strings.Fields(l)[0]] = true
	}
	for p := range pendingCommands {
		if usageCmds[p] {
			t.Errorf("%s is in the usage now: remove it from pendingCommands", p)
		}
	}
	ran := map[string]bool{}
	for _, r := range runs {
		for _, m := range invocation.FindAllStringSubmatch(r, -1) {
			cmd := m[1]
			ran[cmd] = true
			if !usageCmds[cmd] && !pendingCommands[cmd] {
				t.Errorf("%q runs %s, which is not a command of the usage", strings.TrimSpace(m[0]), cmd)
				continue
			}
			help := helpOf[cmd]
			if help == nil {
				continue
			}
			var out, errb bytes.Buffer
			help([]string{"-h"}, &out, &errb)
			for _, arg := range strings.Fields(m[2]) {
				if !strings.HasPrefix(arg, "-") {
					continue
				}
				name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
				if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(name) + `\b`).MatchString(errb.String()) {
					t.Errorf("%q: %s has no flag -%s", strings.TrimSpace(m[0]), cmd, name)
				}
			}
		}
	}
	for _, want := range []string{"lint", "test", "diff"} {
		if !ran[want] {
			t.Errorf("the CI examples never run %s", want)
		}
	}
}

func readYAML(t *testing.T, path string, into any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
