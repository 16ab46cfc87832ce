package localpods

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// pod is one replica of a StatefulSet, run as processes.
type pod struct {
	r                            *Runner
	namespace, name, statefulSet string
	ordinal                      int
	ip                           string // address in the API, "" without a pod subnet
	dir                          string
	ports                        ports          // container port -> host port, kept across recreations
	portNames                    map[string]int // port name -> host port

	mu         sync.Mutex
	template   *corev1.PodTemplateSpec // the template running, nil before the first start
	config     configRewrite
	containers map[string]*Process // by container name
	order      []string            // container names in start order
	restarts   map[string]int
	ready      bool
	podObject  bool   // the runner created this pod's Pod object (pod subnet only)
	podUID     string // its UID
	announced  bool   // OnReady was called for this creation
	waiting    string // why the pod is not started yet (logged once)
}

func newPod(r *Runner, namespace, name, statefulSet string, ordinal int) *pod {
	return &pod{
		r: r, namespace: namespace, name: name, statefulSet: statefulSet, ordinal: ordinal,
		dir:   filepath.Join(r.o.Dir, namespace, name),
		ports: ports{}, portNames: map[string]int{},
	}
}

func (p *pod) logf(format string, args ...any) {
	p.r.o.Logf("pod %s/%s: "+format, append([]any{p.namespace, p.name}, args...)...)
}

func (p *pod) isReady() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ready
}

// endpointView is what an endpoint controller sees: the pod's labels, its spec (nil when
// not running) and readiness.
func (p *pod) endpointView() (map[string]string, *corev1.PodSpec, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.template == nil {
		return nil, nil, false
	}
	l := map[string]string{"statefulset.kubernetes.io/pod-name": p.name, "apps.kubernetes.io/pod-index": strconv.Itoa(p.ordinal)}
	for k, v := range p.template.Labels {
		l[k] = v
	}
	return l, &p.template.Spec, p.ready
}

func (p *pod) info() PodInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	in := PodInfo{Namespace: p.namespace, Name: p.name, StatefulSet: p.statefulSet, Dir: p.dir,
		Ports: map[string]int{}, PIDs: map[string]int{}, IP: p.ip}
	if p.template != nil {
		for _, c := range p.template.Spec.Containers {
			in.Containers = append(in.Containers, c.Name)
		}
	}
	for k, v := range p.portNames {
		in.Ports[k] = v
	}
	for name, c := range p.containers {
		in.PIDs[name] = c.Pid()
	}
	return in
}

// sync brings the pod in line with its StatefulSet: start it, recreate it on a template
// change, re-project volumes, restart exited containers, probe readiness.
func (p *pod) sync(ctx context.Context, sts *appsv1.StatefulSet) error {
	p.mu.Lock()
	running := p.template
	p.mu.Unlock()
	if running != nil && !equality.Semantic.DeepEqual(&sts.Spec.Template, running) {
		p.logf("pod template changed (generation %d): recreating the pod", sts.Generation)
		p.stopContainers()
		p.deletePodObject()
		running = nil
	}
	if running == nil {
		return p.create(ctx, sts)
	}
	spec := &running.Spec
	if _, err := p.projectVolumes(ctx, spec); err != nil {
		return err
	}
	for _, c := range spec.Containers {
		p.mu.Lock()
		pr := p.containers[c.Name]
		p.mu.Unlock()
		if pr == nil || !pr.Exited() {
			continue
		}
		// Back off like the kubelet: 1s, 2s, 4s ... up to 30s after each exit.
		p.mu.Lock()
		n := p.restarts[c.Name]
		p.mu.Unlock()
		if time.Since(pr.exitedAt) < min(time.Second<<min(n, 5), 30*time.Second) {
			continue
		}
		p.logf("container %s exited (%v); restarting it (restart %d). End of %s:\n%s", c.Name, pr.err, n+1, pr.Log(), Tail(pr.Log(), 10))
		npr, err := p.startContainer(c, spec)
		if err != nil {
			return err
		}
		p.mu.Lock()
		p.containers[c.Name] = npr
		p.restarts[c.Name]++
		p.mu.Unlock()
	}
	ready := p.probe(spec) == nil
	p.mu.Lock()
	p.ready = ready
	p.mu.Unlock()
	if p.ip != "" {
		gone, err := p.syncPodObject(ctx, sts, running)
		if err != nil {
			return err
		}
		if gone {
			p.logf("the Pod object was deleted: stopping the pod; it is created again")
			p.stopContainers()
			p.mu.Lock()
			p.podObject, p.podUID = false, ""
			p.mu.Unlock()
			return nil
		}
	}
	p.mu.Lock()
	announce := ready && !p.announced
	if announce {
		p.announced = true
	}
	p.mu.Unlock()
	if announce {
		p.logf("ready")
		if p.r.o.OnReady != nil {
			p.r.o.OnReady(p.info())
		}
	}
	return nil
}

