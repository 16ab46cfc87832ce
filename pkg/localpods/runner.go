package localpods

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Image is the local stand-in for a container image.
type Image struct {
	// Binary is the executable the image's entrypoint runs.
	Binary string
	// ListenFlag is the flag setting the binary's listen address. When the container's
	// args do not give it, the runner adds it with the host port of the container's first
	// port (Prometheus listens on :9090 unless told otherwise: --web.listen-address).
	ListenFlag string
}

// Options configure a Runner.
type Options struct {
	// Client reads StatefulSets, Secrets and ConfigMaps and writes StatefulSet status.
	Client client.Client
	// Dir holds a directory per pod (<namespace>/<pod>: volumes and container logs),
	// removed when the pod stops.
	Dir string
	// KeepLogs keeps the container logs of a stopped pod (<namespace>/<pod>/<container>.log)
	// and removes only its volumes, for a caller that reads them afterwards.
	KeepLogs bool
	// Images maps a container image to its local binary; an error leaves the pod pending.
	Images func(image string) (Image, error)
	// Kubeconfig is the file Prometheus's Kubernetes discovery uses to reach the API
	// server (in-cluster discovery reads a token from a path that needs root).
	Kubeconfig string
	// Addresses maps addresses a scrape job or Alertmanager set discovers ("10.10.0.11:8080")
	// to local ones that serve them ("127.0.0.1:41234").
	Addresses map[string]string
	// SyncPeriod is how often StatefulSets, volumes, processes and probes are checked
	// (default 1s). The kubelet syncs volumes every minute or so; locally faster is nicer.
	SyncPeriod time.Duration
	// Logf receives one line per pod event (default: discarded).
	Logf func(format string, args ...any)
	// OnReady is called when a pod becomes ready after it was created or recreated.
	OnReady func(PodInfo)
	// PodSubnet, when set ("10.244.0.0/24"), gives every pod an address from it and makes
	// the runner play the EndpointSlice controller for the Services selecting its pods:
	// discovery finds <pod address>:<container port>, which the Prometheus configurations
	// it rewrites map to 127.0.0.1:<host port> like Addresses.
	PodSubnet string
	// Env is added to every container's environment after PATH, HOME and HOSTNAME and
	// before the container's own env: what the kubelet adds for the cluster
	// (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT for in-cluster clients).
	Env []EnvVar
	// VerbatimConfigs projects Prometheus configurations as they are in the API instead
	// of rewriting them (mount paths, a kubeconfig for Kubernetes discovery, address
	// relabelings). It is for a caller that makes the paths and the in-cluster API access
	// of the configuration true on this host itself (the scale harness's end-to-end mode
	// mounts a service account at the in-cluster path in a mount namespace of its own, and
	// its configurations name no files), so that what Prometheus loads is byte for byte
	// what the operator wrote and a file-mode reload costs what it costs in a cluster.
	VerbatimConfigs bool
}

// PodInfo describes a running pod.
type PodInfo struct {
	Namespace, Name, StatefulSet string
	// Dir is the pod's directory: volumes/<volume> and <container>.log.
	Dir string
	// Ports maps each container port, by name (or number when unnamed), to the host port
	// on 127.0.0.1 that stands for it.
	Ports map[string]int
	// PIDs maps each running container to its process id.
	PIDs map[string]int
	// IP is the pod's address in the API (EndpointSlices), empty without a PodSubnet.
	IP string
	// Containers are the names of the pod's containers.
	Containers []string
}

// Runner runs the pods of every StatefulSet the client sees.
type Runner struct {
	o    Options
	ips  *podIPs // nil without a PodSubnet
	mu   sync.Mutex
	pods map[string]*pod // by namespace/name
	// slices are the Services (namespace/name) whose EndpointSlice the runner wrote, so
	// that a sync asks the API only about them and the Services selecting its pods (nil
	// until the first sync lists the slices it manages). Only Run's goroutine uses it.
	slices map[string]bool
}

