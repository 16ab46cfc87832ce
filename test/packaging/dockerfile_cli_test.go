package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkCLIStage checks the command-line tools' image: the binary also at
// /usr/bin/kubectl-lookout, a working directory to mount a repository on, and a default
// command that does not run the operator.
func checkCLIStage(t *testing.T, s stage) {
	t.Helper()
	plugin := false
	for _, in := range s.all("COPY") {
		plugin = plugin || (strings.HasPrefix(in.args, "--from=build /out/lookout-operator ") && strings.HasSuffix(in.args, " /usr/bin/kubectl-lookout"))
	}
	if !plugin {
		t.Error("cli: the binary is not at /usr/bin/kubectl-lookout too")
	}
	if w := s.all("WORKDIR"); len(w) == 0 || w[len(w)-1].args != "/work" {
		t.Errorf("cli: WORKDIR %v, want /work", w)
	}
	cmd := s.all("CMD")
	if len(cmd) != 1 || cmd[0].args != `["help"]` {
		t.Errorf("cli: CMD %v, want [\"help\"] (the default command must not run the operator)", cmd)
	}
}

// TestMakeImageCLI: make image-cli prints the buildx command of the Dockerfile's cli stage,
// stamped with the version.
func TestMakeImageCLI(t *testing.T) {
	root := repoRoot(t)
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is not installed")
	}
	out, err := exec.Command("make", "-s", "-C", root, "image-cli", "VERSION=1.2.3", "COMMIT=abc", "DATE=2026-01-01T00:00:00Z").CombinedOutput()
	if err != nil {
		t.Fatalf("make image-cli: %v\n%s", err, out)
	}
	for _, want := range []string{"docker buildx build", "--target cli", "--build-arg VERSION=1.2.3", "--build-arg COMMIT=abc", "lookout-cli:v1.2.3"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("make image-cli prints %q, lacking %q", out, want)
		}
	}
	data, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range parseDockerfile(t, string(data)) {
		found = found || s.name == "cli"
	}
	if !found {
		t.Error("the Dockerfile has no cli stage for make image-cli's --target cli")
	}
}
