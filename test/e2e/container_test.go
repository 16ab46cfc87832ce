//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/localpods"
)

// containerSpec is what the kubelet helper hands the container runtime (this binary with
// envContainer set to the spec's path): a root file system made of the "image" (the host's
// /usr for the C library, plus one binary) and the container's volume mounts, the pod's
// network namespace, and the user to run as.
type containerSpec struct {
	NetNS    string   `json:"netns"`    // network namespace to join
	Hostname string   `json:"hostname"` // the pod's name
	Root     string   `json:"root"`     // an empty directory that becomes /
	Binary   string   `json:"binary"`   // host path of the image's entrypoint
	Args     []string `json:"args"`     // argv, imagePath(Binary) first
	Env      []string `json:"env"`
	Mounts   []mount  `json:"mounts"`
	// UID and GID are the user and group to run as; nil keeps root.
	UID          *int64  `json:"uid,omitempty"`
	GID          *int64  `json:"gid,omitempty"`
	Groups       []int64 `json:"groups,omitempty"`
	ReadOnlyRoot bool    `json:"readOnlyRoot"`
}

// mount binds Source (a volume directory or file on the host) at Target in the container.
type mount struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	ReadOnly bool   `json:"readOnly"`
}

// imagePath is where the image's binary appears in the container; Args[0] is that path,
// so the process is known by the binary's name (the reloader's signal method looks for
// "prometheus").
func imagePath(binary string) string { return "/image/" + filepath.Base(binary) }

// runContainer is the container runtime: it runs in new mount and UTS namespaces (the
// kubelet helper starts it with CLONE_NEWNS|CLONE_NEWUTS), takes the pod's name as host
// name, joins the pod's network namespace, builds the root file system, drops to the pod's
// user and executes the entrypoint. It never returns.
func runContainer(specPath string) {
	if err := setUpContainer(specPath); err != nil {
		fmt.Fprintln(os.Stderr, "e2e container runtime:", err)
		os.Exit(127)
	}
}

func setUpContainer(specPath string) error {
	b, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var c containerSpec
	if err := json.Unmarshal(b, &c); err != nil {
		return fmt.Errorf("%s: %w", specPath, err)
	}
	// Namespaces and credentials are per thread until exec; stay on this one.
	runtime.LockOSThread()
	ns, err := os.Open(c.NetNS)
	if err != nil {
		return err
	}
	if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("joining %s: %w", c.NetNS, err)
	}
	ns.Close()
	// Each container has its own UTS namespace with the pod's name (a pod shares one; with
	// the same name in each nothing can tell). Prometheus resolves its host name through
	// /etc/hosts, where the kubelet helper maps it to the pod's address.
	if err := unix.Sethostname([]byte(c.Hostname)); err != nil {
		return fmt.Errorf("sethostname: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making / private: %w", err)
	}
	r := c.Root
	if err := unix.Mount("tmpfs", r, "tmpfs", 0, "mode=0755"); err != nil {
		return fmt.Errorf("root tmpfs: %w", err)
	}
	// The image: the host's /usr (dynamic loader and C library) with the usual top-level
	// links, the entrypoint binary, and empty /etc and /tmp.
	for _, top := range []string{"bin", "sbin", "lib", "lib64", "usr"} {
		host := "/" + top
		fi, err := os.Lstat(host)
		if err != nil {
			continue
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(host)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, filepath.Join(r, top)); err != nil {
				return err
			}
			continue
		}
		if err := bind(host, filepath.Join(r, top), true); err != nil {
			return err
		}
	}
	for _, m := range []mount{{Source: "/dev", Target: "/dev"}, {Source: "/proc", Target: "/proc"}} {
		if err := bind(m.Source, filepath.Join(r, m.Target), false); err != nil {
			return err
		}
	}
	for _, d := range []string{"etc", "tmp"} {
		if err := os.MkdirAll(filepath.Join(r, d), 0o755); err != nil {
			return err
		}
	}
	if err := bind(c.Binary, filepath.Join(r, imagePath(c.Binary)), true); err != nil {
		return err
	}
	// The pod's volumes.
	for _, m := range c.Mounts {
		if err := bind(m.Source, filepath.Join(r, m.Target), m.ReadOnly); err != nil {
			return err
		}
	}
	if c.ReadOnlyRoot {
		if err := unix.Mount("", r, "", unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			return fmt.Errorf("read-only root: %w", err)
		}
	}
	if err := unix.Chroot(r); err != nil {
		return fmt.Errorf("chroot: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	if c.GID != nil || c.UID != nil || len(c.Groups) > 0 {
		groups := make([]int, 0, len(c.Groups))
		for _, g := range c.Groups {
			groups = append(groups, int(g))
		}
		if err := syscall.Setgroups(groups); err != nil {
			return fmt.Errorf("setgroups: %w", err)
		}
	}
	if c.GID != nil {
		if err := syscall.Setgid(int(*c.GID)); err != nil {
			return fmt.Errorf("setgid: %w", err)
		}
	}
	if c.UID != nil {
		if err := syscall.Setuid(int(*c.UID)); err != nil {
			return fmt.Errorf("setuid: %w", err)
		}
	}
	return syscall.Exec(imagePath(c.Binary), c.Args, c.Env)
}

