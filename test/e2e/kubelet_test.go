//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/test/atomicwriter"
)

// defaultKubeletSync is how often the kubelet helper brings projected Secrets and
// ConfigMaps up to date. The real kubelet does it on its pod sync (--sync-frequency,
// one minute by default, plus its cache's delay); the suite uses a shorter period to stay
// fast, and LOOKOUT_E2E_KUBELET_SYNC=1m reproduces the real one.
const defaultKubeletSync = 5 * time.Second

// The images the operator puts in pod specs, and the binaries that play them.
const (
	prometheusImageRepo = "quay.io/prometheus/prometheus"
	reloaderImage       = "localhost/lookout/config-reloader:e2e"
)

// imageStore maps images to binaries. The Prometheus image's tag must be the version of
// bin/prometheus, so a pod spec naming another version does not start.
func imageStore(bin string) (map[string]string, error) {
	prom, err := binaryPath(bin, "prometheus")
	if err != nil {
		return nil, err
	}
	reloader, err := binaryPath(bin, "config-reloader")
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(prom, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", prom, err)
	}
	m := regexp.MustCompile(`^prometheus, version (\S+)`).FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("%s --version: unexpected output %q", prom, out)
	}
	return map[string]string{
		prometheusImageRepo + ":v" + string(m[1]): prom,
		reloaderImage: reloader,
	}, nil
}

// pod is one pod of a StatefulSet, run the way the StatefulSet controller and the kubelet
// would: named <statefulset>-0, its own network namespace and address, the service
// account token mounted as the ServiceAccount admission plugin adds it, volumes projected
// from the API (atomic writer, "..data" swap), init containers run to completion, then the
// containers, each in its own mount namespace with exactly its volumeMounts. Every
// defaultKubeletSync it re-projects the volumes; when the StatefulSet's pod template
// changes it recreates the pod (a rolling update), counting restarts.
type pod struct {
	name, namespace, statefulSet string
	ip                           string
	dir                          string
	box                          *sandbox
	log                          *log.Logger

	mu         sync.Mutex
	template   corev1.PodTemplateSpec
	spec       corev1.PodSpec // template spec plus the service account volume
	containers []*proc
	tokens     map[string][]byte
	restarts   int
	// wantRestarts is how many recreations the scenario expects (scenario.done checks).
	wantRestarts int
	gone         bool    // the StatefulSet was deleted
	stopErrs     []error // containers that did not exit cleanly when stopped by a sync

	stop, stopped chan struct{}
}

// runStatefulSetPod waits for the StatefulSet, starts its pod and stops it when the test
// ends. It does not wait for readiness (see pod.ready).
func runStatefulSetPod(t *testing.T, namespace, statefulSet string) *pod {
	t.Helper()
	ctx := context.Background()
	var sts appsv1.StatefulSet
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := s.k8s.Get(ctx, types.NamespacedName{Namespace: namespace, Name: statefulSet}, &sts)
		if err == nil {
			break
		}
		if !apierrors.IsNotFound(err) || time.Now().After(deadline) {
			t.Fatalf("StatefulSet %s/%s: %v", namespace, statefulSet, err)
		}
		if err := operatorAlive(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if r := ptr.Deref(sts.Spec.Replicas, 1); r != 1 {
		t.Fatalf("StatefulSet %s/%s has %d replicas; the kubelet helper runs exactly one pod per StatefulSet", namespace, statefulSet, r)
	}
	p := &pod{
		name: statefulSet + "-0", namespace: namespace, statefulSet: statefulSet,
		ip:   s.ips.allocate(),
		stop: make(chan struct{}), stopped: make(chan struct{}),
	}
	p.dir = filepath.Join(s.artifacts, "pods", namespace, p.name)
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lf, err := os.Create(filepath.Join(p.dir, "kubelet.log"))
	if err != nil {
		t.Fatal(err)
	}
	p.log = log.New(lf, "", log.Ltime|log.Lmicroseconds)
	if p.box, err = newSandbox(namespace+"/"+p.name, p.ip, p.dir, s.apiHost, s.apiPort); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, err := range p.delete() {
			t.Error(err)
		}
		lf.Close()
	})
	if err := p.create(ctx, &sts); err != nil {
		t.Fatalf("pod %s/%s: %v", namespace, p.name, err)
	}
	go p.syncLoop()
	return p
}

