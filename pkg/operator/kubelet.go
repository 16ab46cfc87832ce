package operator

import (
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	"github.com/lookout-operator/lookout/pkg/apply"
	kubeletctrl "github.com/lookout-operator/lookout/pkg/controller/kubelet"
	"github.com/lookout-operator/lookout/pkg/kubelet"
)

// setupKubelet registers the kubelet controller when --kubelet-service is given.
func setupKubelet(mgr manager.Manager, opts Options, writes *apply.Metrics, rec recorder.EventRecorder) error {
	k := opts.Kubelet
	if k.Service.Name == "" {
		return nil
	}
	cfg := kubeletctrl.DefaultConfig()
	cfg.Namespace, cfg.Name = k.Service.Namespace, k.Service.Name
	cfg.Selector = k.Selector
	cfg.Endpoints, cfg.EndpointSlices, cfg.HTTPMetrics = k.Endpoints, k.EndpointSlice, k.HTTPMetrics
	if k.NodeAddressPriority != "" {
		p, err := kubelet.ParseAddressPriority(k.NodeAddressPriority)
		if err != nil {
			return fmt.Errorf("--kubelet-node-address-priority: %w", err)
		}
		cfg.AddressPriority = p
	}
	if k.SyncPeriod > 0 {
		cfg.SyncPeriod = k.SyncPeriod
	}
	cfg.Labels, cfg.Annotations = opts.Labels, opts.Annotations
	metrics, err := kubeletctrl.NewMetrics(opts.Registry)
	if err != nil {
		return err
	}
	r := kubeletctrl.New(kubeletctrl.Deps{WriteMetrics: writes, Metrics: metrics, Recorder: rec}, cfg)
	if err := r.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the kubelet controller: %w", err)
	}
	return nil
}