// create sets the pod up from the template: ports, directories, volumes (it waits, one
// sync after another, for the Secrets and ConfigMaps to exist), init containers, then
// containers.
func (p *pod) create(ctx context.Context, sts *appsv1.StatefulSet) error {
	tmpl := sts.Spec.Template.DeepCopy()
	spec := &tmpl.Spec
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return err
	}
	if err := p.allocatePorts(spec); err != nil {
		return err
	}
	claims := map[string]bool{}
	for _, c := range sts.Spec.VolumeClaimTemplates {
		claims[c.Name] = true
	}
	p.mu.Lock()
	p.config = configRewrite{paths: p.fileMounts(spec, claims), kubeconfig: p.r.o.Kubeconfig}
	p.mu.Unlock()
	if err := p.makeDirs(spec, claims); err != nil {
		return err
	}
	missing, err := p.projectVolumes(ctx, spec)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		p.wait("waiting for " + strings.Join(missing, ", "))
		return nil
	}
	for _, c := range append(spec.InitContainers, spec.Containers...) {
		if _, err := p.r.o.Images(c.Image); err != nil {
			p.wait(fmt.Sprintf("container %s: %v", c.Name, err))
			return nil
		}
	}
	p.mu.Lock()
	p.waiting = ""
	p.mu.Unlock()
	for _, c := range spec.InitContainers {
		pr, err := p.startContainer(c, spec)
		if err != nil {
			return err
		}
		t0 := time.Now()
		waited := make(chan error, 1)
		go func() { waited <- pr.Wait(60 * time.Second) }()
		select {
		case err := <-waited:
			if err != nil {
				return fmt.Errorf("init container %s: %w", c.Name, err)
			}
		case <-ctx.Done():
			// Stopping: do not hold the runner up for an init container.
			_ = pr.Stop(5 * time.Second)
			return ctx.Err()
		}
		p.logf("init container %s completed in %s", c.Name, time.Since(t0).Round(time.Millisecond))
	}
	started := map[string]*Process{}
	var order []string
	for _, c := range spec.Containers {
		pr, err := p.startContainer(c, spec)
		if err != nil {
			for _, o := range started {
				_ = o.Stop(5 * time.Second)
			}
			return err
		}
		started[c.Name] = pr
		order = append(order, c.Name)
	}
	p.mu.Lock()
	p.template = tmpl
	p.containers, p.order = started, order
	p.restarts = map[string]int{}
	p.ready, p.announced = false, false
	p.mu.Unlock()
	return nil
}

// wait logs why the pod cannot start or sync, once per reason.
func (p *pod) wait(reason string) {
	p.mu.Lock()
	same := p.waiting == reason
	p.waiting = reason
	p.mu.Unlock()
	if !same {
		p.logf("%s", reason)
	}
}