// url is the pod's address for a named container port, http://<pod ip>:<port>.
func (p *pod) url(portName string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.spec.Containers {
		for _, cp := range c.Ports {
			if cp.Name == portName {
				return "http://" + net.JoinHostPort(p.ip, strconv.Itoa(int(cp.ContainerPort)))
			}
		}
	}
	panic(fmt.Sprintf("pod %s has no port named %q", p.name, portName))
}

// health returns an error when a container has exited.
func (p *pod) health() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.containers {
		if err := c.alive(); err != nil {
			return fmt.Errorf("pod %s/%s: %w", p.namespace, p.name, err)
		}
	}
	return nil
}

// ready runs the containers' HTTP readiness probes once, as the kubelet does.
func (p *pod) ready() error {
	if err := p.health(); err != nil {
		return err
	}
	p.mu.Lock()
	containers := p.spec.Containers
	running := len(p.containers) == len(containers)
	p.mu.Unlock()
	if !running {
		return fmt.Errorf("pod %s/%s is not running", p.namespace, p.name)
	}
	for _, c := range containers {
		pr := c.ReadinessProbe
		if pr == nil || pr.HTTPGet == nil {
			continue
		}
		port := pr.HTTPGet.Port.IntValue()
		for _, cp := range c.Ports {
			if cp.Name == pr.HTTPGet.Port.String() {
				port = int(cp.ContainerPort)
			}
		}
		scheme := strings.ToLower(string(pr.HTTPGet.Scheme))
		if scheme == "" {
			scheme = "http"
		}
		u := fmt.Sprintf("%s://%s%s", scheme, net.JoinHostPort(p.ip, strconv.Itoa(port)), pr.HTTPGet.Path)
		resp, err := probeClient.Get(u)
		if err != nil {
			return fmt.Errorf("container %s: readiness probe: %w", c.Name, err)
		}
		resp.Body.Close()
		if resp.StatusCode < 200 || resp.StatusCode >= 400 {
			return fmt.Errorf("container %s: readiness probe %s: %s", c.Name, u, resp.Status)
		}
	}
	return nil
}

// restartCount is how many times the pod was recreated after a template change.
func (p *pod) restartCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// logs names the pod's log files, for failure messages.
func (p *pod) logs() string { return p.dir + "/*.log" }

// create sets the pod up from the StatefulSet's template and starts it.
func (p *pod) create(ctx context.Context, sts *appsv1.StatefulSet) error {
	p.mu.Lock()
	p.template = *sts.Spec.Template.DeepCopy()
	p.spec = *sts.Spec.Template.Spec.DeepCopy()
	admitServiceAccount(&p.spec)
	p.tokens = map[string][]byte{}
	p.mu.Unlock()
	p.log.Printf("creating pod from StatefulSet %s generation %d", sts.Name, sts.Generation)

	// A new pod starts with fresh volumes.
	if err := os.RemoveAll(filepath.Join(p.dir, "volumes")); err != nil {
		return err
	}
	if err := p.writeEtcFiles(); err != nil {
		return err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		missing, err := p.projectVolumes(ctx, true)
		if err != nil {
			return err
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("volumes still missing after 60s: %s", strings.Join(missing, ", "))
		}
		p.log.Printf("waiting for %s", strings.Join(missing, ", "))
		time.Sleep(200 * time.Millisecond)
	}
	for _, c := range p.spec.InitContainers {
		pr, err := p.startContainer(c)
		if err != nil {
			return err
		}
		t0 := time.Now()
		if err := pr.wait(60 * time.Second); err != nil {
			return fmt.Errorf("init container: %w", err)
		}
		p.log.Printf("init container %s completed in %s", c.Name, time.Since(t0).Round(time.Millisecond))
	}
	var started []*proc
	for _, c := range p.spec.Containers {
		pr, err := p.startContainer(c)
		if err != nil {
			for _, o := range started {
				_ = o.stop(5 * time.Second)
			}
			return err
		}
		started = append(started, pr)
	}
	p.mu.Lock()
	p.containers = started
	p.mu.Unlock()
	return nil
}