// New returns a Runner; Run starts it.
func New(o Options) *Runner {
	if o.SyncPeriod <= 0 {
		o.SyncPeriod = time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return &Runner{o: o, pods: map[string]*pod{}}
}

// Run syncs pods with the StatefulSets until ctx is done, then stops every pod and
// removes its directory.
func (r *Runner) Run(ctx context.Context) error {
	if r.o.PodSubnet != "" {
		ips, err := newPodIPs(r.o.PodSubnet)
		if err != nil {
			return err
		}
		r.ips = ips
	}
	defer r.stopAll()
	tick := time.NewTicker(r.o.SyncPeriod)
	defer tick.Stop()
	for {
		if err := r.syncAll(ctx); err != nil && ctx.Err() == nil {
			r.o.Logf("sync: %v", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// Pods describes the pods running now, sorted by namespace and name.
func (r *Runner) Pods() []PodInfo {
	r.mu.Lock()
	ps := make([]*pod, 0, len(r.pods))
	for _, p := range r.pods {
		ps = append(ps, p)
	}
	r.mu.Unlock()
	out := make([]PodInfo, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.info())
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Namespace+"/"+out[i].Name < out[j].Namespace+"/"+out[j].Name
	})
	return out
}

func (r *Runner) syncAll(ctx context.Context) error {
	var list appsv1.StatefulSetList
	if err := r.o.Client.List(ctx, &list); err != nil {
		return fmt.Errorf("listing StatefulSets: %w", err)
	}
	want := map[string]bool{}
	for i := range list.Items {
		sts := &list.Items[i]
		if sts.DeletionTimestamp != nil {
			continue
		}
		n := int(ptr.Deref(sts.Spec.Replicas, 1))
		ready := 0
		for ord := range n {
			name := fmt.Sprintf("%s-%d", sts.Name, ord)
			key := sts.Namespace + "/" + name
			want[key] = true
			r.mu.Lock()
			p := r.pods[key]
			var err error
			if p == nil {
				p = newPod(r, sts.Namespace, name, sts.Name, ord)
				if r.ips != nil {
					p.ip, err = r.ips.allocate()
				}
				r.pods[key] = p
			}
			r.mu.Unlock()
			if err != nil {
				return err
			}
			if err := p.sync(ctx, sts); err != nil {
				p.wait(err.Error())
			}
			if p.isReady() {
				ready++
			}
		}
		if err := r.updateStatus(ctx, sts, n, ready); err != nil && ctx.Err() == nil {
			r.o.Logf("StatefulSet %s/%s status: %v", sts.Namespace, sts.Name, err)
		}
	}
	r.mu.Lock()
	var gone []*pod
	for key, p := range r.pods {
		if !want[key] {
			gone = append(gone, p)
			delete(r.pods, key)
		}
	}
	r.mu.Unlock()
	for _, p := range gone {
		p.logf("deleting: its StatefulSet was deleted or scaled down")
		p.remove()
	}
	if r.ips != nil {
		return r.syncEndpointSlices(ctx)
	}
	return nil
}

// updateStatus reports the replicas as the StatefulSet controller would, writing only
// when something changed.
func (r *Runner) updateStatus(ctx context.Context, sts *appsv1.StatefulSet, replicas, ready int) error {
	want := sts.Status
	want.ObservedGeneration = sts.Generation
	want.Replicas = int32(replicas)
	want.ReadyReplicas = int32(ready)
	want.AvailableReplicas = int32(ready)
	want.CurrentReplicas = int32(replicas)
	want.UpdatedReplicas = int32(replicas)
	if want.ObservedGeneration == sts.Status.ObservedGeneration && want.Replicas == sts.Status.Replicas &&
		want.ReadyReplicas == sts.Status.ReadyReplicas && want.AvailableReplicas == sts.Status.AvailableReplicas &&
		want.CurrentReplicas == sts.Status.CurrentReplicas && want.UpdatedReplicas == sts.Status.UpdatedReplicas {
		return nil
	}
	patch := client.MergeFrom(sts.DeepCopy())
	sts.Status = want
	return r.o.Client.Status().Patch(ctx, sts, patch)
}

func (r *Runner) stopAll() {
	r.mu.Lock()
	ps := make([]*pod, 0, len(r.pods))
	for _, p := range r.pods {
		ps = append(ps, p)
	}
	r.pods = map[string]*pod{}
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.remove()
		}()
	}
	wg.Wait()
	// Remove the namespace directories the pods left empty, and Dir if it is empty then.
	entries, _ := os.ReadDir(r.o.Dir)
	for _, e := range entries {
		_ = os.Remove(filepath.Join(r.o.Dir, e.Name()))
	}
	_ = os.Remove(r.o.Dir)
}
