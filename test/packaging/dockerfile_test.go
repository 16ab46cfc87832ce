package packaging

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction with its continuation lines joined, and the
// comment lines right above it.
type instruction struct {
	cmd, args, comment string
	line               int
}

// stage is one FROM and the instructions up to the next.
type stage struct {
	from  instruction
	name  string
	instr []instruction
}

func parseDockerfile(t *testing.T, data string) []stage {
	t.Helper()
	var stages []stage
	var comment []string
	lines := strings.Split(data, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			comment = nil
			continue
		}
		if strings.HasPrefix(l, "#") {
			comment = append(comment, l)
			continue
		}
		start := i + 1
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[i])
		}
		cmd, args, _ := strings.Cut(l, " ")
		in := instruction{cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args), comment: strings.Join(comment, "\n"), line: start}
		comment = nil
		if in.cmd == "FROM" {
			s := stage{from: in}
			if f := strings.Fields(in.args); len(f) >= 3 && strings.EqualFold(f[len(f)-2], "AS") {
				s.name = f[len(f)-1]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			if in.cmd != "ARG" {
				t.Fatalf("Dockerfile:%d: %s before the first FROM", in.line, in.cmd)
			}
			continue
		}
		stages[len(stages)-1].instr = append(stages[len(stages)-1].instr, in)
	}
	return stages
}

func (s stage) all(cmd string) []instruction {
	var out []instruction
	for _, in := range s.instr {
		if in.cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

func (s stage) hasArg(name string) bool {
	for _, in := range s.all("ARG") {
		if n, _, _ := strings.Cut(in.args, "="); n == name {
			return true
		}
	}
	return false
}

var digestRE = regexp.MustCompile(`@sha256:[0-9a-f]{64}(\s|$)`)

// TestDockerfile checks what docker cannot be run here to show: every base image pinned
// by digest (or marked as not verifiable), the builder cross-compiling both binaries
// from the build platform for TARGETOS/TARGETARCH with the version stamped in, and both
// images static, non-root and labelled with the OCI version, revision and creation date.
func TestDockerfile(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	stages := parseDockerfile(t, string(data))
	byName := map[string]stage{}
	for _, s := range stages {
		byName[s.name] = s
		if !digestRE.MatchString(s.from.args) && !strings.Contains(s.from.comment, "TODO pin: digest not verifiable offline") {
			t.Errorf("Dockerfile:%d: FROM %s is neither pinned by digest nor marked TODO pin", s.from.line, s.from.args)
		}
	}

	build, ok := byName["build"]
	if !ok {
		t.Fatal("no build stage")
	}
	if !strings.HasPrefix(build.from.args, "--platform=$BUILDPLATFORM ") {
		t.Errorf("the build stage runs on %q, want --platform=$BUILDPLATFORM (cross-compiling, no emulation)", build.from.args)
	}
	// The builder's Go is go.mod's.
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if goVersion == nil || !strings.Contains(build.from.args, "golang:"+string(goVersion[1])) {
		t.Errorf("the builder %q is not Go %s of go.mod", build.from.args, goVersion)
	}
	for _, a := range []string{"TARGETOS", "TARGETARCH", "VERSION", "COMMIT", "DATE"} {
		if !build.hasArg(a) {
			t.Errorf("the build stage does not declare ARG %s", a)
		}
	}
	var buildCmd string
	for _, in := range build.all("RUN") {
		if strings.Contains(in.args, "go build") {
			buildCmd = in.args
		}
	}
	for _, want := range []string{"CGO_ENABLED=0", "GOOS=${TARGETOS}", "GOARCH=${TARGETARCH}", "-trimpath",
		"pkg/buildinfo.Version=${VERSION}", "$pkg.Commit=${COMMIT}", "$pkg.Date=${DATE}", "./cmd/$cmd", "operator config-reloader"} {
		if !strings.Contains(buildCmd, want) && !strings.Contains(strings.ReplaceAll(buildCmd, "$pkg", "github.com/lookout-operator/lookout/pkg/buildinfo"), want) {
			t.Errorf("the go build command lacks %q: %s", want, buildCmd)
		}
	}

	for name, binary := range map[string]string{"operator": "/usr/bin/lookout-operator", "config-reloader": "/usr/bin/config-reloader", "cli": "/usr/bin/lookout-operator"} {
		s, ok := byName[name]
		if !ok {
			t.Errorf("no %s stage", name)
			continue
		}
		if !strings.Contains(s.from.args, "distroless/static") {
			t.Errorf("%s: base %q is not a static distroless image", name, s.from.args)
		}
		users := s.all("USER")
		if len(users) == 0 {
			t.Errorf("%s: no USER", name)
		} else if u := users[len(users)-1].args; u == "root" || u == "0" || strings.HasPrefix(u, "0:") {
			t.Errorf("%s: runs as %q", name, u)
		}
		labels := ""
		for _, in := range s.all("LABEL") {
			labels += " " + in.args
		}
		for _, want := range []string{
			`org.opencontainers.image.version="${VERSION}"`, `org.opencontainers.image.revision="${COMMIT}"`,
			`org.opencontainers.image.created="${DATE}"`, `org.opencontainers.image.source=`, `org.opencontainers.image.title=`,
		} {
			if !strings.Contains(labels, want) {
				t.Errorf("%s: no label %s", name, want)
			}
		}
		for _, a := range []string{"VERSION", "COMMIT", "DATE"} {
			if !s.hasArg(a) {
				t.Errorf("%s: ARG %s not declared in the stage (the labels would be empty)", name, a)
			}
		}
		entry := s.all("ENTRYPOINT")
		if len(entry) != 1 || !strings.Contains(entry[0].args, `"`+binary+`"`) {
			t.Errorf("%s: ENTRYPOINT %v, want %s", name, entry, binary)
		}
		if name == "cli" {
			checkCLIStage(t, s)
		}
		if name == "config-reloader" {
			found := false
			for _, in := range s.all("COPY") {
				found = found || strings.HasSuffix(in.args, " /bin/prometheus-config-reloader")
			}
			if !found {
				t.Error("config-reloader: the binary is not at /bin/prometheus-config-reloader too")
			}
		}
	}
}