// admitServiceAccount does what the ServiceAccount admission plugin does to a pod that
// automounts its token: a projected kube-api-access volume (token, the cluster CA from
// kube-root-ca.crt, the namespace) mounted read-only in every container at
// /var/run/secrets/kubernetes.io/serviceaccount, unless a container mounts that path
// already. envtest disables the plugin, so the helper applies it.
func admitServiceAccount(spec *corev1.PodSpec) {
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = "default"
	}
	if !ptr.Deref(spec.AutomountServiceAccountToken, true) {
		return
	}
	const name = "kube-api-access-e2e"
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3607)}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}, Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}})
	add := func(cs []corev1.Container) {
		for i := range cs {
			has := false
			for _, m := range cs[i].VolumeMounts {
				has = has || m.MountPath == layout.ServiceAccountDir
			}
			if !has {
				cs[i].VolumeMounts = append(cs[i].VolumeMounts, corev1.VolumeMount{Name: name, MountPath: layout.ServiceAccountDir, ReadOnly: true})
			}
		}
	}
	add(spec.InitContainers)
	add(spec.Containers)
}

// writeEtcFiles writes the hosts, hostname and resolv.conf files the kubelet mounts into
// every container. There is no cluster DNS: the name server is the pod's own loopback,
// where nothing listens, so a lookup of another name fails at once.
func (p *pod) writeEtcFiles() error {
	files := map[string]string{
		"hosts":       fmt.Sprintf("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n%s\t%s\n", p.ip, p.name),
		"hostname":    p.name + "\n",
		"resolv.conf": "nameserver 127.0.0.1\noptions ndots:5\n",
	}
	dir := filepath.Join(p.dir, "etc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (p *pod) volumeDir(name string) string { return filepath.Join(p.dir, "volumes", name) }

// projectVolumes brings every volume up to date. It returns the required Secrets and
// ConfigMaps that do not exist (the kubelet waits for them before starting a pod, and
// keeps the last content of a volume whose source went away). first creates emptyDirs.
func (p *pod) projectVolumes(ctx context.Context, first bool) (missing []string, err error) {
	p.mu.Lock()
	volumes := p.spec.Volumes
	p.mu.Unlock()
	for _, v := range volumes {
		dir := p.volumeDir(v.Name)
		var files map[string][]byte
		var absent []string
		switch {
		case v.EmptyDir != nil:
			if first {
				if err := os.MkdirAll(dir, 0o777); err != nil {
					return nil, err
				}
				if err := os.Chmod(dir, 0o777); err != nil {
					return nil, err
				}
			}
			continue
		case v.Secret != nil:
			files = map[string][]byte{}
			absent, err = p.project(ctx, files, "Secret", v.Secret.SecretName, v.Secret.Items, ptr.Deref(v.Secret.Optional, false))
		case v.ConfigMap != nil:
			files = map[string][]byte{}
			absent, err = p.project(ctx, files, "ConfigMap", v.ConfigMap.Name, v.ConfigMap.Items, ptr.Deref(v.ConfigMap.Optional, false))
		case v.Projected != nil:
			files = map[string][]byte{}
			for _, src := range v.Projected.Sources {
				var a []string
				switch {
				case src.Secret != nil:
					a, err = p.project(ctx, files, "Secret", src.Secret.Name, src.Secret.Items, ptr.Deref(src.Secret.Optional, false))
				case src.ConfigMap != nil:
					a, err = p.project(ctx, files, "ConfigMap", src.ConfigMap.Name, src.ConfigMap.Items, ptr.Deref(src.ConfigMap.Optional, false))
				case src.ServiceAccountToken != nil:
					var tok []byte
					if tok, err = p.token(ctx, v.Name, src.ServiceAccountToken); err == nil {
						files[src.ServiceAccountToken.Path] = tok
					}
				case src.DownwardAPI != nil:
					err = p.downwardAPI(files, src.DownwardAPI.Items)
				default:
					err = fmt.Errorf("volume %s: unsupported projection %+v", v.Name, src)
				}
				if err != nil {
					break
				}
				absent = append(absent, a...)
			}
		default:
			return nil, fmt.Errorf("volume %s: the kubelet helper supports emptyDir, secret, configMap and projected volumes only", v.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("volume %s: %w", v.Name, err)
		}
		if len(absent) > 0 {
			missing = append(missing, absent...)
			continue
		}
		if err := atomicwriter.Write(dir, files); err != nil {
			return nil, err
		}
	}
	return missing, nil
}

// project adds the keys of a Secret or ConfigMap (or the listed items) to files. A
// missing object or key is returned as absent unless optional (then it adds nothing).
func (p *pod) project(ctx context.Context, files map[string][]byte, kind, name string, items []corev1.KeyToPath, optional bool) (absent []string, err error) {
	data := map[string][]byte{}
	key := types.NamespacedName{Namespace: p.namespace, Name: name}
	switch kind {
	case "Secret":
		var sec corev1.Secret
		if err = s.k8s.Get(ctx, key, &sec); err == nil {
			data = sec.Data
		}
	default:
		var cm corev1.ConfigMap
		if err = s.k8s.Get(ctx, key, &cm); err == nil {
			for k, v := range cm.Data {
				data[k] = []byte(v)
			}
			for k, v := range cm.BinaryData {
				data[k] = v
			}
		}
	}
	if apierrors.IsNotFound(err) {
		if optional {
			return nil, nil
		}
		return []string{kind + " " + name}, nil
	}
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		for k, v := range data {
			files[k] = v
		}
		return nil, nil
	}
	for _, it := range items {
		v, ok := data[it.Key]
		if !ok {
			if optional {
				continue
			}
			return []string{fmt.Sprintf("key %s of %s %s", it.Key, kind, name)}, nil
		}
		files[it.Path] = v
	}
	return nil, nil
}

// token requests a service account token with the TokenRequest API, once per volume for
// the pod's lifetime (the kubelet refreshes it at 80% of its life, far beyond a test).
func (p *pod) token(ctx context.Context, volume string, src *corev1.ServiceAccountTokenProjection) ([]byte, error) {
	p.mu.Lock()
	tok, ok := p.tokens[volume]
	sa := p.spec.ServiceAccountName
	p.mu.Unlock()
	if ok {
		return tok, nil
	}
	tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: src.ExpirationSeconds}}
	if src.Audience != "" {
		tr.Spec.Audiences = []string{src.Audience}
	}
	account := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: p.namespace, Name: sa}}
	if err := s.k8s.SubResource("token").Create(ctx, account, tr); err != nil {
		return nil, fmt.Errorf("token for service account %s/%s: %w", p.namespace, sa, err)
	}
	tok = []byte(tr.Status.Token)
	p.mu.Lock()
	p.tokens[volume] = tok
	p.mu.Unlock()
	return tok, nil
}