// allocatePorts gives every container port a free port on 127.0.0.1 (once per pod: a
// recreated pod keeps its ports, so its addresses stay the same).
func (p *pod) allocatePorts(spec *corev1.PodSpec) error {
	for _, c := range append(spec.InitContainers, spec.Containers...) {
		for _, cp := range c.Ports {
			host, ok := p.ports[cp.ContainerPort]
			if !ok {
				var err error
				if host, err = freePort(); err != nil {
					return err
				}
				p.ports[cp.ContainerPort] = host
			}
			name := cp.Name
			if name == "" {
				name = strconv.Itoa(int(cp.ContainerPort))
			}
			p.mu.Lock()
			p.portNames[name] = host
			p.mu.Unlock()
		}
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// mounts maps a container's mount paths to host paths.
func (p *pod) mounts(c corev1.Container) paths {
	m := paths{}
	for _, vm := range c.VolumeMounts {
		m[vm.MountPath] = filepath.Join(p.volumeDir(vm.Name), vm.SubPath)
	}
	return m
}

// fileMounts maps the mount paths of the pod's Secret, ConfigMap and projected volumes to
// host directories: what a configuration file read from a volume may point to.
func (p *pod) fileMounts(spec *corev1.PodSpec, claims map[string]bool) paths {
	files := map[string]bool{}
	for _, v := range spec.Volumes {
		if hasFiles(v) {
			files[v.Name] = true
		}
	}
	m := paths{}
	for _, c := range append(spec.InitContainers, spec.Containers...) {
		for _, vm := range c.VolumeMounts {
			if _, seen := m[vm.MountPath]; !seen && files[vm.Name] {
				m[vm.MountPath] = filepath.Join(p.volumeDir(vm.Name), vm.SubPath)
			}
		}
	}
	return m
}

// startContainer starts one container's process.
func (p *pod) startContainer(c corev1.Container, spec *corev1.PodSpec) (*Process, error) {
	img, err := p.r.o.Images(c.Image)
	if err != nil {
		return nil, fmt.Errorf("container %s: %w", c.Name, err)
	}
	env, vars, err := p.containerEnv(c)
	if err != nil {
		return nil, fmt.Errorf("container %s: %w", c.Name, err)
	}
	m := p.mounts(c)
	var args []string
	for _, a := range append(append([]string{}, c.Command...), c.Args...) {
		args = append(args, p.ports.rewriteArg(m.rewriteArg(Expand(a, vars))))
	}
	if len(c.Command) > 0 {
		// The command replaces the image's entrypoint: its first word names the binary
		// inside the image, which is the image's binary here.
		args = args[1:]
	}
	if img.ListenFlag != "" && len(c.Ports) > 0 && !hasFlag(args, img.ListenFlag) {
		args = append(args, img.ListenFlag+"=127.0.0.1:"+strconv.Itoa(p.ports[c.Ports[0].ContainerPort]))
	}
	for _, vm := range c.VolumeMounts {
		// A subPath missing from the volume is created as a directory, as the kubelet does;
		// one that exists (a file of a Secret volume: web-config.yaml) is used as it is.
		if sub := filepath.Join(p.volumeDir(vm.Name), vm.SubPath); vm.SubPath != "" && !exists(sub) {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return nil, err
			}
		}
	}
	cmd := exec.Command(img.Binary, args...)
	cmd.Env = env
	cmd.Dir = p.dir
	// Its own process group: a terminal's Ctrl-C reaches lookout-local, which stops the
	// containers itself.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, err := StartProcess(p.namespace+"/"+p.name+"/"+c.Name, filepath.Join(p.dir, c.Name+".log"), cmd)
	if err != nil {
		return nil, err
	}
	p.logf("started %s (pid %d): %s %s", c.Name, pr.Pid(), filepath.Base(img.Binary), strings.Join(args, " "))
	return pr, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}

// containerEnv is the container's environment: the host's PATH and HOME, HOSTNAME,
// Options.Env, and the container's env. vars are what $(VAR) in args may reference.
func (p *pod) containerEnv(c corev1.Container) (env []string, vars map[string]string, err error) {
	base := []EnvVar{{"PATH", os.Getenv("PATH")}, {"HOME", os.Getenv("HOME")}, {"HOSTNAME", p.name}}
	base = append(base, p.r.o.Env...)
	return ContainerEnv(base, c, p.fieldValue)
}

func (p *pod) fieldValue(path string) (string, error) {
	switch path {
	case "metadata.name":
		return p.name, nil
	case "metadata.namespace":
		return p.namespace, nil
	case "status.podIP", "status.hostIP":
		return "127.0.0.1", nil
	case "spec.nodeName":
		h, _ := os.Hostname()
		return h, nil
	case "metadata.labels['apps.kubernetes.io/pod-index']":
		return strconv.Itoa(p.ordinal), nil
	}
	return "", fmt.Errorf("field %s does not run locally", path)
}

// probe runs every container's HTTP readiness probe once, at the host port standing for
// the probed container port.
func (p *pod) probe(spec *corev1.PodSpec) error {
	for _, c := range spec.Containers {
		err := ProbeReadiness(c, func(cport int32) (string, int, bool) {
			host, ok := p.ports[cport]
			return "127.0.0.1", host, ok
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// stopContainers stops every container (SIGTERM, then SIGKILL after 10s).
func (p *pod) stopContainers() {
	p.mu.Lock()
	cs := p.containers
	p.containers, p.order, p.template = nil, nil, nil
	p.ready = false
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.Stop(10 * time.Second)
		}()
	}
	wg.Wait()
}

// remove stops the pod, deletes its Pod object and its directory (its volumes only with
// Options.KeepLogs).
func (p *pod) remove() {
	p.stopContainers()
	p.deletePodObject()
	dir := p.dir
	if p.r.o.KeepLogs {
		dir = p.volumesDir()
	}
	if err := os.RemoveAll(dir); err != nil {
		p.logf("removing %s: %v", dir, err)
	}
}
