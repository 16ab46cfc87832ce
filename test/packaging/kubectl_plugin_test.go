package packaging

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// buildPlugin builds the operator's binary as kubectl-lookout, the name kubectl runs for
// `kubectl lookout`.
func buildPlugin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kubectl-lookout")
	cmd := exec.Command("go", "build", "-ldflags", "-X github.com/lookout-operator/lookout/pkg/buildinfo.Version=9.8.7", "-o", bin, "./cmd/operator")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runPlugin runs bin with args in the repository's root.
func runPlugin(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = repoRoot(t)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestKubectlPlugin: built as kubectl-lookout, the binary runs render, version and diff
// as `kubectl lookout ...`, routes every command of its usage but run, and refuses to
// run the operator.
func TestKubectlPlugin(t *testing.T) {
	bin := buildPlugin(t)
	out, errs, code := runPlugin(t, bin, "version")
	if code != 0 || !strings.Contains(out, "9.8.7") {
		t.Errorf("kubectl-lookout version: exit %d, %q %q", code, out, errs)
	}
	out, errs, code = runPlugin(t, bin, "render", "-f", "cmd/operator/testdata/render/manifests.yaml")
	if code != 0 || !strings.Contains(out, "job_name: serviceMonitor/apps/api/0") {
		t.Errorf("kubectl-lookout render: exit %d, stderr %s\n%s", code, errs, out)
	}
	out, errs, code = runPlugin(t, bin, "diff", "cmd/operator/testdata/diff/base", "cmd/operator/testdata/diff/interval")
	if code != 1 || !strings.Contains(out, "# caused by: serviceMonitor/apps/api/0") {
		t.Errorf("kubectl-lookout diff: exit %d, stderr %s\n%s", code, errs, out)
	}
	if _, errs, code = runPlugin(t, bin, "run"); code != 2 || !strings.Contains(errs, "does not do") {
		t.Errorf("kubectl-lookout run: exit %d, %s", code, errs)
	}
	if _, _, code = runPlugin(t, bin); code != 2 {
		t.Errorf("kubectl-lookout without a command: exit %d, want 2", code)
	}
	help, _, code := runPlugin(t, bin, "help")
	if code != 0 {
		t.Fatalf("kubectl-lookout help: exit %d", code)
	}
	cmds := regexp.MustCompile(`(?m)^  ([a-z-]+)  `).FindAllStringSubmatch(help, -1)
	for _, want := range []string{"render", "explain", "test", "diff", "version"} {
		if !strings.Contains(help, "  "+want+" ") {
			t.Errorf("kubectl-lookout help lacks %s:\n%s", want, help)
		}
	}
	for _, c := range cmds {
		if c[1] == "run" {
			t.Errorf("kubectl-lookout help lists run")
		}
		_, errs, _ := runPlugin(t, bin, c[1], "-h")
		if strings.Contains(errs, "unknown command") {
			t.Errorf("kubectl-lookout %s: %s", c[1], errs)
		}
	}
	if len(cmds) < 5 {
		t.Errorf("kubectl-lookout help lists %d commands:\n%s", len(cmds), help)
	}
}

// krewPlugin is the part of krew's Plugin manifest checked here.
type krewPlugin struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version          string `json:"version"`
		ShortDescription string `json:"shortDescription"`
		Platforms        []struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
			URI    string `json:"uri"`
			SHA256 string `json:"sha256"`
			Bin    string `json:"bin"`
		} `json:"platforms"`
	} `json:"spec"`
}

// TestKrewManifest: the krew manifest names the plugin lookout (kubectl lookout), has a
// platform for each of make plugin-archives' with the archive name that target writes,
// a well-formed sha256 and the binary kubectl-lookout.
func TestKrewManifest(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "example/krew/lookout.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var p krewPlugin
	if err := yaml.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if p.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || p.Kind != "Plugin" || p.Metadata.Name != "lookout" || p.Spec.ShortDescription == "" {
		t.Errorf("manifest header: %+v", p)
	}
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(p.Spec.Version) {
		t.Errorf("spec.version %q", p.Spec.Version)
	}
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	platforms := regexp.MustCompile(`(?m)^PLUGIN_PLATFORMS \?= (.*)$`).FindSubmatch(mk)
	if platforms == nil {
		t.Fatal("the Makefile has no PLUGIN_PLATFORMS")
	}
	want := map[string]bool{}
	for _, pl := range strings.Fields(string(platforms[1])) {
		want[pl] = true
	}
	for _, pl := range p.Spec.Platforms {
		os, arch := pl.Selector.MatchLabels["os"], pl.Selector.MatchLabels["arch"]
		if !want[os+"/"+arch] {
			t.Errorf("platform %s/%s: not built by make plugin-archives (or listed twice)", os, arch)
		}
		delete(want, os+"/"+arch)
		archive := fmt.Sprintf("/releases/download/%s/kubectl-lookout_%s_%s_%s.tar.gz", p.Spec.Version, p.Spec.Version, os, arch)
		if !strings.HasSuffix(pl.URI, archive) {
			t.Errorf("platform %s/%s: uri %s, want one ending %s", os, arch, pl.URI, archive)
		}
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(pl.SHA256) {
			t.Errorf("platform %s/%s: sha256 %q", os, arch, pl.SHA256)
		}
		bin := "kubectl-lookout"
		if os == "windows" {
			bin += ".exe"
		}
		if pl.Bin != bin {
			t.Errorf("platform %s/%s: bin %q, want %q", os, arch, pl.Bin, bin)
		}
	}
	for pl := range want {
		t.Errorf("make plugin-archives builds %s, which the manifest lacks", pl)
	}
	if !strings.Contains(string(data), "placeholder") {
		t.Error("the manifest does not say its sha256 values are placeholders")
	}
}