func (p *pod) downwardAPI(files map[string][]byte, items []corev1.DownwardAPIVolumeFile) error {
	for _, it := range items {
		if it.FieldRef == nil {
			return fmt.Errorf("downward API item %s: only fieldRef is supported", it.Path)
		}
		v, err := p.fieldValue(it.FieldRef.FieldPath)
		if err != nil {
			return err
		}
		files[it.Path] = []byte(v)
	}
	return nil
}

func (p *pod) fieldValue(path string) (string, error) {
	switch path {
	case "metadata.name":
		return p.name, nil
	case "metadata.namespace":
		return p.namespace, nil
	case "status.podIP":
		return p.ip, nil
	case "spec.serviceAccountName":
		return p.spec.ServiceAccountName, nil
	}
	return "", fmt.Errorf("field %s is not supported by the kubelet helper", path)
}

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
		spec.Args = append(spec.Args, expand(a, vars))
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
	p.log.Printf("started container %s (pid %d): %s", c.Name, pr.cmd.Process.Pid, strings.Join(spec.Args, " "))
	return pr, nil
}

// containerEnv is the container's environment: the image's PATH, what the kubelet adds
// (HOSTNAME, the kubernetes Service's KUBERNETES_SERVICE_HOST/PORT) and the container's
// env with values and field references resolved. vars are the variables $(VAR) in args
// may reference.
func (p *pod) containerEnv(c corev1.Container) (env []string, vars map[string]string, err error) {
	vars = map[string]string{
		"PATH":                    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOSTNAME":                p.name,
		"KUBERNETES_SERVICE_HOST": "127.0.0.1",
		"KUBERNETES_SERVICE_PORT": s.apiPort,
	}
	order := []string{"PATH", "HOSTNAME", "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT"}
	for _, e := range c.Env {
		var v string
		switch {
		case e.ValueFrom == nil:
			v = expand(e.Value, vars)
		case e.ValueFrom.FieldRef != nil:
			if v, err = p.fieldValue(e.ValueFrom.FieldRef.FieldPath); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("env %s: only values and fieldRef are supported", e.Name)
		}
		if _, seen := vars[e.Name]; !seen {
			order = append(order, e.Name)
		}
		vars[e.Name] = v
	}
	for _, k := range order {
		env = append(env, k+"="+vars[k])
	}
	return env, vars, nil
}

