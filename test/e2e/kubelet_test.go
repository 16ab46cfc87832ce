//go:build e2e

package e2e

import (
	"context"
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
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/localpods"
)

// defaultKubeletSync is how often the kubelet helper brings projected Secrets and
// ConfigMaps up to date. The real kubelet does it on its pod sync (--sync-frequency,
// one minute by default, plus its cache's delay); the suite uses a shorter period to stay
// fast, and LOOKOUT_E2E_KUBELET_SYNC=1m reproduces the real one.
const defaultKubeletSync = 5 * time.Second

// The images the operator puts in pod specs, and the binaries that play them.
const (
	prometheusImageRepo   = "quay.io/prometheus/prometheus"
	alertmanagerImageRepo = "quay.io/prometheus/alertmanager"
	reloaderImage         = "localhost/lookout/config-reloader:e2e"
	// upstreamReloaderImage is prometheus-operator's reloader (bin/prometheus-config-reloader,
	// built by `make tools`), for the scenarios that give it to an operator.
	upstreamReloaderImage = "localhost/prometheus-operator/prometheus-config-reloader:e2e"
	// thanosImageRepo is the operator's default Thanos base image; bin/thanos (built by
	// `make tools`) plays it, tagged with its version.
	thanosImageRepo = "quay.io/thanos/thanos"
)

// imageStore maps images to binaries. The Prometheus and Alertmanager images' tags must
// be the versions of bin/prometheus and bin/alertmanager, so a pod spec naming another
// version does not start. Upstream's reloader and Thanos are in the store only when they
// were built; TestUpstreamReloader and TestThanosSidecar say how.
func imageStore(bin string) (map[string]string, error) {
	reloader, err := binaryPath(bin, "config-reloader")
	if err != nil {
		return nil, err
	}
	images := map[string]string{reloaderImage: reloader}
	for _, product := range []struct{ name, repo string }{
		{"prometheus", prometheusImageRepo},
		{"alertmanager", alertmanagerImageRepo},
	} {
		path, err := binaryPath(bin, product.name)
		if err != nil {
			return nil, err
		}
		v, err := binaryVersion(path, product.name)
		if err != nil {
			return nil, err
		}
		images[product.repo+":v"+v] = path
	}
	if upstream, err := binaryPath(bin, "prometheus-config-reloader"); err == nil {
		images[upstreamReloaderImage] = upstream
	}
	if thanos, err := binaryPath(bin, "thanos"); err == nil {
		v, err := binaryVersion(thanos, "thanos")
		if err != nil {
			return nil, err
		}
		images[thanosImageRepo+":v"+v] = thanos
	}
	return images, nil
}

// binaryVersion is the version a Prometheus project's binary reports ("<name>, version
// 0.35.0 (branch: …").
func binaryVersion(path, name string) (string, error) {
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", path, err)
	}
	m := regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `, version (\S+)`).FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("%s --version: unexpected output %q", path, out)
	}
	return string(m[1]), nil
}

// imageVersion is the tag (without its v) of the image of repo in the image store: the
// version of the binary that plays it, for spec.version.
func imageVersion(repo string) string {
	for image := range s.images {
		if v, ok := strings.CutPrefix(image, repo+":v"); ok {
			return v
		}
	}
	panic("no image of " + repo + " in the image store")
}

// pod is one pod of a StatefulSet, run the way the StatefulSet controller and the kubelet
// would: named <statefulset>-<ordinal>, its own network namespace and address, the service
// account token mounted as the ServiceAccount admission plugin adds it, volumes projected
// from the API (atomic writer, "..data" swap), init containers run to completion, then the
// containers, each in its own mount namespace with exactly its volumeMounts. Every
// defaultKubeletSync it re-projects the volumes; when the StatefulSet's pod template
// changes it recreates the pod (a rolling update), counting restarts.
type pod struct {
	name, namespace, statefulSet string
	ip                           string
	// replicas are every pod of the StatefulSet (this one included), which the hosts file
	// names under the governing Service (serviceName) as cluster DNS would.
	replicas    []replica
	serviceName string
	dir         string
	box         *sandbox
	log         *log.Logger

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

	syncing       bool // syncLoop runs (the pod was created)
	stop, stopped chan struct{}
}

// replica is the name and address of one pod of a StatefulSet.
type replica struct{ name, ip string }

// runStatefulSetPod runs the pod of a StatefulSet of one replica (runStatefulSetPods).
func runStatefulSetPod(t *testing.T, namespace, statefulSet string) *pod {
	t.Helper()
	pods := runStatefulSetPods(t, namespace, statefulSet)
	if len(pods) != 1 {
		t.Fatalf("StatefulSet %s/%s has %d replicas, want 1", namespace, statefulSet, len(pods))
	}
	return pods[0]
}

// runStatefulSetPods waits for the StatefulSet, starts its pods <statefulset>-0 to
// <statefulset>-<replicas-1> (every address is allocated first, so that each pod's hosts
// file names all of them) and stops them when the test ends. It does not wait for
// readiness (see pod.ready). The number of replicas is the one the StatefulSet has now: a
// later scale is not followed.
func runStatefulSetPods(t *testing.T, namespace, statefulSet string) []*pod {
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
	n := int(ptr.Deref(sts.Spec.Replicas, 1))
	if n < 1 {
		t.Fatalf("StatefulSet %s/%s has %d replicas; the kubelet helper runs at least one pod", namespace, statefulSet, n)
	}
	replicas := make([]replica, n)
	for i := range replicas {
		replicas[i] = replica{name: fmt.Sprintf("%s-%d", statefulSet, i), ip: s.ips.allocate()}
	}
	pods := make([]*pod, n)
	for i, r := range replicas {
		p := &pod{
			name: r.name, namespace: namespace, statefulSet: statefulSet, ip: r.ip,
			replicas: replicas, serviceName: sts.Spec.ServiceName,
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
		p.syncing = true
		go p.syncLoop()
		pods[i] = p
	}
	return pods
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
		if err := c.Alive(); err != nil {
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
		err := localpods.ProbeReadiness(c, func(cport int32) (string, int, bool) { return p.ip, int(cport), true })
		if err != nil {
			return err
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
		if err := pr.Wait(60 * time.Second); err != nil {
			return fmt.Errorf("init container: %w", err)
		}
		p.log.Printf("init container %s completed in %s", c.Name, time.Since(t0).Round(time.Millisecond))
	}
	var started []*proc
	for _, c := range p.spec.Containers {
		pr, err := p.startContainer(c)
		if err != nil {
			for _, o := range started {
				_ = o.Stop(5 * time.Second)
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
			errs[i] = c.Stop(15 * time.Second)
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
	if p.syncing {
		<-p.stopped
	}
	p.recordStop(p.stopContainers())
	p.box.close()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopErrs
}

var httpc = &http.Client{Timeout: 5 * time.Second}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