// bind mounts source at target (created as a directory or an empty file to match
// source), read-only when asked.
func bind(source, target string, readOnly bool) error {
	fi, err := os.Stat(source)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		err = os.MkdirAll(target, 0o755)
	} else {
		if err = os.MkdirAll(filepath.Dir(target), 0o755); err == nil {
			var f *os.File
			if f, err = os.OpenFile(target, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Close()
			}
		}
	}
	if err != nil {
		return fmt.Errorf("mount point %s: %w", target, err)
	}
	if err := unix.Mount(source, target, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s on %s: %w", source, target, err)
	}
	if readOnly {
		if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			return fmt.Errorf("read-only %s: %w", target, err)
		}
	}
	return nil
}

// The kubelet side: building a container's spec from the pod spec and starting it.

// startContainer starts one container through the container runtime.
func (p *pod) startContainer(c corev1.Container) (*proc, error) {
	bin, ok := s.images[c.Image]
	if !ok {
		return nil, fmt.Errorf("container %s: image %s is not in the suite's image store %v", c.Name, c.Image, keys(s.images))
	}
	if len(c.Command) > 0 {
		return nil, fmt.Errorf("container %s: command %v: the helper runs the image's entrypoint only", c.Name, c.Command)
	}
	env, vars, err := p.containerEnv(c)
	if err != nil {
		return nil, fmt.Errorf("container %s: %w", c.Name, err)
	}
	spec := containerSpec{
		NetNS:    p.box.netns,
		Hostname: p.name,
		Root:     filepath.Join(p.dir, "containers", c.Name),
		Binary:   bin,
		Args:     []string{imagePath(bin)},
		Env:      env,
	}
	for _, a := range c.Args {
		spec.Args = append(spec.Args, localpods.Expand(a, vars))
	}
	for _, m := range c.VolumeMounts {
		src := p.volumeDir(m.Name)
		if m.SubPath != "" {
			src = filepath.Join(src, m.SubPath)
			if err := os.MkdirAll(src, 0o777); err != nil {
				return nil, err
			}
			if err := os.Chmod(src, 0o777); err != nil {
				return nil, err
			}
		}
		if _, err := os.Stat(src); err != nil {
			return nil, fmt.Errorf("container %s: mount %s: volume %s: %w", c.Name, m.MountPath, m.Name, err)
		}
		spec.Mounts = append(spec.Mounts, mount{Source: src, Target: m.MountPath, ReadOnly: m.ReadOnly})
	}
	for _, f := range []string{"hosts", "hostname", "resolv.conf"} {
		spec.Mounts = append(spec.Mounts, mount{Source: filepath.Join(p.dir, "etc", f), Target: "/etc/" + f, ReadOnly: true})
	}
	psc := p.spec.SecurityContext
	if psc == nil {
		psc = &corev1.PodSecurityContext{}
	}
	spec.UID, spec.GID = psc.RunAsUser, psc.RunAsGroup
	if sc := c.SecurityContext; sc != nil {
		if sc.RunAsUser != nil {
			spec.UID = sc.RunAsUser
		}
		if sc.RunAsGroup != nil {
			spec.GID = sc.RunAsGroup
		}
		spec.ReadOnlyRoot = ptr.Deref(sc.ReadOnlyRootFilesystem, false)
	}
	if psc.FSGroup != nil {
		spec.Groups = append(spec.Groups, *psc.FSGroup)
	}
	spec.Groups = append(spec.Groups, psc.SupplementalGroups...)

	if err := os.MkdirAll(spec.Root, 0o755); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return nil, err
	}
	specPath := filepath.Join(p.dir, "containers", c.Name+".json")
	if err := os.WriteFile(specPath, b, 0o644); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = []string{envContainer + "=" + specPath}
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWUTS}
	pr, err := startProc(p.namespace+"/"+p.name+"/"+c.Name, filepath.Join(p.dir, c.Name+".log"), cmd)
	if err != nil {
		return nil, err
	}
	p.log.Printf("started container %s (pid %d): %s", c.Name, pr.Pid(), strings.Join(spec.Args, " "))
	return pr, nil
}

// containerEnv is the container's environment: the image's PATH, what the kubelet adds
// (HOSTNAME, the kubernetes Service's KUBERNETES_SERVICE_HOST/PORT) and the container's
// env with values and field references resolved. vars are the variables $(VAR) in args
// may reference.
func (p *pod) containerEnv(c corev1.Container) (env []string, vars map[string]string, err error) {
	return localpods.ContainerEnv([]localpods.EnvVar{
		{Name: "PATH", Value: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		{Name: "HOSTNAME", Value: p.name},
		{Name: "KUBERNETES_SERVICE_HOST", Value: "127.0.0.1"},
		{Name: "KUBERNETES_SERVICE_PORT", Value: s.apiPort},
	}, c, p.fieldValue)
}