// expand resolves $(VAR) references the way the kubelet does for args and env values:
// a defined VAR is replaced, an undefined one is left as written, $$ is a literal $.
func expand(in string, vars map[string]string) string {
	var out strings.Builder
	for i := 0; i < len(in); i++ {
		if in[i] != '$' || i+1 >= len(in) {
			out.WriteByte(in[i])
			continue
		}
		switch next := in[i+1]; next {
		case '$':
			out.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(in[i+2:], ')')
			if end < 0 {
				out.WriteString("$(")
				i++
				continue
			}
			name := in[i+2 : i+2+end]
			if v, ok := vars[name]; ok {
				out.WriteString(v)
			} else {
				out.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			out.WriteByte('$')
			out.WriteByte(next)
			i++
		}
	}
	return out.String()
}

// syncLoop is the kubelet's periodic pod sync.
func (p *pod) syncLoop() {
	defer close(p.stopped)
	tick := time.NewTicker(s.kubeSync)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		if err := p.sync(context.Background()); err != nil {
			p.log.Printf("sync: %v", err)
		}
	}
}

func (p *pod) sync(ctx context.Context) error {
	var sts appsv1.StatefulSet
	err := s.k8s.Get(ctx, types.NamespacedName{Namespace: p.namespace, Name: p.statefulSet}, &sts)
	if apierrors.IsNotFound(err) {
		p.mu.Lock()
		gone := p.gone
		p.gone = true
		p.mu.Unlock()
		if !gone {
			p.log.Printf("StatefulSet deleted: deleting the pod")
			p.recordStop(p.stopContainers())
		}
		return nil
	}
	if err != nil {
		return err
	}
	p.mu.Lock()
	changed := !equality.Semantic.DeepEqual(sts.Spec.Template, p.template)
	p.mu.Unlock()
	if changed {
		p.log.Printf("pod template changed (generation %d): recreating the pod", sts.Generation)
		p.recordStop(p.stopContainers())
		p.mu.Lock()
		p.restarts++
		p.mu.Unlock()
		return p.create(ctx, &sts)
	}
	_, err = p.projectVolumes(ctx, false)
	return err
}

// stopContainers sends SIGTERM to every container and waits for them, as the kubelet does
// on pod deletion (the grace period is capped at 15s here). It returns unclean exits.
func (p *pod) stopContainers() []error {
	p.mu.Lock()
	cs := p.containers
	p.containers = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, len(cs))
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.stop(15 * time.Second)
		}()
	}
	wg.Wait()
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

func (p *pod) recordStop(errs []error) {
	for _, err := range errs {
		p.log.Printf("stopping: %v", err)
	}
	p.mu.Lock()
	p.stopErrs = append(p.stopErrs, errs...)
	p.mu.Unlock()
}

// isGone reports whether the pod was deleted with its StatefulSet.
func (p *pod) isGone() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gone
}

// delete stops the sync loop, the containers and the sandbox, and returns the containers
// that did not exit cleanly on SIGTERM over the pod's life.
func (p *pod) delete() []error {
	close(p.stop)
	<-p.stopped
	p.recordStop(p.stopContainers())
	p.box.close()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopErrs
}

// waitReady polls the readiness probes.
func (p *pod) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := p.ready()
		if err == nil {
			return nil
		}
		if herr := p.health(); herr != nil || time.Now().After(deadline) {
			if herr != nil {
				return herr
			}
			return fmt.Errorf("pod %s/%s not ready after %s: %v (logs: %s)", p.namespace, p.name, timeout, err, p.logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var httpc = &http.Client{Timeout: 5 * time.Second}

// probeClient is the kubelet's: HTTPS probes do not verify the certificate.
var probeClient = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
